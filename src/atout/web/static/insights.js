// A person's insights on their profile (docs/analysis.md "Insights", GET /api/players/NAME/insights): the points
// their choices lost a deal against the expert, by phase and by table size, over the last 50 deals and over all;
// the phase that cost most lately, and which robot's level each phase is nearest; the trend, drawn; the three costliest habits, each with a deal that shows it.
// Private by default: the person sees them with a box to show them on their public profile; others see them only
// once shown (the server answers 403 otherwise, and the section stays hidden).

import { h, replace } from "./dom.js";
import { num, t } from "./i18n.js";
import { lineChart } from "./chart.js";

export const PHASES = ["bid", "ecart", "taker", "partner", "defence"];

const lost = (x) => num(x === 0 ? 0 : -Math.round(x * 10) / 10); // a loss shown as the points it took away: −2.4

async function fetchInsights(name) {
  const answer = await fetch(`/api/players/${encodeURIComponent(name)}/insights`, { credentials: "same-origin" });
  if (answer.status === 403 || answer.status === 404) return null;
  if (!answer.ok) throw new Error(String(answer.status));
  return answer.json();
}

/** The profile's section ``box`` (account.js's, hidden) filled once the insights come; hidden for good when they
 * are private. */
export function fillInsights(app, box, name) {
  fetchInsights(name).then((found) => {
    if (!found) return;
    draw(app, box, found);
    box.hidden = false;
  }).catch(() => {});
}

function cell(part) {
  if (!part || !part.deals || part.loss === null) return h("td", { class: "num" }, "—");
  return h("td", { class: "num" }, lost(part.loss), " ", h("span", { class: "deals" }, `(${num(part.deals)})`));
}

/** The robots' level nearest the person's last deals in ``phase`` (``all``: every deal), the others in its title. */
function robotCell(found, phase) {
  const near = found.robots && found.robots[phase];
  if (!near) return h("td", {}, "—");
  const level = (x) => t(`level.${x}`);
  const all = Object.entries(near.levels).map(([x, loss]) => t("insights.robot_level", { level: level(x), loss: lost(loss) })).join(", ");
  return h("td", { title: t("insights.robot_title", { all }), dataset: { level: near.near } },
    t("insights.robot_cell", { level: level(near.near), loss: lost(near.levels[near.near]) }));
}

function phaseTable(found) {
  const robots = Object.keys(found.robots || {}).length > 0;
  const rows = [
    h("tr", { dataset: { phase: "all" } }, h("th", { scope: "row" }, t("insights.every")), cell(found.recent), cell(found.all),
      robots ? robotCell(found, "all") : ""),
    ...PHASES.map((p) => h("tr", { dataset: { phase: p } }, h("th", { scope: "row" }, t(`insights.phase.${p}`)),
      cell(found.recent.phases[p]), cell(found.all.phases[p]), robots ? robotCell(found, p) : "")),
  ];
  const sizes = [...new Set([...Object.keys(found.recent.sizes), ...Object.keys(found.all.sizes)])].sort();
  const sizeRows = sizes.map((n) => h("tr", { dataset: { size: n } }, h("th", { scope: "row" }, t("lobby.players", { n })),
    cell(found.recent.sizes[n]), cell(found.all.sizes[n])));
  const head = (withRobots) => h("thead", {}, h("tr", {}, h("td", {}), h("th", { scope: "col" }, t("insights.recent", { n: Math.min(found.window, found.recent.deals) || found.window })),
    h("th", { scope: "col" }, t("insights.all")), withRobots ? h("th", { scope: "col" }, t("insights.robots")) : ""));
  return h("div", { class: "insights-tables" },
    h("div", { class: "sheet-scroll", tabindex: "0" }, h("table", { class: "stats insights-phases" },
      h("caption", {}, t("insights.table")), head(robots), h("tbody", {}, rows))),
    sizes.length > 1 ? h("div", { class: "sheet-scroll", tabindex: "0" }, h("table", { class: "stats insights-sizes" },
      h("caption", {}, t("insights.sizes")), head(false), h("tbody", {}, sizeRows))) : "");
}

/** The sentence that places the person among the robots: for the phase that cost most lately, else every deal. */
function nearLine(found) {
  const phase = found.main && found.robots && found.robots[found.main] ? found.main : "all";
  const near = found.robots && found.robots[phase];
  if (!near) return "";
  const you = phase === "all" ? found.recent.loss : found.recent.phases[phase].loss;
  const n = phase === "all" ? found.recent.deals : found.recent.phases[phase].deals;
  return h("p", { class: "insights-near", dataset: { phase, level: near.near } },
    t("insights.near", { phase: t(phase === "all" ? "insights.every" : `insights.phase.${phase}`), n, level: t(`level.${near.near}`),
      you: lost(you), robot: lost(near.levels[near.near]) }));
}

function trendChart(found) {
  const points = found.trend;
  if (points.length < 2) return "";
  const first = points[0][1];
  const last = points[points.length - 1][1];
  const label = t("insights.trend_label", { smooth: found.smooth, n: points.length, first: lost(first), last: lost(last) });
  return h("figure", { class: "chart-box", dataset: { chart: "accuracy" } },
    h("figcaption", {}, t("insights.trend")),
    lineChart({ points: points.map(([at, v]) => [at, -v]), kind: "accuracy", format: (v) => num(v, 1), label }),
    h("p", { class: "hint" }, t("insights.trend_hint", { smooth: found.smooth })));
}

function habitsList(found) {
  if (!found.habits.length) return "";
  return h("div", { class: "insights-habits" },
    h("h3", {}, t("insights.habits")),
    h("ol", {}, found.habits.map((x) => {
      const what = t(`insights.habit.${x.habit}`);
      const worst = x.worst;
      return h("li", { dataset: { habit: x.habit } },
        h("strong", {}, what), " — ", t("insights.habit_line", { loss: lost(x.loss), decisions: x.decisions, deals: x.deals }), " ",
        h("a", { href: `#/g/${encodeURIComponent(worst.game)}/${worst.deal}`, "aria-label": t("insights.habit_deal_label", { habit: what, loss: lost(worst.loss) }) },
          t("insights.habit_deal", { loss: lost(worst.loss) })));
    })),
    h("p", { class: "hint" }, t("insights.habits_hint", { n: found.habit_deals })));
}

function visibility(app, box, found) {
  const input = h("input", { type: "checkbox", id: "insights-public", checked: found.public });
  const said = h("span", { class: "hint", role: "status" }, t(found.public ? "insights.shown" : "insights.private"));
  input.addEventListener("change", async () => {
    input.disabled = true;
    try {
      const answer = await fetch("/api/insights", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify({ public: input.checked }) });
      const data = await answer.json();
      if (!answer.ok) throw data.error || { code: String(answer.status) };
      found.public = data.public;
      said.textContent = t(found.public ? "insights.shown" : "insights.private");
    } catch (err) {
      input.checked = found.public;
      app.toast(app.errorText(err), "error");
    }
    input.disabled = false;
  });
  return h("p", { class: "insights-visibility" }, input, " ", h("label", { for: "insights-public" }, t("insights.show")), " ", said);
}

function draw(app, box, found) {
  const title = h("h2", { id: "insights-title" }, t(found.own ? "insights.title_own" : "insights.title", { name: found.name }));
  if (!found.all.deals) {
    replace(box, title, found.own ? visibility(app, box, found) : "", h("p", { class: "hint" }, t(found.own ? "insights.none_own" : "insights.none")));
    return;
  }
  const main = found.main;
  const headline = main
    ? t("insights.main", { phase: t(`insights.main_phase.${main}`), loss: lost(found.recent.phases[main].loss), n: found.recent.deals })
    : t("insights.main_none", { n: found.recent.deals });
  replace(box, title, found.own ? visibility(app, box, found) : "",
    h("p", { class: "insights-main", dataset: { phase: main || "" } }, headline),
    nearLine(found),
    h("div", { class: "insights-body" }, phaseTable(found), trendChart(found)),
    h("p", { class: "hint" }, t("insights.brackets"), found.robots && Object.keys(found.robots).length ? [" ", t("insights.robots_hint")] : ""),
    habitsList(found));
}
