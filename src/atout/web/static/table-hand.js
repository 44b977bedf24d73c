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
  clear(view.hand);
  if (!d || s.you === null) {
    view.hand.hidden = true;
    return;
  }
  view.hand.hidden = false;
  const hand = cards.sortHand(d.hand);
  const row = h("div", { class: "hand-cards", role: "group", "aria-label": t("table.hand_n", { n: hand.length }) });
  hand.forEach((code, index) => {
    const classes = ["card", "in-hand"];
    if (myTurn && plays.has(code) && !view.poignee) classes.push("playable");
    else if (myTurn && plays.size && !view.poignee) classes.push("unplayable");
    if (choosing && choosing.has(code)) classes.push("selected");
    if (cards.isTrump(code) || code === "EX") classes.push("trump");
    const label = cards.fullName(code) + (plays.has(code) ? `, ${t("card.playable")}` : "") + (choosing && choosing.has(code) ? `, ${t("card.selected")}` : "");
    row.append(h("button", {
      class: classes.join(" "), dataset: { card: code, index }, "aria-pressed": choosing ? String(choosing.has(code)) : null,
      onclick: () => clickCard(view, code),
    }, cards.face(code), h("span", { class: "sr-only" }, label))); // named by its words, not an aria-label its face would contradict (axe)
  });
  view.hand.append(row);
  layoutHand(view);
  if (d.ecart && d.ecart.length && d.phase !== "discard") {
    view.hand.append(h("div", { class: "my-ecart hint" }, t("table.my_ecart", { cards: d.ecart.map(cards.word).join(" ") })));
  }
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
export function layoutHand(view) {
  const row = view.hand && view.hand.querySelector(".hand-cards");
  if (!row) return;
  const buttons = [...row.querySelectorAll("button.card")];
  for (const line of row.querySelectorAll(".hand-row")) line.remove(); // a relayout's rows replace the last ones
  const n = buttons.length;
  const width = view.handWidth; // handSizer's
  if (!n || !width) return;
  const card = Math.round(Math.min(72, Math.max(46, width / 7)));
  const perRowMax = Math.max(1, Math.floor((width - card) / MIN_STEP) + 1);
  const rows = Math.ceil(n / perRowMax);
  const perRow = Math.ceil(n / rows);
  const step = perRow > 1 ? Math.min(card, Math.floor((width - card) / (perRow - 1))) : card;
  view.hand.style.setProperty("--hand-card", `${card}px`);
  row.dataset.rows = String(rows);
  let line = null;
  buttons.forEach((button, i) => {
    if (i % perRow === 0) {
      line = h("div", { class: "hand-row" });
      row.append(line);
    }
    const last = i % perRow === perRow - 1 || i === n - 1;
    button.style.width = `${last ? card : step}px`;
    // the next card hides its right part, or the row below its bottom: no word cut short ("TRU") at its foot
    button.classList.toggle("covered", (!last && step < card) || Math.floor(i / perRow) < rows - 1);
    line.append(button);
  });
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
