// Fetching a person back to their table (issue 47; docs/server.md, "A new game fetches its people"): a
// person is wherever they are on the site. When a table of theirs needs them — a new game started, a
// tournament's round began, their turn came while they read their profile — a notice on every page says so
// with a button back to the table, the tab's title says it, a tone plays (unless the table's bell is off) and,
// where the person allowed it, the browser notifies. Loaded the first time it is needed.

import { h } from "./dom.js";
import { partWords, t } from "./i18n.js";
import { applyPatch } from "./table.js";
import { soundOn } from "./table-bar.js";

await partWords("table");

/** What waits for the person, by why they are fetched. */
const WAITING = { game: "summons.game", round: "summons.round", turn: "summons.turn" };

const left = new Map(); // table id -> {state, seq}: a table this page left, still heard (the page said `away`)
let shown = null; // {table, why, box}: the notice on screen

/** The page leaves the view of a table it was at: it keeps its state to hear a turn or a new game there. */
export function leaving(view) {
  if (view && view.state && view.state.you !== null && view.state.you !== undefined) {
    left.set(view.id, { state: view.state, seq: view.seq, game: view.state.game && view.state.game.id });
  }
}

/** A frame of a table the page left: a new game or this person's turn there fetches them. */
export function heard(app, m) {
  const kept = left.get(m.table);
  if (!kept) return;
  if (m.type === "table") kept.state = m.state;
  else if (m.state) kept.state = m.state;
  else if (m.patch && kept.state) kept.state = applyPatch(kept.state, m);
  const s = kept.state;
  if (!s) return;
  const game = s.game && s.game.id;
  const d = s.deal;
  if (game && game !== kept.game && !s.game.over) {
    kept.game = game;
    summon(app, m.table, "game");
  } else if (d && d.to_act === s.you && d.legal && d.legal.length && !(s.seats[s.you] || {}).automatic) {
    summon(app, m.table, shown && shown.table === m.table ? shown.why : "turn");
  }
}

/** The person is at the table again: the notice goes, the title comes back. */
export function arrived(table) {
  left.delete(table);
  if (shown && shown.table === table) dismiss();
}

function dismiss() {
  if (!shown) return;
  shown.box.remove();
  shown = null;
  if (document.title === t("summons.title")) document.title = document.documentElement.dataset.restTitle || "Atout";
}

/** The notice, on whatever page the person is on: what waits for them, and the way back in one button. */
export function summon(app, table, why) {
  if (shown && shown.table === table && shown.why === why) return;
  const fresh = !shown || shown.table !== table;
  if (shown) shown.box.remove();
  const go = h("button", { type: "button", class: "primary", onclick: () => { dismiss(); app.go(`t/${table}`); } }, t("summons.go"));
  const box = h("aside", { class: "summons", "aria-label": t("summons.title"), dataset: { table, why } },
    h("p", { role: "alert" }, h("strong", {}, t(WAITING[why])), " ", why === "turn" ? "" : t("summons.clock")),
    h("div", { class: "row" }, go,
      h("button", { type: "button", class: "quiet", onclick: () => dismiss() }, t("summons.later"))));
  shown = { table, why, box };
  document.body.prepend(box);
  if (!document.documentElement.dataset.restTitle) document.documentElement.dataset.restTitle = document.title;
  document.title = t("summons.title");
  if (fresh) {
    if (soundOn()) import("./table-bar.js").then((m) => m.chime && m.chime());
    notify(t(WAITING[why]));
  }
}

/** A browser notification, only where the person allowed them already (the site never asks unprompted). */
function notify(text) {
  if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return;
  try {
    new Notification(t("summons.title"), { body: text, tag: "atout-table" });
  } catch (err) {
    void err; // a browser that allows them only from a service worker: the title and the tone say it
  }
}
