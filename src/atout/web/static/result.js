// A deal's result in words with its formula, the running score sheet, the ranking, and the review
// of a finished deal from its record.

import { h } from "./dom.js";
import { num, t } from "./i18n.js";
import * as cards from "./cards.js";

const MINUS = "−";

/** A score with its sign, the minus U+2212 as everywhere on the site (+12, −28, 0). */
export const signed = (n) => (n > 0 ? `+${num(n)}` : n < 0 ? `${MINUS}${num(-n)}` : "0");

export function contractWord(name) {
  return name ? t(`contract.${name}`) : "—";
}

/** A contract's multiplier, from the server's catalogue (GET /api/options): the engine's figures. */
export function multiplierOf(catalogue, name) {
  const contract = catalogue && catalogue.contracts.find((c) => c.name === name);
  return contract ? contract.multiplier : 1;
}

/** The end of a deal: who took what, the count, the formula, everyone's score. A void deal says the
 * next dealer deals only when a deal follows (`more`: not at a game's end, nor in a review). */
export function resultBlock(result, nameOf, players, catalogue, more = true) {
  if (result.void) {
    return h("div", { class: "result void" }, h("h3", {}, t("result.void_title")),
      h("p", {}, t(`result.void.${result.void}`, {}, result.void)), more ? h("p", {}, t("result.void_next")) : "");
  }
  const k = multiplierOf(catalogue, result.contract);
  const made = result.made;
  const pab = { taker: 10, defence: -10 }[result.petit_au_bout] || 0;
  let core = made ? `(25 + ${result.margin})` : `${MINUS}(25 + ${result.margin})`;
  if (pab) core = `(${core} ${pab > 0 ? "+" : MINUS} 10 ${t("result.pab_short")})`;
  let formula = `U = ${core} × ${k}`;
  const bonus = result.poignees.reduce((s, p) => s + p.bonus, 0);
  if (bonus) formula += ` ${made ? "+" : MINUS} ${bonus} ${t("result.poignee_short")}`;
  const chelem = { announced_made: 400, made: 200, announced_failed: -200, defence: -200 }[result.chelem] || 0;
  if (chelem) formula += ` ${chelem > 0 ? "+" : MINUS} ${Math.abs(chelem)} chelem`;
  formula += ` = ${signed(result.unit).replace(/^\+/, "")}`; // the unit's sign only when it is a loss
  const partner = result.partner !== null && result.partner !== result.taker
    ? t("result.with_partner", { name: nameOf(result.partner) })
    : players === 5 ? t("result.alone") : "";
  return h("div", { class: `result ${made ? "made" : "failed"}` },
    h("h3", {}, t("result.took", { name: nameOf(result.taker), contract: contractWord(result.contract), k }), " ", partner),
    h("p", {}, t("result.count", { points: String(result.points).replace(".5", "½"), bouts: t("result.bouts", { n: result.bouts }), target: result.target }), " ",
      h("strong", { class: made ? "good" : "bad" }, t(made ? "result.made" : "result.failed", { margin: result.margin }))),
    h("p", { class: "formula" }, formula, " — ", t("result.each_defender")),
    h("p", { class: "hint" },
      t("result.pab", { what: t(`result.pab.${result.petit_au_bout || "none"}`) }), " · ",
      result.poignees.length
        ? t("result.poignees", { list: result.poignees.map((p) => `${nameOf(p.seat)} ${t(`poignee.${p.size}`)} (${p.bonus})`).join(", ") })
        : t("result.no_poignee"), " · ",
      t("result.chelem", { what: t(`result.chelem.${result.chelem || "none"}`) })),
    h("ul", { class: "scores" }, result.scores.map((s, seat) => h("li", { class: s > 0 ? "good" : s < 0 ? "bad" : "" },
      h("span", {}, nameOf(seat)), " ", h("strong", {}, signed(s))))));
}

/** The score sheet; `review(n)`, when given, opens deal n (its place in the game, void ones included). */
export function sheetTable(game, nameOf, players, review = null) {
  // a column's name breaks between its words only: a word too long for the column (narrower the more players)
  // ends in "…", the whole name in the title; broken anywhere, "Slowdesktop" read "Slowd / es…"
  const cap = players >= 4 ? 6 : 9;
  // a robot's column says "Robot 3", its level in the title (as on its seat): at five, "Robot 3 (expert)"
  // read "(expe…" and the last column ran out of the side panel (a person's name has no spaces)
  const headName = (name) => name.replace(/^(Robot \d+) \(.+\)$/, "$1");
  const short = (name) => headName(name).split(" ").map((w) => (w.length > cap ? `${w.slice(0, cap - 1)}…` : w)).join(" ");
  const head = h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("sheet.contract")),
    Array.from({ length: players }, (_, i) => h("th", { scope: "col", class: "num", title: nameOf(i) }, short(nameOf(i)))));
  const number = (line, i) => (review
    ? h("button", { type: "button", class: "linklike", dataset: { review: String(i + 1) }, "aria-label": t("game.review_label", { what: line.void ? t("sheet.void") : t("game.deal_label", { n: line.number }) }), onclick: () => review(i + 1) }, line.void ? "▸" : String(line.number))
    : line.void ? "" : String(line.number));
  const rows = game.sheet.map((line, i) => line.void
    ? h("tr", { class: "void" }, h("td", {}, number(line, i)), h("td", {}, t("sheet.void")), Array.from({ length: players }, () => h("td", {}, "")))
    : h("tr", {}, h("td", {}, number(line, i)),
      h("td", {}, `${nameOf(line.taker)} ${contractWord(line.contract)} ${line.made ? "✓" : "✗"}`),
      line.scores.map((s) => h("td", { class: "num" }, signed(s)))));
  const total = h("tr", { class: "total" }, h("td", {}, ""), h("th", { scope: "row" }, t("sheet.total")),
    game.totals.map((s) => h("td", { class: "num" }, signed(s))));
  return h("table", { class: "sheet", dataset: { players: String(players) } }, h("caption", {}, t("sheet.caption", { n: game.deal_number, of: game.deals })),
    h("thead", {}, head), h("tbody", {}, rows, total));
}

export function rankingList(game, nameOf) {
  return h("ol", { class: "ranking" }, (game.ranking || []).map((r) => h("li", {}, // numbered by place, ties alike
    h("span", { class: "place" }, `${r.place}.`), " ", nameOf(r.seat), " ", h("strong", {}, signed(r.total)))));
}

/** The whole finished deal from its record: the auction and each trick, who led, who won. */
export function reviewBlock(record, nameOf) {
  const lines = [];
  let trick = [];
  const active = record.players === 5 && record.options && record.options.five_players === "dealer_sits_out" ? 4 : record.players;
  for (const a of record.actions) {
    if (a.bid !== undefined) lines.push(h("li", {}, `${nameOf(a.seat)}: ${contractWord(a.bid === "pass" ? "pass" : a.bid)}`));
    else if (a.call !== undefined) lines.push(h("li", {}, t("log.call", { name: nameOf(a.seat), card: cards.word(a.call) })));
    else if (a.discard !== undefined) lines.push(h("li", {}, t("log.ecart_all", { name: nameOf(a.seat), cards: a.discard.map(cards.word).join(" ") })));
    else if (a.poignee !== undefined) lines.push(h("li", {}, t("log.poignee", { name: nameOf(a.seat), cards: a.poignee.map(cards.word).join(" ") })));
    else if (a.chelem !== undefined) lines.push(h("li", {}, t(a.chelem ? "log.chelem_yes" : "log.chelem_no", { name: nameOf(a.seat) })));
    else if (a.play !== undefined) {
      trick.push(`${nameOf(a.seat)} ${cards.word(a.play)}`);
      if (trick.length === active) {
        lines.push(h("li", { class: "trick-line" }, t("log.trick", { n: lines.filter((l) => l.classList.contains("trick-line")).length + 1 }), " ", trick.join(", ")));
        trick = [];
      }
    }
  }
  return h("details", { class: "review" }, h("summary", {}, t("result.review")), h("ol", { class: "review-list" }, lines));
}
