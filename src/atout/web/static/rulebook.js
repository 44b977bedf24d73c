// The rules' facts as the engine gives them (GET /api/rules: card points, targets, contracts, table sizes,
// bonuses, options, and examples the engine played), fetched once a page; and the small drawings the rules
// page and the quick guide share: a row of cards drawn as the table draws them, a table of facts.

import { h } from "./dom.js";
import { locale, num, t } from "./i18n.js";
import * as cards from "./cards.js";

let asked = null;

/** The facts, asked of the server once (its answer is the engine's constants: it never changes while a page
 * lives); a failed request is asked again next time. */
export function rulebook() {
  if (!asked) {
    asked = fetch("/api/rules", { credentials: "same-origin" }).then((answer) => {
      if (!answer.ok) throw new Error(`GET /api/rules: ${answer.status}`);
      return answer.json();
    });
    asked.catch(() => { asked = null; });
  }
  return asked;
}

/** A row of cards, each drawn as at the table and named for screen readers; `marks` gives a card a class
 * and words said after its name (a playable card, a card refused to the écart...). */
export function cardRow(codes, { label = "", marks = {}, small = false } = {}) {
  return h("ul", { class: `rule-cards${small ? " small" : ""}`, "aria-label": label || null },
    codes.map((code) => {
      const mark = marks[code];
      return h("li", { class: `card${mark ? ` ${mark.kind}` : ""}`, dataset: { card: code } },
        cards.face(code),
        h("span", { class: "sr-only" }, cards.fullName(code), mark && mark.words ? `: ${mark.words}` : ""),
        mark && mark.words ? h("span", { class: "mark", "aria-hidden": "true" }, mark.short || mark.words) : "");
    }));
}

/** A table of facts: its caption, its column heads, and rows whose first cell heads the row. */
export function factTable(caption, heads, rows, kind = "") {
  return h("table", { class: `facts-table ${kind}` },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, heads.map((head) => h("th", { scope: "col" }, head)))),
    h("tbody", {}, rows.map(([first, ...rest]) => h("tr", {}, h("th", { scope: "row" }, first),
      rest.map((cell) => h("td", {}, cell))))));
}

/** A number of points as the page's language writes it (4,5 in French). */
export const pts = (n) => num(n);

/** A signed score: +114, −38 (the true minus sign), 0. */
export function signed(n) {
  return n > 0 ? `+${num(n)}` : num(n);
}

/** A contract's name in the page's language. */
export const contractName = (name) => t(`contract.${name}`);

/** A list in words as the page's language joins them: "a, b and c", or with `type` "disjunction" "a or b". */
export function listWords(items, type = "conjunction") {
  return new Intl.ListFormat(locale(), { style: "long", type }).format(items);
}
