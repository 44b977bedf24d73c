// The score calculator (issue 46): a deal's facts as a person says them (the table's size, the contract, the
// bouts and points of the taker's side, the petit au bout, the poignées and who showed them, the chelem, the
// called King at five) sent to POST /api/rules/score, which scores them with the engine's own scorer; every
// seat's score and the working shown. A refused fact is said next to its field, in the page's words.

import { h, replace } from "./dom.js";
import { num, partWords, t } from "./i18n.js";
import { contractName, factTable, signed } from "./rulebook.js";

await partWords("rules");

let made = 0; // each calculator's own ids (the page and a dialog may both hold one)

/** A score's working as docs/rules.md writes it: U = (25 + 4 − 10) × 2 = 38, U = −(25 + 1) × 1 = −26. */
export function workingLine(r) {
  const w = r.working;
  const minus = "\u2212";
  const term = (n) => (n ? ` ${n > 0 ? "+" : minus} ${num(Math.abs(n))}` : "");
  const sum = `${num(w.base)} + ${num(w.margin)}`;
  const core = w.sign > 0 ? `(${sum}${term(w.petit_au_bout)})`
    : w.petit_au_bout ? `(${minus}(${sum})${term(w.petit_au_bout)})` : `${minus}(${sum})`;
  return t("rules.calc.working", { core, k: num(w.multiplier), poignees: term(w.poignees), chelem: term(w.chelem), unit: num(r.unit) });
}

/** Where each of the server's fields is said and shown: its label's words and the control to focus. */
const FIELD_OF = (field) => field.split(".")[0];
const LABEL = { players: "rules.calc.players", five_players: "rules.calc.five", partner: "rules.calc.partner", taker: "rules.calc.players",
  dealer: "rules.calc.five", contract: "rules.calc.contract", bouts: "rules.calc.bouts", points: "rules.calc.points", petit_au_bout: "rules.calc.petit",
  poignees: "rules.calc.poignees", chelem: "rules.calc.chelem" };

function radios(name, legend, values, words, id, { start = values[0], inner = false } = {}) {
  return h("fieldset", { class: inner ? "radios inner" : "calc-field radios", dataset: { field: name }, id: `${id}-${name}` },
    h("legend", {}, legend),
    values.map((v) => h("label", { class: "choice" }, h("input", { type: "radio", name: `${id}-${name}`, value: String(v), checked: v === start }), " ", words(v))));
}

export function calculator(f, app) {
  const id = `calc${++made}`;
  const sizes = Object.keys(f.tables).map(Number);
  const form = h("form", { class: "calculator", novalidate: true, "aria-labelledby": `${id}-title` });
  const value = (name) => form.querySelector(`[name="${id}-${name}"]:checked`)?.value;
  const set = (name, v) => { const el = form.querySelector(`[name="${id}-${name}"][value="${v}"]`); if (el) el.checked = true; };
  const players = radios("players", t("rules.calc.players"), sizes, (n) => t("lobby.players", { n }), id, { start: sizes.includes(4) ? 4 : sizes[0] });
  const five = radios("five_players", t("rules.calc.five"), f.options.find((o) => o.name === "five_players").values,
    (v) => t(`rule.five_players.${v}`), id);
  const partner = radios("partner", t("rules.calc.partner"), ["called", "alone"], (v) => t(`rules.calc.partner.${v}`), id);
  const contract = h("select", { id: `${id}-contract`, name: `${id}-contract` },
    f.contracts.map((c) => h("option", { value: c.name }, `${contractName(c.name)} (×${c.multiplier})`)));
  const bouts = radios("bouts", t("rules.calc.bouts"), f.targets.map((x) => x.bouts), (n) => num(n), id);
  const points = h("input", { id: `${id}-points`, name: `${id}-points`, type: "number", min: 0, max: f.deck.points, step: 0.5,
    inputmode: "decimal", value: f.targets[0].points, "aria-describedby": `${id}-points-hint` });
  const petit = radios("petit_au_bout", t("rules.calc.petit"), ["", "taker", "defence"], (v) => (v ? t(`rules.calc.side.${v}`) : t("rules.calc.nobody")), id);
  const poignees = h("ol", { class: "poignee-rows" });
  const addPoignee = h("button", { type: "button", class: "quiet", onclick: () => { addRow(); poignees.lastChild.querySelector("select").focus(); } }, t("rules.calc.add_poignee"));
  const announced = h("input", { type: "checkbox", id: `${id}-announced`, name: `${id}-announced` });
  const sweep = radios("all_tricks", t("rules.calc.all_tricks"), ["", "taker", "defence"], (v) => (v ? t(`rules.calc.side.${v}`) : t("rules.calc.nobody")), id, { inner: true });
  const status = h("p", { class: "calc-said", role: "status" });
  const result = h("div", { class: "calc-result", id: `${id}-result`, tabindex: "-1" });
  const fieldErrors = new Map();

  const tableOf = () => f.tables[Number(value("players"))];
  function sizeWords(size) {
    const p = tableOf().poignees.find((x) => x.size === size);
    return t("rules.calc.poignee_trumps", { size: t(`poignee.${size}`), n: p ? p.trumps : "" });
  }
  function addRow(size = "simple", side = "taker") {
    const n = poignees.children.length + 1;
    const row = h("li", { class: "poignee-row" },
      h("span", { class: "row-name" }, t("rules.calc.poignee_n", { n })),
      h("label", {}, h("span", { class: "sr-only" }, t("rules.calc.poignee_size")), h("select", { class: "size", "aria-label": `${t("rules.calc.poignee_n", { n })}: ${t("rules.calc.poignee_size")}` },
        tableOf().poignees.map((p) => h("option", { value: p.size, selected: p.size === size }, sizeWords(p.size))))),
      h("label", {}, h("span", { class: "sr-only" }, t("rules.calc.poignee_side")), h("select", { class: "side", "aria-label": `${t("rules.calc.poignee_n", { n })}: ${t("rules.calc.poignee_side")}` },
        ["taker", "defence"].map((v) => h("option", { value: v, selected: v === side }, t(`rules.calc.side.${v}`))))),
      h("button", { type: "button", class: "quiet", "aria-label": t("rules.calc.remove_label", { n }), onclick: () => { row.remove(); renumber(); addPoignee.focus(); } }, t("rules.calc.remove")));
    poignees.append(row);
  }
  function renumber() {
    [...poignees.children].forEach((row, i) => {
      row.querySelector(".row-name").textContent = t("rules.calc.poignee_n", { n: i + 1 });
      row.querySelector("select.size").setAttribute("aria-label", `${t("rules.calc.poignee_n", { n: i + 1 })}: ${t("rules.calc.poignee_size")}`);
      row.querySelector("select.side").setAttribute("aria-label", `${t("rules.calc.poignee_n", { n: i + 1 })}: ${t("rules.calc.poignee_side")}`);
      row.querySelector("button").setAttribute("aria-label", t("rules.calc.remove_label", { n: i + 1 }));
    });
  }
  function shown() { // what applies at this table size: the five players' rule, the called King
    const atFive = value("players") === "5";
    five.hidden = !atFive;
    partner.hidden = !atFive || value("five_players") !== "call_king";
    for (const row of poignees.children) {
      const select = row.querySelector("select.size");
      for (const option of select.options) option.textContent = sizeWords(option.value);
    }
  }
  form.addEventListener("change", shown);

  /** The form as the calculator's request (docs/protocol.md, "The rules and the score calculator"). */
  function request() {
    const out = { players: Number(value("players")), contract: contract.value, bouts: Number(value("bouts")) };
    out.points = points.value === "" ? null : Number(points.value);
    if (out.players === 5) {
      out.five_players = value("five_players");
      if (out.five_players === "call_king" && value("partner") === "called") out.partner = 1;
    }
    out.petit_au_bout = value("petit_au_bout") || null;
    out.poignees = [...poignees.children].map((row) => ({ size: row.querySelector("select.size").value, side: row.querySelector("select.side").value }));
    out.chelem = { announced: announced.checked, all_tricks: value("all_tricks") || null };
    return out;
  }

  function clearErrors() {
    for (const [control, note] of fieldErrors) {
      control.removeAttribute("aria-invalid");
      note.remove();
    }
    fieldErrors.clear();
  }

  function showError(error) {
    const field = FIELD_OF(error.field || "");
    const box = form.querySelector(`[data-field="${field}"]`) || form.querySelector(`[data-field="points"]`);
    const label = t(LABEL[field] || "rules.calc.title");
    const why = error.reason ? t(`rules.why.${error.reason}`) : "";
    const fault = error.fault === "range" && field === "points" ? "range_points" : error.fault;
    const words = t(`rules.calc.fault.${fault}`, { bouts: t("rules.guide.bouts", { n: Number(value("bouts")) }), field: label, low: error.low === undefined ? "" : num(error.low),
      high: error.high === undefined ? "" : num(error.high), why });
    const note = h("p", { class: "refusal field-error", id: `${id}-error`, role: "alert" }, words);
    const control = box.querySelector("input, select") || box;
    box.append(note);
    control.setAttribute("aria-invalid", "true");
    control.setAttribute("aria-describedby", [control.getAttribute("aria-describedby"), note.id].filter(Boolean).join(" "));
    fieldErrors.set(control, note);
    control.focus();
  }

  function showResult(r) {
    const working = workingLine(r);
    let defenders = 0;
    const rows = r.roles.map((role, seat) => [
      role === "defender" ? `${t("rules.calc.role.defender")} ${++defenders}` : t(`rules.calc.role.${role}`), signed(r.scores[seat])]);
    const scoreOf = (role) => r.scores[r.roles.indexOf(role)];
    replace(result,
      h("h3", {}, t("rules.calc.result")),
      h("p", { class: r.made ? "good" : "bad" }, t(r.made ? "rules.calc.made" : "rules.calc.failed",
        { margin: num(r.margin), points: num(r.points), target: num(r.target), bouts: t("rules.guide.bouts", { n: r.bouts }) })),
      h("p", { class: "working" }, working),
      factTable(t("rules.calc.table"), [t("rules.calc.seat"), t("rules.calc.score")], rows, "calc-scores"));
    const said = { taker: signed(scoreOf("taker")), defender: signed(scoreOf("defender")) };
    status.textContent = r.roles.includes("partner") ? t("rules.calc.said_partner", { ...said, partner: signed(scoreOf("partner")) }) : t("rules.calc.said", said);
  }

  async function count() {
    clearErrors();
    let answer;
    try {
      answer = await fetch("/api/rules/score", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify(request()) });
    } catch (err) {
      status.textContent = t("rules.calc.offline");
      return false;
    }
    const data = await answer.json().catch(() => ({}));
    if (answer.ok) {
      showResult(data);
      return true;
    }
    const error = data.error || {};
    replace(result); // no score left beside facts that were refused
    status.textContent = "";
    if (error.code === "bad_facts") showError(error);
    else status.textContent = (app && app.errorText && app.errorText(error)) || t("rules.calc.offline");
    return false;
  }
  form.addEventListener("submit", (e) => { e.preventDefault(); count(); });

  replace(form,
    h("h2", { id: `${id}-title` }, t("rules.calc.title")),
    h("p", {}, t("rules.calc.intro")),
    h("div", { class: "calc-grid" },
      players, five, partner,
      h("div", { class: "calc-field", dataset: { field: "contract" } }, h("label", { for: contract.id }, t("rules.calc.contract")), contract),
      bouts,
      h("div", { class: "calc-field", dataset: { field: "points" } }, h("label", { for: points.id }, t("rules.calc.points")), points,
        h("p", { class: "hint", id: `${id}-points-hint` }, t("rules.calc.points_hint", { low: num(0), high: num(f.deck.points) }))),
      petit,
      h("fieldset", { class: "calc-field", dataset: { field: "poignees" } }, h("legend", {}, t("rules.calc.poignees")), poignees, addPoignee),
      h("fieldset", { class: "calc-field", dataset: { field: "chelem" } }, h("legend", {}, t("rules.calc.chelem")),
        h("label", { class: "choice" }, announced, " ", t("rules.calc.announced")), sweep)),
    h("button", { type: "submit", class: "primary" }, t("rules.calc.count")),
    status, result);
  shown();

  /** A worked example's facts in the form, counted, and the focus on its result. */
  async function fill(facts) {
    set("players", facts.players);
    set("five_players", facts.five_players || "call_king");
    set("partner", facts.partner === undefined ? "alone" : "called");
    contract.value = facts.contract;
    set("bouts", facts.bouts);
    points.value = String(facts.points);
    set("petit_au_bout", facts.petit_au_bout || "");
    poignees.replaceChildren();
    shown();
    for (const p of facts.poignees || []) addRow(p.size, p.side);
    announced.checked = Boolean(facts.chelem && facts.chelem.announced);
    set("all_tricks", (facts.chelem && facts.chelem.all_tricks) || "");
    shown();
    form.scrollIntoView({ block: "start" });
    if (await count()) result.focus();
  }
  return { node: form, fill };
}
