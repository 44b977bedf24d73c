// The table's side (options, score sheet) and its results panel; your turn told over a deal's review.

import { clear, h, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import { optionControls, readOptions } from "./options.js";
import { rankingList, resultBlock, reviewBlock, sheetTable } from "./result.js";
import { reviewAtTable } from "./review.js";
import { refocus } from "./table-focus.js";
import { renderChat } from "./table-log.js";
import { clockText, rankingButton, tick } from "./table-prompts.js";

/** The side column: the table's options (editable by the master between games), the score sheet, the chat. */
export function renderSide(view) {
  const s = view.state;
  const editable = s.master === s.you && s.you !== null && (s.status === "waiting" || !s.game || s.game.over);
  if (view.toDraw("options", [s.options, s.changed, s.master === s.you && s.you !== null, s.status, s.game && s.game.over])) {
    const form = h("form", { class: "table-options", onsubmit: (e) => e.preventDefault() });
    form.append(optionControls(view.app.catalogue, s.options, {
      editable, changed: s.changed || [],
      onchange: () => view.send({ type: "options", options: readOptions(form, view.app.catalogue) }),
    }));
    const showOptions = s.status === "waiting" || !s.game || s.game.over;
    replace(view.optionsBox, h("details", { open: showOptions }, h("summary", {}, t("table.options")), form));
  }
  // drawn again only when what it shows changed: redrawn at every card, its review buttons lost a click
  // whose press and release fell on either side of a redraw
  const g = s.game;
  if (view.toDraw("sheet", [g && [g.sheet, g.totals, g.deal_number, g.deals], s.players, s.seats.map((_, i) => view.playerOf(i))])) {
    if (s.game) replace(view.sheet, sheetTable(s.game, (x) => view.playerOf(x), s.players, (n) => reviewAtTable(view.app, view.id, n)));
    else clear(view.sheet);
  }
  renderChat(view);
}

/** The end of a deal, and of a game: in a panel above everything, read whole, until the person closes it
 * (the next deal may begin meanwhile: the panel stays). */
export function renderResult(view) {
  const s = view.state;
  const box = view.resultBox;
  const g = s.game;
  const over = g && g.over ? `over/${g.id}` : null;
  const review = g && g.sheet.length
    ? h("button", { type: "button", class: "quiet review-open", onclick: () => reviewAtTable(view.app, view.id, g.sheet.length).then(() => turnInReview(view)) }, t("table.review"))
    : "";
  let key = null;
  let parts = null;
  if (over && !view.dismissed.has(over)) {
    key = over;
    const d = s.deal;
    parts = [gameOver(view), d && d.result ? resultBlock(d.result, (x) => view.playerOf(x), s.players, view.app.catalogue, false) : "", review,
      g.outcome ? h("a", { href: `#/g/${encodeURIComponent(g.id)}`, class: "game-link" }, t("game.page")) : ""];
  } else if (!over && view.result && g && view.result.game === g.id && !view.dismissed.has(view.result.key)) { // never the last game's
    key = view.result.key;
    const record = view.result.record || view.lastRecord;
    parts = [resultBlock(view.result.result, (x) => view.playerOf(x), s.players, view.app.catalogue),
      h("div", { class: "row" }, h("button", { type: "button", class: "primary", dataset: { dismiss: "result" }, onclick: () => dismiss(view, key) }, t("table.result_close")), review),
      record ? reviewBlock(record, (x) => view.playerOf(x)) : ""];
  }
  if (!key) {
    if (!box.hidden) { box.hidden = true; clear(box); }
    view.resultKey = null;
    dockResult(view, false);
    return;
  }
  // still open when the next deal needs this person: aside, in the page's flow, till closed (it covered the
  // bids and the clock)
  if (!over && s.deal && s.deal.phase !== "end" && view.isMyTurn()) view.dockedKey = key;
  dockResult(view, view.dockedKey === key);
  const signature = JSON.stringify([key, lang(), s.game && s.game.over, s.master === s.you, Boolean(view.result && view.result.record), s.game && s.game.sheet.length]);
  if (signature === view.resultKey && !box.hidden) return; // drawn already: a re-render would close its details
  view.resultKey = signature;
  box.className = `felt-panel result-panel ${over ? "game-end" : "deal-end"}${view.dockedKey === key ? " docked" : ""}`;
  box.setAttribute("aria-label", t(over ? "game.over" : "table.result_open"));
  replace(box, h("button", { class: "quiet close", onclick: () => dismiss(view, key), "aria-label": t("close") }, "×"), parts);
  if (box.hidden || view.shownResult !== key) view.resultOpened = true;
  view.shownResult = key;
  box.hidden = false;
}

/** The result panel above the table (centred; a phone's bottom sheet), or docked: first in the side column
 * (below the hand on a phone), where it covers nothing. Focus inside it stays there. */
function dockResult(view, docked) {
  const box = view.resultBox;
  box.classList.toggle("docked", docked);
  view.dockNote.hidden = !docked; // where it went, on a screen whose side column is below the hand
  const place = docked ? view.side : view.root;
  if (box.parentNode === place) return;
  const focused = box.contains(document.activeElement) ? document.activeElement : null;
  if (docked) view.side.prepend(box);
  else view.root.append(box);
  if (focused) focused.focus({ preventScroll: true });
}

/** The result closed by the person: it stays closed, and the focus goes back where it was. */
function dismiss(view, key) {
  const inside = view.resultBox.contains(document.activeElement);
  view.dismissed.add(key);
  view.render();
  if (inside) refocus(view, view.beforeResult); // back to where it was when the result opened
}

/** The game's end: its ranking, and another game (the master), the ranking (a daily) or the lobby. */
function gameOver(view) {
  const s = view.state;
  const g = s.game;
  const master = s.master === s.you && s.you !== null;
  return h("div", { class: "game-over", role: "region", "aria-label": t("game.over") },
    h("h2", {}, g.outcome === "cancelled" ? t("game.cancelled") : t("game.over")),
    g.outcome === "finished" ? rankingList(g, (x) => view.playerOf(x)) : "",
    h("div", { class: "row" },
      s.daily ? rankingButton(view) // played once: its ranking, never another game
        : master ? h("button", { onclick: () => view.send({ type: "start" }) }, t("game.again")) : h("p", { class: "hint" }, t("game.again_wait")),
      h("button", { class: "quiet", onclick: () => view.app.go("") }, t("table.to_lobby"))));
}

/** Your turn while a deal's review is open over the table (a modal dialog: the bids out of reach): it says so
 * with the clock, and one button back to the table and its first control (30 s reading it ran the clock out). */
export function turnInReview(view) {
  const dialog = document.querySelector("dialog.review-dialog[open]");
  if (!dialog) return;
  const banner = dialog.querySelector(".review-turn");
  if (!view.isMyTurn()) {
    if (banner) banner.remove();
    return;
  }
  if (banner) return;
  dialog.prepend(h("div", { class: "notice review-turn", role: "alert" }, h("strong", {}, t("table.your_turn")), " ", clockText(view), " ",
    h("button", { type: "button", class: "primary", onclick: () => { dialog.close(); refocus(view, null); } }, t("table.back_to_table"))));
  tick(view);
}
