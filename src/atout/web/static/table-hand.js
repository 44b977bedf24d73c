// Your hand: sorted, fitted to its width, each card a button (played, or chosen for the écart or a poignée).

import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import * as cards from "./cards.js";

const MIN_STEP = 28; // the least of each hand card that shows (px): its index and suit, above 24 px

/** The hand's cards as buttons: playable ones marked on your turn, chosen ones pressed. */
export function renderHand(view) {
  const s = view.state;
  const d = s.deal;
  const plays = new Set(view.legal("play").map((c) => c.play));
  const discard = view.legal("discard_from")[0];
  const myTurn = Boolean(d) && view.isMyTurn();
  const choosing = discard ? view.ecart : view.poignee ? view.poignee.cards : null;
  // built again only when what it shows changed: most events are other seats' cards, and a rebuilt hand
  // cost a forced layout at every one (the renderer's largest single cost in a deal)
  if (!view.toDraw("hand", [d && s.you !== null && [d.hand, d.ecart, d.phase], [...plays], myTurn,
    choosing && [...choosing], Boolean(view.poignee)])) return;
  if (!d || s.you === null) {
    clear(view.hand);
    view.hand.hidden = true;
    return;
  }
  view.hand.hidden = false;
  const hand = cards.sortHand(d.hand);
  let row = view.hand.querySelector(".hand-cards");
  if (!row) {
    clear(view.hand);
    row = view.hand.appendChild(h("div", { class: "hand-cards", role: "group" }));
  }
  row.setAttribute("aria-label", t("table.hand_n", { n: hand.length }));
  // each card's button kept from the last drawing (its face, its place in the row): only its marks change, and a
  // card played leaves the row without the others being built, laid out and painted again
  const kept = new Map([...row.querySelectorAll("button.card")].map((b) => [b.dataset.card, b]));
  const buttons = hand.map((code, index) => {
    const classes = ["card", "in-hand"];
    if (myTurn && plays.has(code) && !view.poignee) classes.push("playable");
    else if (myTurn && plays.size && !view.poignee) classes.push("unplayable");
    if (choosing && choosing.has(code)) classes.push("selected");
    if (cards.isTrump(code) || code === "EX") classes.push("trump");
    const label = cards.fullName(code) + (plays.has(code) ? `, ${t("card.playable")}` : "") + (choosing && choosing.has(code) ? `, ${t("card.selected")}` : "");
    const button = kept.get(code) || h("button", { onclick: () => clickCard(view, code), dataset: { card: code } },
      cards.face(code), h("span", { class: "sr-only" }, "")); // named by its words, not an aria-label its face would contradict (axe)
    kept.delete(code);
    const covered = button.classList.contains("covered"); // layoutHand's, kept until it lays the row out again
    button.className = classes.join(" ");
    button.classList.toggle("covered", covered);
    button.dataset.index = String(index);
    if (choosing) button.setAttribute("aria-pressed", String(choosing.has(code)));
    else button.removeAttribute("aria-pressed");
    const words = button.querySelector(".sr-only");
    if (words.textContent !== label) words.textContent = label;
    return button;
  });
  for (const gone of kept.values()) gone.remove();
  layoutHand(view, buttons);
  const note = d.ecart && d.ecart.length && d.phase !== "discard" ? t("table.my_ecart", { cards: d.ecart.map(cards.word).join(" ") }) : null;
  let shown = view.hand.querySelector(".my-ecart");
  if (!note) shown?.remove();
  else if (!shown) view.hand.append(h("div", { class: "my-ecart hint" }, note));
  else if (shown.textContent !== note) shown.textContent = note;
}

/** ``view.hand``'s width, kept in ``view.handWidth`` after each layout (read while drawing, it forces one), and
 * the hand fitted again when it changes. */
export function handSizer(view) {
  view.handWidth = 0;
  return new ResizeObserver(() => {
    const width = view.hand.clientWidth;
    if (width === view.handWidth) return;
    view.handWidth = width;
    layoutHand(view);
  });
}

/** The hand fitted to its width: cards overlap, each showing at least MIN_STEP pixels (its index and suit
 * readable); when one row cannot keep that, two or three rows, balanced. */
export function layoutHand(view, buttons = null) {
  const row = view.hand && view.hand.querySelector(".hand-cards");
  if (!row) return;
  buttons ??= [...row.querySelectorAll("button.card")]; // in the hand's order: the rows hold them in it
  const n = buttons.length;
  const width = view.handWidth; // handSizer's
  if (!n || !width) {
    row.replaceChildren(...buttons); // in order, laid out once it has a width
    return;
  }
  const card = Math.round(Math.min(72, Math.max(46, width / 7)));
  const perRowMax = Math.max(1, Math.floor((width - card) / MIN_STEP) + 1);
  const rows = Math.ceil(n / perRowMax);
  const perRow = Math.ceil(n / rows);
  const step = perRow > 1 ? Math.min(card, Math.floor((width - card) / (perRow - 1))) : card;
  if (view.hand.style.getPropertyValue("--hand-card") !== `${card}px`) view.hand.style.setProperty("--hand-card", `${card}px`);
  row.dataset.rows = String(rows);
  // the rows as they should be; a row already holding its buttons in order is left as it is (moving a button
  // would lay it out and paint it again)
  const lines = [...row.querySelectorAll(":scope > .hand-row")];
  for (let r = 0; r < rows; r++) {
    const part = buttons.slice(r * perRow, (r + 1) * perRow);
    const line = lines[r] || row.appendChild(h("div", { class: "hand-row" }));
    const same = line.children.length === part.length && part.every((b, i) => line.children[i] === b);
    if (!same) {
      for (const [i, button] of part.entries()) if (line.children[i] !== button) line.insertBefore(button, line.children[i] || null);
      while (line.children.length > part.length) line.lastElementChild.remove();
    }
    part.forEach((button, i) => {
      const last = i === part.length - 1;
      const w = `${last ? card : step}px`;
      if (button.style.width !== w) button.style.width = w;
      // the next card hides its right part, or the row below its bottom: no word cut short ("TRU") at its foot
      button.classList.toggle("covered", (!last && step < card) || r < rows - 1);
    });
  }
  for (const extra of lines.slice(rows)) extra.remove();
}

/** A card clicked: chosen for the écart or a poignée (or refused, with why), else played. */
function clickCard(view, code) {
  const d = view.state.deal;
  if (view.actedAt === view.seq) return; // a card is on its way: this click is the same person's, too soon
  if (view.automatic()) { // any action of the person ends automatic mode
    view.back();
    return;
  }
  if (!view.isMyTurn()) {
    view.app.toast(t("play.not_your_turn"), "error");
    return;
  }
  const discard = view.legal("discard_from")[0];
  if (discard) {
    if (view.ecart.has(code)) view.ecart.delete(code);
    else if (!discard.discard_from.includes(code)) return view.refused({ code: "local", message: ecartReason(view, discard, code) });
    else if (view.ecart.size >= discard.count) return view.refused({ code: "local", message: t("ecart.full", { n: discard.count }) });
    else view.ecart.add(code);
    view.render();
    return;
  }
  if (view.poignee) {
    const set = view.poignee.cards;
    if (set.has(code)) set.delete(code);
    else if (!view.poignee.from.includes(code)) return view.refused({ code: "local", message: t("poignee.only_trumps") });
    else if (set.size >= view.poignee.n) return view.refused({ code: "local", message: t("poignee.full", { n: view.poignee.n }) });
    else set.add(code);
    view.render();
    return;
  }
  if (view.legal("play").length) {
    view.send({ type: "act", action: { play: code } });
    return;
  }
  void d;
  view.app.toast(t("play.not_now"), "error");
}

// Why a card may not go to the écart: the server names the reason of each refused card (the engine's rule).
function ecartReason(view, discard, code) {
  const reason = discard.refused && discard.refused[code];
  return reason ? t(`ecart.${reason}`, {}, t("ecart.no")) : t("ecart.no");
}
