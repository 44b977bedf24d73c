// Why the expert prefers a choice, in a sentence of the page's language: the hint's reasons (hint.js) and
// the analysis's (analysis.js) are the same data, made by the server from its search (bots/reasons.py:
// every number is the search's, and which reason is given is the search's choice); only the wording is here,
// its words the catalogues' reasons.* (part of the analysis's words). Loaded with the hint or the analysis,
// never with the first page.

import { num, partWords, t } from "./i18n.js";
import * as cards from "./cards.js";

await partWords("analysis");

const number = (x) => num(Math.round(x * 10) / 10); // the French comma, the true minus sign

/** The action a reason compares with, as a noun: `K♥`, `Garde`, `passing`, `laying aside …`. */
export function otherWords(action) {
  if (!action) return "";
  if (action.play !== undefined) return cards.word(action.play);
  if (action.bid !== undefined) return action.bid === "pass" ? t("reasons.other.pass") : t(`contract.${action.bid}`);
  if (action.call !== undefined) return t("reasons.other.call", { card: cards.word(action.call) });
  if (action.discard !== undefined) return t("reasons.other.discard", { cards: action.discard.map(cards.word).join(" ") });
  if (action.poignee !== undefined) return t(action.poignee === null ? "reasons.other.poignee_hidden" : "reasons.other.poignee");
  if (action.chelem !== undefined) return t(action.chelem ? "reasons.other.chelem" : "reasons.other.chelem_no");
  if (action.petit_sec !== undefined) return t(action.petit_sec === "redeal" ? "reasons.other.redeal" : "reasons.other.play_on");
  return "";
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** The kinds of reason the server gives (bots/reasons.py's ReasonKind), each a sentence above. */
export const KINDS = ["gain", "noise", "even", "petit", "wins", "voids", "only"];

/** One reason (`{kind, …figures, other}`, as the server sends it) in a sentence: its figures put in. */
export function reasonText(reason) {
  if (!KINDS.includes(reason.kind)) return "";
  const params = { ...reason, other: otherWords(reason.other) };
  for (const key of ["gain", "low", "high"]) if (typeof reason[key] === "number") params[key] = number(reason[key]);
  if (reason.suits) params.suits = reason.suits.map((s) => `${SUITS[s] || s} (${cards.suitWord(s)})`).join(", ");
  const text = t(`reasons.kind.${reason.kind}`, params);
  return text.charAt(0).toUpperCase() + text.slice(1); // a sentence that starts with a card: "Trump 8 is as good…"
}
