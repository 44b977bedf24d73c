// A small line chart drawn as SVG, no library: a value over time (chips, a rating), its lowest and
// highest values on the left, its first and last dates below, its last value at its end, and an
// optional band around the line (a rating's uncertainty). It scales with the page's width, and its
// words stay readable on a phone (the drawing is 320 units wide: a phone shows it near its own size).

import { locale, num } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 320;
const H = 150;
const PAD = { left: 44, right: 46, top: 12, bottom: 24 };

function el(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function day(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(locale(), { day: "numeric", month: "short" });
}

/** `points`: [[seconds since 1970, value]] in time order; `band`: [[low, high]] for each point, or null.
 * `label` names the chart for screen readers; `format` writes a value. */
export function lineChart({ points, band = null, label, format = (v) => num(Math.round(v)), kind = "" }) {
  const values = points.map((p) => p[1]).concat(band ? band.flat() : []);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (low === high) {
    low -= 1;
    high += 1;
  }
  const n = points.length;
  const x = (i) => PAD.left + (n === 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (n - 1));
  const y = (v) => PAD.top + ((high - v) * (H - PAD.top - PAD.bottom)) / (high - low);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: `chart ${kind}`, role: "img", "aria-label": label, "data-points": n });
  svg.append(el("title", {}, label));
  svg.append(el("line", { x1: PAD.left, y1: y(high), x2: W - PAD.right, y2: y(high), class: "grid" }));
  svg.append(el("line", { x1: PAD.left, y1: y(low), x2: W - PAD.right, y2: y(low), class: "grid" }));
  svg.append(el("text", { x: PAD.left - 4, y: y(high) + 4, "text-anchor": "end", class: "axis" }, format(high)));
  svg.append(el("text", { x: PAD.left - 4, y: y(low) + 4, "text-anchor": "end", class: "axis" }, format(low)));
  if (band) {
    const upper = band.map((b, i) => `${x(i)},${y(b[1])}`);
    const lower = band.map((b, i) => `${x(i)},${y(b[0])}`).reverse();
    svg.append(el("polygon", { points: upper.concat(lower).join(" "), class: "band" }));
  }
  if (n > 1) svg.append(el("polyline", { points: points.map((p, i) => `${x(i)},${y(p[1])}`).join(" "), class: "line" }));
  points.forEach((p, i) => svg.append(el("circle", { cx: x(i), cy: y(p[1]), r: n > 40 ? 1.5 : 2.5, class: "dot" })));
  const last = points[n - 1];
  svg.append(el("text", { x: x(n - 1) + 5, y: y(last[1]) + 4, class: "last" }, format(last[1])));
  svg.append(el("text", { x: PAD.left, y: H - 6, class: "axis" }, day(points[0][0])));
  if (n > 1) svg.append(el("text", { x: W - PAD.right, y: H - 6, "text-anchor": "end", class: "axis" }, day(last[0])));
  return svg;
}
