// The robots' ladder (#/robots, issue 39): the latest `atout arena --ladder` as the server ships it
// (GET /api/ladder), each robot's points per deal against the yardstick on duplicate deals with its 95%
// interval, drawn as an SVG of the intervals made here from the data (a table says the same for screen
// readers and for copying), and how to bring one's own robot (docs/robot-accounts.md, docs/engine-protocol.md).

import { h, replace, withCode } from "./dom.js";
import { num, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 340; // the drawing's units: a phone shows it near its own size, a desktop up to 640 px
const ROW = 26;
const PAD = { left: 138, right: 18, top: 8, bottom: 30 };

function el(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An entrant as people read it: Atout's levels by their name, `commit:HASH:level` as "level @ hash",
 * an outside program (`cmd:…`) by its file's name. */
export function entrantLabel(entrant) {
  if (entrant.startsWith("commit:")) {
    const [, hash, level] = entrant.split(":");
    return `${level} @ ${hash.slice(0, 7)}`;
  }
  if (entrant.startsWith("cmd:")) {
    const words = entrant.slice(4).trim().split(/\s+/);
    return words[words.length - 1].split("/").pop();
  }
  return entrant;
}

/** Points per deal on a signed logarithmic scale: the worst robot loses hundreds a deal, the best win tens,
 * and both must be read on one line. */
const squash = (v) => Math.sign(v) * Math.log10(1 + Math.abs(v));
const signed = (v) => (v > 0 ? `+${num(v)}` : num(v));

function intervalChart(ladder) {
  const rows = ladder.ranking;
  const all = rows.flatMap((r) => [r.low, r.high, r.mean]);
  const low = Math.floor(Math.min(0, ...all.map(squash))); // out to the next power of ten: a tick at each end
  const high = Math.ceil(Math.max(0, ...all.map(squash)));
  const span = high - low || 1;
  const H = PAD.top + rows.length * ROW + PAD.bottom;
  const x = (v) => PAD.left + ((squash(v) - low) * (W - PAD.left - PAD.right)) / span;
  const label = t("robots.chart", { yardstick: ladder.yardstick });
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "ladder-chart", role: "img", "aria-label": label });
  svg.append(el("title", {}, label));
  const ticks = [-1000, -100, -10, 0, 10, 100, 1000].filter((v) => squash(v) >= low - 0.01 && squash(v) <= high + 0.01);
  for (const v of ticks) {
    svg.append(el("line", { x1: x(v), y1: PAD.top, x2: x(v), y2: H - PAD.bottom, class: v === 0 ? "zero" : "grid" }));
    svg.append(el("text", { x: x(v), y: H - PAD.bottom + 14, "text-anchor": "middle", class: "axis" }, signed(v)));
  }
  svg.append(el("text", { x: (PAD.left + W - PAD.right) / 2, y: H - 4, "text-anchor": "middle", class: "axis" }, t("robots.axis")));
  rows.forEach((r, i) => {
    const y = PAD.top + i * ROW + ROW / 2;
    const yardstick = r.entrant === ladder.yardstick;
    svg.append(el("text", { x: PAD.left - 6, y: y + 4, "text-anchor": "end", class: yardstick ? "name yardstick" : "name" },
      entrantLabel(r.entrant)));
    if (!yardstick) svg.append(el("line", { x1: x(r.low), y1: y, x2: x(r.high), y2: y, class: "interval" }));
    svg.append(el("circle", { cx: x(r.mean), cy: y, r: 4, class: yardstick ? "mean yardstick" : "mean" }));
  });
  return svg;
}

function ladderTable(ladder) {
  return h("table", { class: "board ladder-table" },
    h("caption", {}, t("robots.table", { yardstick: ladder.yardstick })),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("robots.col_rank")), h("th", { scope: "col" }, t("robots.col_robot")),
      h("th", { scope: "col" }, t("robots.col_points"), h("span", { class: "sub" }, t("robots.col_interval"))))),
    h("tbody", {}, ladder.ranking.map((r, i) => {
      const yardstick = r.entrant === ladder.yardstick;
      return h("tr", { dataset: { entrant: r.entrant } },
        h("td", {}, num(i + 1)),
        h("th", { scope: "row" }, entrantLabel(r.entrant), // by its name: its entry's code (a commit, a command) is the command's below
          yardstick ? [" ", h("span", { class: "tag" }, t("robots.yardstick"))] : ""),
        h("td", {}, yardstick ? "0" : [h("strong", {}, signed(Math.round(r.mean * 10) / 10)),
          h("span", { class: "sub" }, `[${signed(Math.round(r.low * 10) / 10)}, ${signed(Math.round(r.high * 10) / 10)}]`)]));
    })));
}

let styled = false;
/** The page's own style sheet, added once (the site allows no inline style). */
function ensureStyle() {
  if (styled || document.querySelector("link[data-robots]")) return;
  styled = true;
  document.head.append(h("link", { rel: "stylesheet", href: import.meta.resolve("/static/robots.css"), dataset: { robots: "1" } }));
}

export async function renderRobots(app, main) {
  ensureStyle();
  replace(main, h("p", { class: "hint" }, "…"));
  const answer = await fetch("/api/ladder", { credentials: "same-origin" });
  const ladder = answer.ok ? await answer.json() : null;
  const bring = h("section", { class: "bring", "aria-labelledby": "bring-title" },
    h("h2", { id: "bring-title" }, t("robots.bring_title")),
    h("p", {}, withCode(t("robots.bring_arena"))),
    h("p", {}, withCode(t("robots.bring_site")), " ",
      app.registered ? h("a", { href: "#/account" }, t("robots.bring_account")) : t("robots.bring_login")));
  if (!ladder) {
    replace(main, h("div", { class: "robots-page" }, h("h1", {}, t("robots.title")),
      h("p", { class: "hint" }, t("robots.none")), bring));
    return;
  }
  const c = ladder.config;
  replace(main, h("div", { class: "robots-page" },
    h("h1", {}, t("robots.title")),
    h("p", {}, t("robots.what", { players: c.players, deals: c.deals, yardstick: ladder.yardstick })),
    h("figure", { class: "ladder-figure" }, intervalChart(ladder),
      h("figcaption", { class: "hint" }, t("robots.caption"))),
    ladderTable(ladder),
    h("p", { class: "hint" }, withCode(t("robots.made_by", { command: c.invocation }))),
    bring));
}
