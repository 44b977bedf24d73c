// The quick guide (#/guide; issue 46): the one page a player keeps close, printable on one sheet: card
// points, the points needed by bouts, the bids and their multipliers, the score, the bonuses and the duties
// of play, every number the engine's (GET /api/rules). The same guide opens over a table (reference.js).

import { h, replace } from "./dom.js";
import { num, partWords, t } from "./i18n.js";
import { contractName, listWords, pts, rulebook, signed } from "./rulebook.js";
import { ensureStyle } from "./rules.js";

await partWords("rules");

function box(title, ...content) {
  return h("section", { class: "guide-box" }, h("h2", {}, title), ...content);
}

const pairs = (rows) => h("dl", { class: "guide-pairs" }, rows.map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]));

/** The guide's content: its title, and its boxes (the caller adds its own buttons). */
export function guideContent(f, { titleId = "guide-title" } = {}) {
  const tables = Object.values(f.tables);
  const five = f.tables[5];
  const share = (n) => f.tables[n].shares.taker;
  return h("article", { class: "guide" },
    h("h1", { id: titleId, tabindex: "-1" }, t("rules.guide.title")),
    h("p", { class: "hint guide-intro" }, t("rules.guide.intro")),
    h("div", { class: "guide-grid" },
      box(t("rules.guide.points"),
        pairs(f.card_points.map((k) => [t(`rules.kind.${k.kind}`), pts(k.points)])),
        h("p", { class: "hint" }, t("rules.guide.total", { total: f.deck.points }))),
      box(t("rules.guide.targets"),
        pairs(f.targets.map((x) => [t("rules.guide.bouts", { n: x.bouts }), num(x.points)]))),
      box(t("rules.guide.bids"),
        pairs(f.contracts.map((c) => [contractName(c.name), `×${c.multiplier}`])),
        h("h3", {}, t("rules.guide.dog")),
        h("ul", { class: "guide-dog" }, [...new Set(f.contracts.map((c) => c.dog))].map((dog) => h("li", {},
          t("rules.guide.dog_line", { contracts: listWords(f.contracts.filter((c) => c.dog === dog).map((c) => contractName(c.name))),
            what: t(`rules.dog.${dog}`) }))))),
      box(t("rules.guide.score"),
        h("p", {}, t("rules.guide.formula", { base: f.score.base, pab: f.score.petit_au_bout })),
        h("p", {}, t("rules.guide.shares", { three: share(3), four: share(4), five_with: five.shares_called.taker, five_alone: five.shares.taker }))),
      box(t("rules.guide.bonuses"),
        h("h3", {}, t("rules.guide.poignees")),
        pairs(tables[0].poignees.map((p, i) => [t(`poignee.${p.size}`),
          `${tables.map((x) => x.poignees[i].trumps).join(" / ")} · ${signed(p.bonus)}`])),
        h("h3", {}, t("rules.guide.chelem")),
        pairs(Object.entries(f.score.chelem).map(([k, bonus]) => [t(`rules.chelem.${k}`), signed(bonus)])),
        h("h3", {}, t("rules.calc.petit")),
        h("p", {}, t("rules.petit.text", { bonus: f.score.petit_au_bout }))),
      box(t("rules.guide.play"), h("p", {}, t("rules.guide.play_text")))));
}

/** #/guide: the guide as a page, with its print button and the way to the whole rules. */
export async function renderGuide(app, main) {
  ensureStyle();
  replace(main, h("p", { class: "hint" }, "…"));
  let f;
  try {
    f = await rulebook();
  } catch (err) {
    replace(main, h("p", { class: "refusal", role: "alert" }, t("rules.calc.offline")));
    return;
  }
  const content = guideContent(f);
  replace(main, h("div", { class: "guide-page" }, content,
    h("p", { class: "guide-actions" },
      h("button", { type: "button", class: "quiet", onclick: () => window.print() }, t("rules.guide.print")), " ",
      h("a", { href: "#/rules" }, t("rules.guide.rules")))));
  if (app && app.moved) content.querySelector("h1").focus();
}
