// Cards: the protocol's codes (7H, KS, T21, EX), their names in the page's language (card.*), their order in a
// hand, and their faces drawn as SVG.

import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const SUITS = ["S", "H", "C", "D"]; // the hand's order: colours alternate
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = { H: true, D: true };
const RANK_OF = { J: 11, N: 12, Q: 13, K: 14 };
/** A rank's corner letter (R, D, C, V in French), a number's digits. */
const letter = (rank) => (rank > 10 ? t(`card.letter.${rank}`) : String(rank));

export function parse(code) {
  if (code === "EX") return { kind: "excuse", code };
  if (code[0] === "T") return { kind: "trump", n: Number(code.slice(1)), code };
  const suit = code.slice(-1);
  const r = code.slice(0, -1);
  return { kind: "suit", suit, rank: RANK_OF[r] || Number(r), code };
}

export function isTrump(code) {
  return code[0] === "T";
}

export function isBout(code) {
  return code === "EX" || code === "T1" || code === "T21";
}

/** The short label the screen shows: R♠, 10♥, 19, Ex. */
export function short(code) {
  const c = parse(code);
  if (c.kind === "excuse") return "Ex";
  if (c.kind === "trump") return String(c.n);
  return `${letter(c.rank)}${SYMBOL[c.suit]}`;
}

/** The card in a sentence: R♠, atout 19 / trump 19, Excuse. */
export function word(code) {
  const c = parse(code);
  if (c.kind === "excuse") return t("card.excuse");
  if (c.kind === "trump") return t("card.trump", { n: c.n });
  return short(code);
}

/** The card's full name, for screen readers: "Roi de pique", "trump 19". */
export function fullName(code) {
  const c = parse(code);
  if (c.kind === "excuse") return t("card.excuse");
  if (c.kind === "trump") return t("card.trump", { n: c.n });
  return t("card.of", { rank: t(`card.rank.${c.rank}`, {}, String(c.rank)), suit: suitWord(c.suit) });
}

export function suitWord(suit) {
  return t(`card.suit.${suit}`);
}

export function points(code) {
  const c = parse(code);
  if (c.kind !== "suit") return isBout(code) ? 4.5 : 0.5;
  return { 14: 4.5, 13: 3.5, 12: 2.5, 11: 1.5 }[c.rank] || 0.5;
}

function order(code) {
  const c = parse(code);
  if (c.kind === "excuse") return 200;
  if (c.kind === "trump") return 100 + c.n;
  return SUITS.indexOf(c.suit) * 20 + c.rank;
}

export function sortHand(codes) {
  return [...codes].sort((a, b) => order(a) - order(b));
}

function el(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A card face as an SVG element (60×90 units, scaled by CSS): every face's index in its top left corner, the
 * part of a card a fanned hand leaves in sight. */
export function face(code) {
  const c = parse(code);
  const svg = el("svg", { viewBox: "0 0 60 90", class: `face ${c.kind}`, "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 88, rx: 5, class: "paper" }));
  if (c.kind === "suit") {
    const colour = `${RED[c.suit] ? "red" : "black"} suit-${c.suit}`; // suit-D, suit-C: the four-colour deck's blue and green
    const label = letter(c.rank);
    svg.append(el("text", { x: 5, y: 17, class: `index ${colour}` }, label));
    svg.append(el("text", { x: 5, y: 30, class: `pip ${colour}` }, SYMBOL[c.suit]));
    const big = c.rank > 10 ? label : SYMBOL[c.suit];
    svg.append(el("text", { x: 33, y: 62, class: `centre ${colour} ${c.rank > 10 ? "court" : ""}`, "text-anchor": "middle" }, big));
    if (c.rank > 10) svg.append(el("text", { x: 33, y: 80, class: `pip small ${colour}`, "text-anchor": "middle" }, SYMBOL[c.suit]));
  } else if (c.kind === "trump") {
    svg.append(el("rect", { x: 4, y: 4, width: 52, height: 82, rx: 3, class: "band" }));
    svg.append(el("text", { x: 7, y: 18, class: "tindex" }, String(c.n))); // in the corner a fan leaves uncovered
    svg.append(el("text", { x: 30, y: 60, class: `tnum ${isBout(code) ? "bout" : ""}`, "text-anchor": "middle" }, String(c.n)));
    svg.append(el("text", { x: 30, y: 80, class: "tlabel", "text-anchor": "middle" }, t("card.trump_face")));
  } else {
    svg.append(el("rect", { x: 4, y: 4, width: 52, height: 82, rx: 3, class: "band" }));
    svg.append(el("text", { x: 7, y: 18, class: "tindex" }, "★"));
    svg.append(el("text", { x: 30, y: 55, class: "star", "text-anchor": "middle" }, "★"));
    svg.append(el("text", { x: 30, y: 80, class: "tlabel", "text-anchor": "middle" }, t("card.excuse").toUpperCase()));
  }
  return svg;
}

/** The back of a card (other seats' hands). */
export function back() {
  const svg = el("svg", { viewBox: "0 0 60 90", class: "face back", "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 88, rx: 5, class: "paper" }));
  svg.append(el("rect", { x: 5, y: 5, width: 50, height: 80, rx: 3, class: "pattern" }));
  return svg;
}
