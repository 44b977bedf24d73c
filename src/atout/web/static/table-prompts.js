// What you may do now at the table (bids, call, écart, chelem, poignée, I'm back, votes), and its clock.

import { h, morph } from "./dom.js";
import { t } from "./i18n.js";
import * as cards from "./cards.js";
import { contractWord } from "./result.js";
import { cardFace } from "./table-felt.js";

/** The actions' box: notices (options changed, a vote, the same address), then what this person may do now; drawn
 * anew and put in place by ``morph`` (a prompt that stays is not built, laid out and said again at each event). */
export function renderActions(view) {
  const box = h("div");
  drawActions(view, box);
  morph(view.actions, [...box.childNodes]);
}

function drawActions(view, box) {
  const s = view.state;
  const d = s.deal;
  const me = s.you;
  const mySeat = me !== null ? s.seats[me] : null;
  if (s.changed && s.changed.length) {
    box.append(h("div", { class: "notice" }, t("options.changed_notice", { list: s.changed.map((n) => t(`options.${n}`, {}, n)).join(", ") }), " ",
      h("button", { class: "quiet", onclick: () => view.app.net.send({ type: "seen", table: view.id }) }, t("options.seen"))));
  }
  if (s.vote) box.append(voteBox(view));
  if (view.automatic()) { // the clock ran out: no prompt, the seat is the robot's until the person is back
    box.append(h("div", { class: "notice warn automatic-notice", role: "alert" }, h("strong", {}, t("table.automatic_title")), " ",
      h("button", { class: "primary big", dataset: { back: "" }, onclick: () => view.back() }, t("table.back_big"))));
    return;
  }
  const waiting = s.status === "waiting" || !s.game || s.game.over;
  const shared = waiting ? s.same_address || [] : [];
  if (shared.length && me !== null && (s.master === me || shared.includes(me))) {
    box.append(h("div", { class: "notice warn", dataset: { notice: "same-address" } },
      t("table.same_address", { names: shared.map((x) => view.nameOf(x)).join(", ") })));
  }
  const people = s.seats.filter((x) => x.kind === "person").length;
  if (waiting && me !== null && s.options.competitive && !s.daily && people > 1 && !shared.length) { // the rule, said before the start
    box.append(h("p", { class: "hint", dataset: { notice: "address-rule" } }, t("table.address_rule")));
  }
  if (waiting) {
    if (s.game && s.game.over && view.dismissed.has(`over/${s.game.id}`)) {
      box.append(h("div", { class: "row" }, h("button", { class: "quiet", onclick: () => { view.dismissed.delete(`over/${s.game.id}`); view.render(); } }, t("table.result_open"))));
    }
    if (s.daily) {
      if (s.game && s.game.over) box.append(h("div", { class: "row" }, rankingButton(view)));
    } else if (me !== null && s.master === me) {
      const empty = s.seats.filter((x) => x.kind === "empty").length;
      box.append(h("div", { class: "row" },
        empty ? h("button", { class: "quiet", onclick: () => view.fillRobots() }, t("table.fill_robots")) : "",
        h("button", { class: "primary", disabled: empty > 0, onclick: () => view.send({ type: "start" }) }, t(s.game && s.game.over ? "game.again" : "table.start"))));
      box.append(inviteForm(view));
    } else if (me !== null) {
      box.append(h("p", { class: "hint" }, t("table.wait_master")));
    } else {
      box.append(h("p", { class: "hint" }, s.seats.some((x) => x.kind === "empty") ? t("table.pick_seat") : t("table.watching")));
    }
    return;
  }
  if (!d) return;
  if (d.phase === "end") {
    const last = s.game && s.game.deal_number >= s.game.deals && !(d.result && d.result.void); // a void deal is dealt again
    box.append(h("p", { class: "hint" }, last ? t("table.game_ending") : t("table.next_deal")));
    return;
  }
  if (!view.isMyTurn()) {
    if (me !== null && d.to_act === me && view.actedAt === view.seq) {
      box.append(h("p", { class: "waiting-for" }, t("table.sent")));  // the answer is on its way
    } else {
      box.append(h("p", { class: "waiting-for" }, t(me === null ? "table.to_act" : "table.waiting_for", { name: view.nameOf(d.to_act) }), " ", clockText(view)));
    }
    const kept = me === null ? null : keptPlace(view, d.phase);
    if (kept) box.append(kept);
    return;
  }
  box.append(h("div", { class: "turn" }, h("strong", {}, t("table.your_turn")), " ", clockText(view)));
  const bids = view.legal("bid");
  const calls = view.legal("call");
  const discard = view.legal("discard_from")[0];
  const chelem = view.legal("chelem");
  const poignee = view.legal("poignee_from")[0];
  const petit = view.legal("petit_sec");
  if (bids.length) {
    const withChelem = bids.some((b) => b.chelem);
    const chelemBox = withChelem ? h("input", { type: "checkbox", id: "bid-chelem" }) : null;
    box.append(h("div", { class: "row bids", role: "group", "aria-label": t("bid.title") },
      bidButtons(view, (c) => ({
        disabled: !bids.some((b) => b.bid === c && !b.chelem), dataset: { bid: c },
        onclick: () => view.send({ type: "act", action: chelemBox && chelemBox.checked && c !== "pass" ? { bid: c, chelem: true } : { bid: c } }),
      })),
      chelemBox ? h("label", {}, chelemBox, " ", t("bid.chelem")) : ""));
  } else if (calls.length) {
    box.append(h("div", { class: "row calls", role: "group", "aria-label": t("call.title") }, h("span", {}, t("call.title")),
      calls.map((c) => h("button", { class: "card-button", dataset: { call: c.call }, "aria-label": t("call.label", { card: cards.fullName(c.call) }), onclick: () => view.send({ type: "act", action: { call: c.call } }) },
        cardFace(c.call, "small")))));
  } else if (discard) {
    const n = discard.count;
    box.append(h("div", { class: "row" },
      h("span", {}, t("ecart.choose", { n, k: view.ecart.size })),
      h("button", { class: "primary", disabled: view.ecart.size !== n, dataset: { confirm: "ecart" }, onclick: () => view.send({ type: "act", action: { discard: [...view.ecart] } }) }, t("ecart.confirm")),
      view.ecart.size ? h("button", { class: "quiet", onclick: () => { view.ecart.clear(); view.render(); } }, t("ecart.clear")) : ""),
    h("p", { class: "refusal", role: "alert" }));
  } else if (chelem.length) {
    box.append(h("div", { class: "row", role: "group", "aria-label": t("chelem.title") }, h("span", {}, t("chelem.title")),
      chelem.map((c) => h("button", { class: c.chelem ? "quiet" : "primary", dataset: { chelem: String(c.chelem) }, onclick: () => view.send({ type: "act", action: { chelem: c.chelem } }) }, t(c.chelem ? "chelem.yes" : "chelem.no")))));
  } else if (petit.length) {
    box.append(h("div", { class: "row" }, h("span", {}, t("petit_sec.title")),
      petit.map((c) => h("button", { dataset: { petit: c.petit_sec }, onclick: () => view.send({ type: "act", action: { petit_sec: c.petit_sec } }) }, t(`petit_sec.${c.petit_sec}`)))));
  } else {
    if (view.poignee) {
      box.append(h("div", { class: "row" },
        h("span", {}, t("poignee.choose", { size: t(`poignee.${view.poignee.size}`), n: view.poignee.n, k: view.poignee.cards.size })),
        h("button", { class: "primary", disabled: view.poignee.cards.size !== view.poignee.n, onclick: () => showPoignee(view) }, t("poignee.show")),
        h("button", { class: "quiet", onclick: () => { view.poignee = null; view.render(); } }, t("poignee.cancel"))));
    } else {
      box.append(h("p", {}, t("play.title")));
      if (poignee) {
        box.append(h("div", { class: "row", role: "group", "aria-label": t("poignee.offer") }, h("span", {}, t("poignee.offer")),
          Object.entries(poignee.sizes).map(([size, n]) => h("button", { class: "quiet", dataset: { poignee: size }, onclick: () => startPoignee(view, poignee, size, n) },
            t("poignee.size_button", { size: t(`poignee.${size}`), n })))));
      }
    }
    box.append(h("p", { class: "refusal", role: "alert" }));
  }
}

/** A button for each contract of the catalogue, as one's turn shows them; attrs(contract) says what each does. */
function bidButtons(view, attrs) {
  return view.app.catalogue.contracts.map(({ name: c }) => h("button", { class: c === "pass" ? "quiet" : "", ...attrs(c) }, contractWord(c)));
}

/** While others act, one's own turn's room, unseen, so that the hand below keeps still under a finger: the bids' row
 * in the bidding (its buttons as they wrap on a phone), the prompt and its refusal line in the play. */
function keptPlace(view, phase) {
  const kept = (...parts) => h("div", { class: "kept-place", "aria-hidden": "true" }, ...parts);
  if (phase === "bidding") {
    return kept(h("div", { class: "row bids" }, bidButtons(view, () => ({ disabled: true, tabindex: "-1" }))));
  }
  return phase === "play" ? kept(h("p", {}, t("play.title")), h("p", { class: "kept-refusal" })) : null;
}

/** A proposal to cancel the game: who proposed it, the votes so far, and this person's two buttons. */
function voteBox(view) {
  const v = view.state.vote;
  const me = view.state.you;
  const mine = me !== null && v.voters.includes(me) && v.votes[String(me)] === undefined && v.by !== me;
  const count = Object.values(v.votes).filter(Boolean).length;
  return h("div", { class: "notice vote", role: "alert" },
    t("vote.proposed", { name: view.nameOf(v.by), yes: count, n: v.voters.length, s: Math.ceil(v.seconds_left) }), " ",
    mine ? h("button", { dataset: { vote: "yes" }, onclick: () => view.send({ type: "vote", accept: true }) }, t("vote.accept")) : "",
    mine ? h("button", { class: "quiet", dataset: { vote: "no" }, onclick: () => view.send({ type: "vote", accept: false }) }, t("vote.refuse")) : "");
}

/** The master's invitation: a name, told to come to this table. */
function inviteForm(view) {
  const input = h("input", { name: "invite", maxlength: 20, "aria-label": t("invite.name"), placeholder: t("invite.name") });
  return h("form", {
    class: "row invite", onsubmit: async (e) => {
      e.preventDefault();
      if (!input.value.trim()) return;
      try {
        await view.app.net.request({ type: "invite", table: view.id, name: input.value.trim() });
        view.app.toast(t("invite.sent", { name: input.value.trim() }));
        input.value = "";
      } catch (err) {
        view.app.toast(view.app.errorText(err), "error");
      }
    },
  }, input, h("button", { type: "submit", class: "quiet" }, t("invite.send")));
}

/** A poignée offered: its cards chosen in the hand, the highest trumps preselected. */
function startPoignee(view, choice, size, n) {
  const from = choice.poignee_from;
  const trumps = cards.sortHand(from.filter((c) => c !== "EX"));
  const pick = trumps.length >= n ? trumps.slice(0, n) : [...trumps, "EX"];
  view.poignee = { size, n, from, cards: new Set(pick) };
  view.render();
}

/** The poignée chosen, shown to the table. */
async function showPoignee(view) {
  const chosen = [...view.poignee.cards];
  const answer = await view.send({ type: "act", action: { poignee: chosen } });
  if (answer) view.poignee = null;
  view.render();
}

/** The seconds left to who must act, as a timer (tick() keeps it counting). */
export function clockText(view) {
  const left = view.secondsLeft();
  return left === null ? "" : h("span", { class: "clock", role: "timer" }, `${Math.ceil(left)} s`);
}

/** Four times a second: every clock on the page counts down, hurried under 6 s. */
export function tick(view) {
  const left = view.secondsLeft();
  if (left === null) return;
  const text = `${Math.ceil(left)} s`;
  for (const el of [...view.root.querySelectorAll(".clock"), ...document.querySelectorAll(".review-turn .clock")]) {
    if (el.textContent !== text) el.textContent = text; // four ticks a second, a new second once: drawn once
    el.classList.toggle("hurry", left < 6);
  }
}

/** Where a daily deal's (or a tournament round's) table is ranked: the daily page, the tournament's. */
export function rankingRoute(view) {
  const x = view.state.daily;
  return x.tournament ? `tournaments/${encodeURIComponent(x.tournament)}` : "daily";
}

/** The daily's (or the tournament's) ranking, one click away: a daily table is played once. */
export function rankingButton(view) {
  return h("button", { class: "primary", dataset: { ranking: "" }, onclick: () => view.app.go(rankingRoute(view)) },
    t(view.state.daily.tournament ? "table.tournament_ranking" : "table.daily_ranking"));
}
