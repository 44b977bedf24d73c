// The rules page's sections, each drawn from the engine's facts (rulebook.js) with its example: the deck,
// the points, the deal, the bids, the dog and the écart, the card play, the Excuse, counting, the targets,
// the score and its bonuses, three and five players, the table's variants. No rule's number is written here.

import { h } from "./dom.js";
import { partWords, t } from "./i18n.js";
import * as cards from "./cards.js";
import { cardRow, contractName, factTable, listWords, pts, signed } from "./rulebook.js";
import { workingLine } from "./rules-calc.js";

await partWords("rules");

const SUIT_RANKS = ["K", "Q", "N", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"];

function figure(caption, ...content) {
  return h("figure", { class: "rule-example" },
    h("figcaption", {}, h("strong", {}, `${t("rules.example")} · `), caption), ...content);
}

const para = (key, params) => h("p", {}, t(key, params));
const contractsWhere = (f, test) => f.contracts.filter(test).map((c) => contractName(c.name));

function deck(f) {
  const d = f.deck;
  return [para("rules.deck.text", { cards: d.cards, suit: d.suit_cards, trumps: d.trumps }),
    figure(t("rules.deck.example"),
      cardRow(SUIT_RANKS.map((r) => `${r}H`), { small: true, label: cards.suitWord("H") }),
      cardRow(["T21", "T15", "T8", "T2", d.bouts[0], d.excuse], { small: true }))];
}

function points(f) {
  const rows = f.card_points.map((k) => [h("span", { class: "kind" }, h("span", { class: "kind-name" }, t(`rules.kind.${k.kind}`)),
    cardRow(k.cards || ["7S", "2H", "T9"], { small: true })), pts(k.points)]);
  return [para("rules.points.bouts", { bouts: listWords(f.deck.bouts.map(cards.fullName)) }),
    factTable(t("rules.points.caption"), [t("rules.points.card"), t("rules.points.points")], rows, "card-points"),
    para("rules.points.total", { total: f.deck.points })];
}

function deal(f) {
  const rows = Object.values(f.tables).map((x) => [x.players, x.hand, x.dog, x.packet]);
  const four = f.tables[4];
  return [para("rules.deal.text"),
    factTable(t("rules.deal.caption"), [t("rules.deal.players"), t("rules.deal.hand"), t("rules.deal.dog"), t("rules.deal.packet")], rows),
    para("rules.deal.petit_sec"),
    figure(t("rules.deal.example", { hand: four.hand, dog: four.dog }),
      h("div", { class: "rule-cards small backs", "aria-hidden": "true" }, Array.from({ length: four.dog }, () => h("span", { class: "card" }, cards.back()))))];
}

const dogWords = (c) => t(`rules.dog.${c.dog}`);

function bids(f) {
  const [low, high] = f.contracts;
  return [para("rules.bids.text"),
    factTable(t("rules.bids.caption"), [t("rules.bids.contract"), t("rules.bids.multiplier"), t("rules.bids.dog")],
      f.contracts.map((c) => [contractName(c.name), `×${c.multiplier}`, dogWords(c)])),
    figure(t("rules.bids.example", { low: contractName(low.name), high: contractName(high.name), k: high.multiplier }))];
}

const ECART_MARK = { king: "rules.dog.never_king", bout: "rules.dog.never_bout", trump: "rules.dog.not_trump" };

function ecartFigure(example, caption) {
  const marks = Object.fromEntries(Object.entries(example.refused).map(([code, why]) => [code,
    { kind: "barred", words: t(ECART_MARK[why] || "rules.dog.not_trump"), short: "✕" }]));
  return figure(caption, cardRow(example.hand, { marks, small: true }));
}

function dog(f) {
  const or = (items) => listWords(items, "disjunction");
  const usual = f.examples.ecart.usual;
  return [para("rules.dog.text", { taken: or(contractsWhere(f, (c) => c.dog === "taken")), unseen: or(contractsWhere(f, (c) => c.dog !== "taken")) }),
    ecartFigure(usual, t("rules.dog.example", { n: usual.hand.length, size: usual.size })),
    ecartFigure(f.examples.ecart.forced, t("rules.dog.forced"))];
}

/** A trick as it stands (each card its player's, the first led, the winner marked), and the hand of the
 * player to play next with the cards they may play marked. */
function trickFigure(example, caption) {
  const played = h("ol", { class: "trick-row", "aria-label": t("rules.play.trick") }, example.plays.map((code, seat) =>
    h("li", { class: seat === example.winner ? "winner" : "" },
      cardRow([code], { small: true }),
      h("span", { class: "who" }, t("rules.play.seat", { n: seat + 1 }), seat === 0 ? ` · ${t("rules.play.led")}` : "",
        seat === example.winner ? h("strong", {}, ` · ${t("rules.play.wins")}`) : ""))));
  const parts = [played];
  if (example.hand) {
    const marks = Object.fromEntries(example.legal.map((code) => [code, { kind: "may-play", words: t("rules.play.legal"), short: "✓" }]));
    parts.push(h("p", { class: "hand-label" }, t("rules.play.hand", { n: example.actor + 1 })),
      cardRow(example.hand, { marks, small: true }));
  }
  return figure(caption, ...parts);
}

const trumpNumber = (code) => cards.parse(code).n;

function play(f) {
  const x = f.examples.tricks;
  const last = (e) => e.plays[e.plays.length - 1];
  return [para("rules.play.text"),
    h("ul", {}, ["follow", "trump", "any", "trump_led"].map((k) => h("li", {}, t(`rules.play.${k}`)))),
    para("rules.play.duties"),
    trickFigure(x.follow, t("rules.ex.follow")),
    trickFigure(x.trump, t("rules.ex.trump")),
    trickFigure(x.overtrump, t("rules.ex.overtrump", { n: trumpNumber(last(x.overtrump)) })),
    trickFigure(x.undertrump, t("rules.ex.undertrump", { n: trumpNumber(last(x.undertrump)) })),
    trickFigure(x.discard, t("rules.ex.discard")),
    trickFigure(x.trump_led, t("rules.ex.trump_led", { n: trumpNumber(x.trump_led.plays[0]) })),
    trickFigure(x.trump_wins, t("rules.ex.trump_wins", { n: x.trump_wins.winner + 1 })),
    trickFigure(x.suit_wins, t("rules.ex.suit_wins", { card: cards.fullName(x.suit_wins.plays[x.suit_wins.winner]) }))];
}

function excuse(f) {
  const x = f.examples.tricks.excuse;
  return [para("rules.excuse.text"), trickFigure(x, t(`rules.excuse.example.${x.excuse_to}`))];
}

/** The pile in pairs, as players count it: each high card with a low one, then the low cards two by two. */
function pairs(f, pile) {
  const value = (code) => f.card_values[code];
  const least = Math.min(...Object.values(f.card_values));
  const high = pile.filter((c) => value(c) > least);
  const low = pile.filter((c) => value(c) === least);
  const out = high.map((c) => [c, low.shift()].filter(Boolean));
  while (low.length) out.push(low.splice(0, 2));
  return out;
}

function count(f) {
  const pile = f.examples.pile;
  const groups = pairs(f, pile.cards);
  return [para("rules.count.text", { sans: listWords(contractsWhere(f, (c) => c.dog === "taker"), "disjunction") }),
    figure(t("rules.count.example", { points: pile.points }),
      h("ul", { class: "pairs" }, groups.map((pair) => h("li", {}, cardRow(pair, { small: true }),
        h("span", { class: "pair-points" }, pts(pair.reduce((sum, c) => sum + f.card_values[c], 0)))))))];
}

function targets(f) {
  const middle = f.targets.find((x) => x.bouts === 2) || f.targets[0];
  return [para("rules.targets.text"),
    factTable(t("rules.targets.caption"), [t("rules.targets.bouts"), t("rules.targets.points")], f.targets.map((x) => [x.bouts, x.points])),
    para("rules.targets.rounding", { target: middle.points, below: middle.points - 0.5, above: middle.points + 0.5 }),
    workedFigure(f, null, (x, r) => !r.made && x.points % 1 !== 0)];
}

/** Each seat's share of U at each table size (at five with a partner, and alone). */
function sharesTable(f) {
  const dash = "—";
  const times = (k) => `${k < 0 ? "\u2212" : ""}${Math.abs(k) === 1 ? "" : Math.abs(k)}U`;
  const row = (label, s) => [label, times(s.taker), s.partner ? times(s.partner) : dash, times(s.defender)];
  const rows = Object.values(f.tables).flatMap((x) => {
    const players = t("lobby.players", { n: x.players });
    return x.shares_called ? [row(t("rules.score.with_partner", { n: players }), x.shares_called), row(t("rules.score.alone", { n: players }), x.shares)]
      : [row(players, x.shares)];
  });
  return factTable(t("rules.score.caption"), [t("rules.score.table"), t("rules.score.taker"), t("rules.score.partner"), t("rules.score.defender")], rows, "shares");
}

/** A worked example in words: the table, the contract, the points and the extras, then every seat's score. */
export function workedWords(example) {
  const x = example.facts;
  const r = example.result;
  const bits = [t("lobby.players", { n: x.players }), contractName(x.contract), t("rules.guide.bouts", { n: x.bouts }),
    `${pts(x.points)} ${t("rules.points.points").toLowerCase()}`];
  if (x.five_players === "dealer_sits_out") bits.push(t("rule.five_players.dealer_sits_out"));
  if (x.players === 5 && x.five_players !== "dealer_sits_out") bits.push(t(x.partner === undefined ? "rules.calc.partner.alone" : "rules.calc.partner.called"));
  if (x.petit_au_bout) bits.push(t("rules.score.petit", { side: t(`rules.calc.side.${x.petit_au_bout}`) }));
  for (const p of x.poignees || []) bits.push(t("rules.score.poignee", { size: t(`poignee.${p.size}`), side: t(`rules.calc.side.${p.side}`) }));
  if (r.chelem) bits.push(t("rules.score.chelem", { what: t(`rules.chelem.${r.chelem}`) }));
  const taker = r.scores[r.roles.indexOf("taker")];
  const defender = r.scores[r.roles.indexOf("defender")];
  const partner = r.roles.includes("partner") ? `, ${t("rules.score.partner")} ${signed(r.scores[r.roles.indexOf("partner")])}` : "";
  return `${bits.join(", ")} → ${t("rules.score.taker")} ${signed(taker)}${partner}, ${t("rules.score.defender").toLowerCase()} ${signed(defender)}`;
}

/** The first worked example that ``test`` picks, as an example of a rule: in words, its working, and a button
 * that counts it in the calculator. */
function workedFigure(f, calculator, test) {
  const i = f.worked.findIndex((x) => test(x.facts, x.result));
  if (i < 0) return "";
  const example = f.worked[i];
  return figure(workedWords(example), h("p", { class: "working" }, workingLine(example.result)),
    calculator ? tryButton(calculator, example, i) : "");
}

const tryButton = (calculator, example, i) => h("button", { type: "button", class: "quiet small",
  "aria-label": t("rules.score.try_label", { n: i + 1 }), onclick: () => calculator.fill(example.facts) }, t("rules.score.try"));

function score(f, calculator) {
  return [para("rules.score.text", { base: f.score.base }), sharesTable(f), para("rules.score.zero"),
    h("h3", {}, t("rules.score.worked")),
    h("ol", { class: "worked" }, f.worked.map((example, i) => h("li", {}, workedWords(example), " ",
      calculator ? tryButton(calculator, example, i) : "")))];
}

function petit(f) {
  return [para("rules.petit.text", { bonus: f.score.petit_au_bout }),
    workedFigure(f, null, (x, r) => x.petit_au_bout && x.petit_au_bout === "taker" && !r.made)];
}

function poignee(f) {
  const tables = Object.values(f.tables);
  const rows = tables[0].poignees.map((p, i) => [t(`poignee.${p.size}`), ...tables.map((x) => x.poignees[i].trumps), `+${p.bonus}`]);
  const x = f.examples.poignee;
  const [first, second] = Object.entries(x.sizes);
  return [para("rules.poignee.text"),
    factTable(t("rules.poignee.caption"), [t("rules.poignee.size"), ...tables.map((x) => t("rules.poignee.at", { n: x.players })), t("rules.poignee.bonus")], rows),
    figure(t("rules.poignee.example", { first: t(`poignee.${first[0]}`), n: first[1], second: t(`poignee.${second[0]}`), m: second[1] }),
      cardRow(x.held, { small: true }))];
}

function chelem(f) {
  return [para("rules.chelem.text"),
    factTable(t("rules.chelem.caption"), [t("rules.chelem.case"), t("rules.chelem.bonus")],
      Object.entries(f.score.chelem).map(([k, bonus]) => [t(`rules.chelem.${k}`), signed(bonus)])),
    workedFigure(f, null, (x, r) => r.chelem === "announced_made"), workedFigure(f, null, (x, r) => r.chelem === "announced_failed")];
}

function three(f) {
  const x = f.tables[3];
  const [simple, double, triple] = x.poignees.map((p) => p.trumps);
  return [para("rules.three.text", { hand: x.hand, dog: x.dog, packet: x.packet, share: x.shares.taker, simple, double, triple }),
    workedFigure(f, null, (w) => w.players === 3)];
}

function five(f) {
  const x = f.tables[5];
  const callFigure = (example) => figure(t("rules.five.example", { held: listWords(example.held.map(cards.word)),
    callable: listWords(example.callable.map(cards.word), "disjunction") }), cardRow(example.callable, { small: true }));
  return [para("rules.five.text", { hand: x.hand, dog: x.dog, with: x.shares_called.taker, alone: x.shares.taker }),
    callFigure(f.examples.call.some), callFigure(f.examples.call.all_kings)];
}

function variants(f) {
  return [para("rules.variants.text"),
    h("dl", { class: "variants" }, f.options.map((o) => [
      h("dt", {}, t(`rule.${o.name}`)),
      h("dd", {}, h("span", { class: "values" }, o.values.map((v, i) => [i ? " · " : "", t(`rule.${o.name}.${v}`),
        v === o.default ? h("span", { class: "tag" }, t("rules.variants.default")) : ""])), h("span", { class: "why" }, t(`rules.variant.${o.name}`)))]))];
}

/** Every section in order: its id (the address #/rules/ID), its title's words and its content. */
export const SECTIONS = [
  ["deck", "rules.deck.title", deck], ["points", "rules.points.title", points], ["deal", "rules.deal.title", deal], ["bids", "rules.bids.title", bids],
  ["dog", "rules.dog.title", dog], ["play", "rules.play.title", play], ["excuse", "rules.excuse.title", excuse], ["count", "rules.count.title", count],
  ["targets", "rules.targets.title", targets], ["score", "rules.score.title", score], ["petit", "rules.petit.title", petit],
  ["poignee", "rules.poignee.title", poignee], ["chelem", "rules.chelem.title", chelem], ["three", "rules.three.title", three],
  ["five", "rules.five.title", five], ["variants", "rules.variants.title", variants],
];
