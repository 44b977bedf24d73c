// The hint at a practice table (the bar's "Hint", or the key I): the server asks the expert's own search
// for this seat's decision (the `hint` message, docs/protocol.md) and answers its choice and why, each
// reason the search's figures (reasons.js words them). Shown beside the hand, its card(s) highlighted, said
// to a screen reader by its live region; gone as soon as the table moves on. Loaded when first asked for.

import { h, replace } from "./dom.js";
import { partWords, t } from "./i18n.js";
import { actionWords } from "./analysis.js";
import { reasonText } from "./reasons.js";


await partWords("analysis"); // its words are among the analysis's (it shows the same reasons)

let styled = false;
/** The hint's own style sheet, added to the page once (the site allows no inline style). */
function ensureStyle() {
  if (styled || document.querySelector("link[data-hint]")) return;
  styled = true;
  document.head.append(h("link", { rel: "stylesheet", href: import.meta.resolve("/static/hint.css"), dataset: { hint: "1" } }));
}

/** The cards a hint names, to highlight in the hand. */
function hintedCards(action) {
  if (action.play) return [action.play];
  if (action.discard) return action.discard;
  if (action.poignee) return action.poignee;
  if (action.call) return [action.call];
  return [];
}

/** The hint's box, a live region between the prompt and the hand (so a screen reader says the hint), made at the
 * first hint and again after the table's page was built anew (a change of language). */
function hintBox(view) {
  if (!view.hintBox || !view.root.contains(view.hintBox)) {
    view.hintBox = h("section", { class: "hint-box", role: "status", "aria-label": t("hint.title") });
    view.hand.before(view.hintBox);
  }
  return view.hintBox;
}

/** The table was drawn again: the hint stays with the turn it was asked at, gone once the table moves on. */
export function redraw(view) {
  if (view.hintShown !== null && view.hintShown !== undefined && view.hintShown !== view.seq) closeHint(view);
  else mark(view);
}

/** Ask for a hint for this person's turn now, and show it (or why not). */
export async function askHint(view) {
  ensureStyle();
  hintBox(view);
  const seq = view.seq;
  if (!view.isMyTurn()) return show(view, seq, h("p", { class: "hint-why" }, t("hint.not_your_turn")));
  if (view.hint && view.hint.seq === seq && view.hint.answer) return show(view, seq, null); // asked already: shown again
  view.hint = { seq, answer: null };
  draw(view, h("p", { class: "hint-why thinking" }, t("hint.thinking")));
  let answer;
  try {
    answer = await view.app.net.request({ type: "hint", table: view.id, seq });
  } catch (err) {
    const daily = view.state && view.state.daily;
    const refused = daily ? (daily.tournament ? "hint.refused_tournament" : "hint.refused_daily") : "hint.refused";
    const known = { hint_refused: refused, not_your_turn: "hint.not_your_turn", not_seated: "hint.not_seated" }[err.code];
    const text = known ? t(known) : err.code === "rate_limited" ? t("hint.rate_limited", { seconds: err.retry_after || 60 })
      : view.app.errorText(err);
    view.hint = null;
    return show(view, seq, h("p", { class: "hint-why" }, text));
  }
  if (view.seq !== seq) return null; // the table moved on meanwhile: the hint is for a turn that is over
  view.hint = { seq, answer };
  return show(view, seq, null);
}

function show(view, seq, body) {
  const answer = view.hint && view.hint.seq === seq ? view.hint.answer : null;
  if (!body && answer) {
    const what = actionWords(answer.action);
    body = [
      answer.poignee_hidden ? h("p", { class: "hint-choice" }, t("hint.hidden")) : "",
      h("p", { class: "hint-choice" }, h("strong", {}, t("hint.would", { what }))),
      ...answer.reasons.map((r) => h("p", { class: "hint-why", dataset: { kind: r.kind } }, reasonText(r))),
    ];
  }
  view.hintShown = seq;
  draw(view, body);
  mark(view);
  // in sight with the hand it speaks of: the hand's foot at the window's, the hint just above it
  view.hand.scrollIntoView({ block: "end" });
  view.hintBox.scrollIntoView({ block: "nearest" });
  return answer;
}

function draw(view, body) {
  const box = hintBox(view);
  replace(box, h("div", { class: "hint-head" }, h("h2", {}, t("hint.title")),
    h("button", { type: "button", class: "quiet hint-close", "aria-label": t("hint.close"), onclick: () => closeHint(view) }, "×")),
  ...[].concat(body || []));
}

/** The hinted cards highlighted in the hand (again after the hand was drawn anew). */
export function mark(view) {
  for (const el of view.hand.querySelectorAll(".hinted")) el.classList.remove("hinted");
  const answer = view.hint && view.hint.seq === view.seq && view.hintShown === view.seq ? view.hint.answer : null;
  if (!answer) return;
  for (const code of hintedCards(answer.action)) {
    const el = view.hand.querySelector(`button.card[data-card="${code}"]`);
    if (el) el.classList.add("hinted");
  }
}

/** The hint put away: closed, or the table moved on. */
export function closeHint(view) {
  view.hintShown = null;
  if (view.hintBox) replace(view.hintBox);
  mark(view);
}
