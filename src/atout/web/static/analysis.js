// The analysis of one's own play in a finished deal (docs/analysis.md): asked of the server and polled
// with its progress (POST/GET /api/analysis, docs/protocol.md), then its marks drawn beside the
// decisions of a deal review. A review marks itself by giving each action's entry its place in the
// record (`data-action-index`) and calling `annotateReview(root, analysis)`; `analysisPanel` is the
// whole thing in one element (a button, the progress, the list of one's decisions).

import { h, replace } from "./dom.js";
import { num, partWords, t } from "./i18n.js";
import * as cards from "./cards.js";
import { reasonText } from "./reasons.js";

export const MARKS = ["inaccuracy", "mistake", "blunder"];
/** The phases a deal's accuracy is split by (bots/accuracy.py PHASES), in the order of a deal. */
export const PHASES = ["bid", "ecart", "taker", "partner", "defence"];
const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
export const SHOWN_LOSS = 1;
/** A decision that lost less than this many points and earned no mark is shown as it is, without "better":
 * a fraction of a point is within what the search cannot tell apart. */
export const worthShowing = (d) => Boolean(d.mark) || d.loss >= SHOWN_LOSS;

await partWords("analysis");

const number = (x) => num(Math.round(x * 10) / 10); // the French comma, the true minus sign

let styled = false;
/** The marks' own style sheet, added to the page once (the site allows no inline style). */
function ensureStyle() {
  if (styled || document.querySelector("link[data-analysis]")) return;
  styled = true;
  document.head.append(h("link", { rel: "stylesheet", href: import.meta.resolve("/static/analysis.css"), dataset: { analysis: "1" } }));
}

/** An action in the record's form (`{"play": "KH"}`, `{"poignee": null}`…) in words of the page's language. */
export function actionWords(action) {
  if (!action) return "";
  if (action.play !== undefined) return t("analysis.do.play", { card: cards.word(action.play) });
  if (action.bid !== undefined) {
    return action.bid === "pass" ? t("analysis.do.bid.pass") : t("analysis.do.bid", { contract: t(`contract.${action.bid}`) });
  }
  if (action.call !== undefined) return t("analysis.do.call", { card: cards.word(action.call) });
  if (action.discard !== undefined) return t("analysis.do.discard", { cards: action.discard.map(cards.word).join(" ") });
  if (action.poignee !== undefined) {
    return action.poignee === null ? t("analysis.do.poignee.hidden") : t("analysis.do.poignee", { n: action.poignee.length });
  }
  if (action.chelem !== undefined) return t(action.chelem ? "analysis.do.chelem" : "analysis.do.chelem.no");
  if (action.petit_sec !== undefined) return t(action.petit_sec === "redeal" ? "analysis.do.petit.redeal" : "analysis.do.petit.play");
  return JSON.stringify(action);
}

/** The mark of one decision, drawn: its sign and name, and "better: X (+N)" when it lost anything. */
export function markFor(decision) {
  ensureStyle();
  const parts = [];
  if (decision.mark) {
    parts.push(h("span", { class: `mark mark-${decision.mark}`, title: t(`analysis.mark.${decision.mark}`) },
      SIGNS[decision.mark], " ", t(`analysis.mark.${decision.mark}`)));
  }
  if (worthShowing(decision)) {
    const [low, high] = decision.interval;
    parts.push(h("span", { class: "better", title: t("analysis.interval", { low: number(low), high: number(high) }) },
      t("analysis.better", { action: actionWords(decision.best), loss: number(decision.loss) })));
  }
  return h("span", { class: "analysis-mark", dataset: { index: decision.index, phase: decision.phase } }, parts);
}

/** Draw the marks of `analysis` (the server's `analysis` object) beside a review's entries: each element
 * of `root` with `data-action-index` gets the marks of the decisions taken at that place in the record.
 * Returns how many entries were marked. */
export function annotateReview(root, analysis) {
  let marked = 0;
  for (const old of root.querySelectorAll(".analysis-mark")) old.remove();
  const byIndex = new Map();
  for (const d of analysis.decisions) {
    if (!byIndex.has(d.index)) byIndex.set(d.index, []);
    byIndex.get(d.index).push(d);
  }
  for (const entry of root.querySelectorAll("[data-action-index]")) {
    const found = byIndex.get(Number(entry.dataset.actionIndex)) || [];
    const shown = found.filter(worthShowing);
    for (const d of shown) entry.append(" ", markFor(d));
    if (shown.length) marked += 1;
  }
  return marked;
}

/** A seat's accuracy in the deal (the server's `accuracy`: bots/accuracy.py): "This deal: −3.5 points against
 * the expert, mostly the écart", and each phase that cost something with its points. */
export function accuracyLine(accuracy) {
  ensureStyle();
  const lost = accuracy.loss > 0 && accuracy.main;
  const line = lost
    ? t("analysis.accuracy", { loss: number(-accuracy.loss), phase: t(`analysis.accuracy.${accuracy.main}`) })
    : t("analysis.accuracy.none");
  const parts = PHASES.filter((p) => accuracy.phases[p] > 0).map((p) => h("span", { class: "accuracy-part", dataset: { phase: p } },
    t("analysis.accuracy.part", { phase: t(`analysis.accuracy.short.${p}`), loss: number(-accuracy.phases[p]) })));
  return h("p", { class: "analysis-accuracy", dataset: { phase: lost ? accuracy.main : "", loss: String(accuracy.loss) } },
    h("span", { class: "accuracy-main" }, line), parts.length > 1 ? h("span", { class: "accuracy-parts" }, parts) : "");
}

/** One seat's decisions as a list: where, what was done, the mark and what was better; the seat's accuracy
 * above them when the server gave it. */
export function decisionsList(analysis) {
  ensureStyle();
  const total = analysis.totals[0];
  const marks = MARKS.slice().reverse().filter((m) => total.marks[m])
    .map((m) => `${total.marks[m]} ${t(total.marks[m] > 1 ? `analysis.marks.${m}` : `analysis.mark.${m}`)}`);
  // with the accuracy line above, the points lost are said once, as it counts them (the noise costs nothing there,
  // a choice better than the expert's gains nothing): two totals a few tenths apart would tell a learner two things
  const counted = analysis.accuracy ? t("analysis.decisions", { n: total.decisions })
    : t("analysis.summary", { n: total.decisions, loss: number(total.loss) });
  const summary = h("p", { class: "analysis-summary" }, counted, ": ", marks.length ? marks.join(", ") : t("analysis.no_mark"));
  const items = analysis.decisions.map((d) => h("li", { class: `decision${d.mark ? ` marked ${d.mark}` : ""}`, dataset: { index: d.index } },
    h("span", { class: "where" }, d.trick ? t("analysis.trick", { n: d.trick }) : t(`analysis.phase.${d.phase}`)),
    h("span", { class: "what" }, h("span", { class: "did" }, actionWords(d.action)), " ", markFor(d),
      worthShowing(d) && d.reasons && d.reasons.length // why the better choice was better: the hint's own reasons
        ? h("span", { class: "why" }, d.reasons.map(reasonText).join(" ")) : "")));
  return h("div", { class: "analysis-result" }, analysis.accuracy ? accuracyLine(analysis.accuracy) : "", summary,
    h("ol", { class: "analysis-list" }, items));
}

function headers() {
  const out = { "Content-Type": "application/json" };
  const token = localStorage.getItem("atout.token");
  if (token) out.Authorization = `Bearer ${token}`; // a guest; a registered player's cookie goes by itself
  return out;
}

/** The analysis in a `done` answer, with the seat's accuracy beside its decisions (`analysis.accuracy`). */
const withAccuracy = (data) => (data.accuracy ? { ...data.analysis, accuracy: data.accuracy } : data.analysis);

/** The analysis of one's seat in deal `deal` of game `game` when it was made already (GET /api/analysis
 * answers it at once, spending nothing); null when nobody asked for it yet, or it is still being made. */
export async function storedAnalysis({ game, deal }, { fetchImpl = fetch } = {}) {
  const query = new URLSearchParams({ game, deal: String(deal) });
  try {
    const answer = await fetchImpl(`/api/analysis?${query}`, { headers: headers(), credentials: "same-origin" });
    if (answer.status !== 200) return null;
    const data = await answer.json();
    return data.status === "done" ? withAccuracy(data) : null;
  } catch {
    return null;
  }
}

/** Ask for the analysis of one's seat in deal `deal` of game `game` (at `table` while the game runs) and
 * poll until it is made: `onProgress({status, done, total, ahead})` after each answer. Resolves with the
 * analysis; rejects with `{code, message}` when the server refuses. */
export async function requestAnalysis({ game, deal, table, seat }, { onProgress = () => {}, every = 1000, fetchImpl = fetch } = {}) {
  const body = { game, deal };
  if (table) body.table = table;
  if (seat !== undefined && seat !== null) body.seat = seat;
  const ask = () => fetchImpl("/api/analysis", { method: "POST", headers: headers(), body: JSON.stringify(body), credentials: "same-origin" });
  let answer = await ask();
  const query = new URLSearchParams({ game, deal: String(deal), ...(table ? { table } : {}), ...(body.seat !== undefined ? { seat: String(seat) } : {}) });
  for (;;) {
    const data = await answer.json();
    if (!answer.ok) throw data.error || { code: "internal", message: answer.statusText };
    const lost = data.status === "not_requested"; // the server forgot the request (a restart): asked again
    if (!lost) onProgress(data);
    if (data.status === "done") return withAccuracy(data);
    await new Promise((resolve) => setTimeout(resolve, every));
    answer = lost ? await ask() : await fetchImpl(`/api/analysis?${query}`, { headers: headers(), credentials: "same-origin" });
  }
}

/** The whole of it in one element: a button that asks, the progress while the expert works, then the
 * list of one's decisions with their marks. `onDone(analysis)` lets a review mark its own entries too. */
export function analysisPanel({ game, deal, table, seat, onDone = () => {} }) {
  ensureStyle();
  const status = h("p", { class: "analysis-status", role: "status" });
  const bar = h("progress", { class: "analysis-progress", max: 1, value: 0 });
  bar.hidden = true;
  const result = h("div", { class: "analysis-body" });
  const button = h("button", { class: "quiet analysis-ask", type: "button" }, t("analysis.ask"));
  const panel = h("section", { class: "analysis" }, button, bar, status, result);
  button.addEventListener("click", async () => {
    button.disabled = true;
    bar.hidden = false;
    replace(status, t("analysis.asking"));
    try {
      const analysis = await requestAnalysis({ game, deal, table, seat }, {
        onProgress: (p) => {
          if (p.status === "queued") replace(status, t("analysis.queued", { ahead: p.ahead || 0 }));
          if (p.status === "running" && p.total) {
            bar.max = p.total;
            bar.value = p.done;
            replace(status, t("analysis.running", { done: p.done, total: p.total }));
          }
        },
      });
      bar.hidden = true;
      replace(status);
      replace(result, decisionsList(analysis));
      button.hidden = true;
      onDone(analysis);
    } catch (err) {
      bar.hidden = true;
      button.disabled = false;
      replace(status, t("analysis.failed", { message: err.message || err.code }));
    }
  });
  return panel;
}
