// The felt: the seats around it (you at the bottom), the trick before who played it, the dog, the cards shown.

import { h, morph, replace } from "./dom.js";
import { t } from "./i18n.js";
import * as cards from "./cards.js";
import { levelLabel, shownName } from "./options.js";
import { contractWord } from "./result.js";

const POSITIONS = {
  3: ["bottom", "topright", "topleft"],
  4: ["bottom", "right", "top", "left"],
  5: ["bottom", "right", "topright", "topleft", "left"],
};

/** The seats, and in the centre the dog, the trick (or the last one, with who took it) and what the deal waits for:
 * drawn anew at each event, and put in place by ``morph``, which touches only what changed (most events change a
 * card on the felt and a seat's words, not the seats' boxes and cards already there). */
export function renderFelt(view) {
  const s = view.state;
  const d = s.deal;
  view.felt.dataset.players = String(s.players);
  const centre = h("div", { class: "centre" });
  if (!d || !s.game) {
    centre.append(h("p", { class: "waiting" }, s.seats.some((x) => x.kind === "empty") ? t("table.waiting_players") : t("table.waiting_start")));
  } else {
    if (d.dog && ["call", "discard", "chelem"].includes(d.phase)) {
      centre.append(h("div", { class: "dog" }, h("span", { class: "caption" }, t("table.dog")), h("div", { class: "cards" }, d.dog.map((c) => cardFace(c)))));
    }
    const trick = d.trick.length ? d.trick : (d.phase === "play" || d.phase === "end") && d.last_trick ? d.last_trick.cards : [];
    const done = !d.trick.length && trick.length;
    const trickBox = h("div", { class: `trick ${done ? "done" : ""}`, role: "group", "aria-label": t("table.trick") }); // a named group: a div may not carry a name (axe)
    const winner = done && d.last_trick ? d.last_trick.winner : null;
    for (const x of trick) {
      trickBox.append(h("div", { class: `played pos-${position(view, x.seat)}${x.seat === winner ? " winner" : ""}`, dataset: { card: x.card, seat: x.seat } },
        cardFace(x.card, "", true), h("span", { class: "sr-only" }, `${view.playerOf(x.seat)}: ${cards.fullName(x.card)}`)));
    }
    if (done && d.last_trick) trickBox.append(h("div", { class: "trick-caption" }, t("table.trick_to", { name: view.playerOf(d.last_trick.winner) })));
    centre.append(trickBox);
    if (s.game.over) { // a game cancelled mid-deal stops in that deal's phase: it waits for no bid any more
      if (s.game.outcome === "cancelled") centre.append(h("p", { class: "phase-note" }, t("game.cancelled")));
    } else if (d.phase === "bidding") centre.append(h("p", { class: "phase-note" }, t("table.bidding")));
    else if (d.phase === "call" && d.to_act !== view.me) centre.append(h("p", { class: "phase-note" }, t("table.calling", { name: view.playerOf(d.taker) })));
    else if (d.phase === "discard" && d.to_act !== view.me) centre.append(h("p", { class: "phase-note" }, t("table.discarding", { name: view.playerOf(d.taker) })));
  }
  morph(view.felt, s.seats.map((seat) => seatBox(view, seat)), centre);
}

/** One seat: its name and tags, cards and tricks, its clock on its turn, and the buttons to take or fill it. */
function seatBox(view, seat) {
  const s = view.state;
  const d = s.deal;
  const i = seat.seat;
  const mine = i === s.you;
  const toAct = d && d.to_act === i && d.phase !== "end";
  const classes = ["seat", `pos-${position(view, i)}`, seat.kind];
  if (mine) classes.push("mine");
  if (toAct) classes.push("to-act");
  if (!seat.present || seat.connected === false) classes.push("absent");
  if (seat.automatic) classes.push("automatic");
  if (d && d.seats && !d.seats.includes(i)) classes.push("sitting-out");
  const tags = [];
  if (s.master === i) tags.push(h("span", { class: "star", title: t("seat.master"), "aria-label": t("seat.master") }, "★"));
  if (seat.kind === "robot") tags.push(h("span", { class: "tag robot", title: levelLabel(view.app.catalogue, seat.level) }, t("seat.robot_tag")));
  if (seat.robot_account) tags.push(h("span", { class: "tag robot" }, t("robot.tag"))); // a person's program (docs/robot-accounts.md)
  if (seat.kind === "person" && seat.connected === false) tags.push(h("span", { class: "tag warn" }, seat.present ? t("seat.disconnected") : t("seat.absent")));
  if (seat.automatic) tags.push(h("span", { class: "tag warn" }, t("seat.automatic")));
  if (seat.abandoned) tags.push(h("span", { class: "tag bad" }, t("seat.abandoned")));
  if (d && d.dealer === i) tags.push(h("span", { class: "tag", title: t("seat.dealer") }, t("seat.dealer_short")));
  if (d && d.taker === i && d.contract && d.phase !== "bidding") tags.push(h("span", { class: "tag taker" }, contractWord(d.contract))); // bidding: its bubble says it
  if (d && d.partner !== null && d.partner !== undefined && d.partner === i && d.partner !== d.taker) tags.push(h("span", { class: "tag taker" }, t("seat.partner")));
  if (d && d.phase === "bidding") {
    const bid = [...d.bids].reverse().find((b) => b.seat === i);
    if (bid) tags.push(h("span", { class: "bubble" }, contractWord(bid.bid)));
  }
  const info = [];
  if (d && d.hand_sizes) info.push(t("seat.cards", { n: d.hand_sizes[i] }));
  if (d && d.tricks_won && d.phase === "play") info.push(t("seat.tricks", { n: d.tricks_won[i] }));
  if (seat.taking) info.push(t("seat.taking", { name: seat.taking })); // quick play: a person takes it next deal
  const buttons = [];
  if ((s.status === "waiting" || (s.game && s.game.over) || !s.game) && !s.daily) { // a daily's robots stay
    if (seat.kind === "empty" && s.you === null) buttons.push(h("button", { onclick: () => view.sit(i), "aria-label": t("seat.sit_label", { n: i + 1 }) }, t("seat.sit")));
    if (seat.kind === "empty" && s.master === s.you && s.you !== null) buttons.push(h("button", { class: "quiet", onclick: () => view.addRobot(i), "aria-label": t("seat.robot_label", { n: i + 1 }) }, t("seat.robot")));
    if (seat.kind === "robot" && s.master === s.you && s.you !== null) buttons.push(h("button", { class: "quiet", onclick: () => view.send({ type: "unrobot", seat: i }), "aria-label": t("seat.unrobot_label", { name: shownName(view.app.catalogue, seat.name) }) }, t("seat.unrobot")));
  }
  const firstRobot = s.seats.findIndex((x) => x.kind === "robot" && !x.taking); // the seat a claim takes
  if (s.quick && i === firstRobot && s.you === null && !s.seats.some((x) => x.taking === view.app.me.name)) {
    buttons.push(h("button", { class: "quiet", onclick: () => view.claim(), "aria-label": t("quick.claim_label", { id: s.id }) }, t("quick.claim")));
  }
  const clock = toAct && s.clock && s.clock.seat === i ? h("span", { class: "clock", role: "timer", "aria-label": t("seat.clock") }, "") : "";
  return h("div", { class: classes.join(" "), dataset: { seat: i } },
    h("div", { class: "seat-name" }, seat.kind === "empty" ? t("seat.empty") : (mine ? `${seat.name} (${t("table.you")})` : shownName(view.app.catalogue, seat.name)), " ", tags),
    info.length ? h("div", { class: "seat-info" }, info.join(" · ")) : "",
    clock, buttons);
}

/** A card's face, an image named by the card (``hidden``: a face whose words are said beside it). */
export function cardFace(code, extra = "", hidden = false) {
  const named = hidden ? { "aria-hidden": "true" } : { role: "img", "aria-label": cards.fullName(code) };
  return h("span", { class: `card ${extra}`, ...named, title: cards.fullName(code), dataset: { card: code } }, cards.face(code));
}

/** Where a seat sits on the felt, counted from yours at the bottom. */
function position(view, seat) {
  const n = view.state.players;
  const base = view.me === null ? 0 : view.me;
  return POSITIONS[n][(seat - base + n) % n];
}

/** The last trick, or the cards shown (the dog, the écart's trumps, the poignées), over the felt when asked. */
export function renderOverlay(view) {
  const d = view.state.deal;
  const box = view.overlayBox;
  if (!view.overlay || !d) {
    box.hidden = true;
    return;
  }
  const closeButton = h("button", { class: "quiet close", onclick: () => view.toggle(null), "aria-label": t("close") }, "×");
  if (view.overlay === "last") {
    const lt = d.last_trick;
    if (!lt) { box.hidden = true; return; }
    replace(box, closeButton, h("h2", {}, t("table.last_trick")),
      h("div", { class: "cards" }, lt.cards.map((c) => h("figure", {}, cardFace(c.card), h("figcaption", {}, view.playerOf(c.seat))))),
      h("p", {}, t("table.trick_won", { name: view.playerOf(lt.winner) })));
  } else {
    const parts = [];
    if (d.dog) parts.push(h("h3", {}, t("table.dog")), h("div", { class: "cards" }, d.dog.map((c) => cardFace(c))));
    if (d.ecart_trumps && d.ecart_trumps.length) parts.push(h("h3", {}, t("table.ecart_trumps")), h("div", { class: "cards" }, d.ecart_trumps.map((c) => cardFace(c))));
    if (d.ecart && d.ecart.length) parts.push(h("h3", {}, t("table.your_ecart")), h("div", { class: "cards" }, d.ecart.map((c) => cardFace(c))));
    for (const p of d.poignees) parts.push(h("h3", {}, t("table.poignee_of", { name: view.playerOf(p.seat), size: t(`poignee.${p.size}`) })), h("div", { class: "cards" }, p.cards.map((c) => cardFace(c))));
    if (!parts.length) parts.push(h("p", {}, t("table.nothing_shown")));
    replace(box, closeButton, h("h2", {}, t("table.shown")), parts);
  }
  box.hidden = false;
}

/** The table's keys: L the last trick, S the cards shown, Escape closes, the arrows walk the hand. */
export function onKey(view, e) {
  if (e.target && ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) return;
  if (e.key === "Escape") view.toggle(null);
  else if (e.key === "l" || e.key === "L") view.toggle("last");
  else if (e.key === "s" || e.key === "S") view.toggle("shown");
  else if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    const buttons = [...view.hand.querySelectorAll("button.card")];
    const at = buttons.indexOf(document.activeElement);
    if (!buttons.length) return;
    const next = at < 0 ? 0 : (at + (e.key === "ArrowRight" ? 1 : -1) + buttons.length) % buttons.length;
    buttons[next].focus();
    e.preventDefault();
  }
}
