// A table's options as form controls: editable for the master (and in the create form), read-only
// with their "changed" marks for everyone else. Values come from GET /api/options.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function levelLabel(cat, level) {
  const name = (cat.level_aliases && cat.level_aliases[level]) || level;
  return t(`level.${name}`, {}, name);
}

/** A seat's name as this page says it: a robot's ("Robot 2 (beginner)", as the server names it) with its
 * level in the page's language ("Robot 2 (débutant)"); a person's as it is (a name has no spaces). */
export function shownName(cat, name) {
  const robot = /^Robot (\d+) \(([\w-]+)\)$/.exec(name || "");
  return robot ? `Robot ${robot[1]} (${levelLabel(cat || {}, robot[2])})` : name;
}

function levels(cat, current) {
  const offered = Object.keys(cat.levels);
  const name = (cat.level_aliases && cat.level_aliases[current]) || current;
  return offered.includes(name) ? offered : [...offered, current];
}

function field(name, label, control, changed) {
  return h("div", { class: `option ${changed ? "changed" : ""}`, dataset: { option: name } },
    h("label", { for: `opt-${name}` }, label, changed ? h("span", { class: "changed-mark", title: t("options.changed") }, " ●") : ""),
    control);
}

function valueWords(name, value) {
  if (name === "turn_seconds") return value ? t("options.seconds", { n: value }) : t("options.unlimited");
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  return String(value);
}

/** Times per turn as a person reads a list: shortest first, no limit (0) last. */
const byLength = (seconds) => [...seconds].sort((a, b) => (a || Infinity) - (b || Infinity));

/** The option fields, one for each option the server declares (`cat.fields`, GET /api/options: its kind says
 * its control), each labelled by its words (`options.NAME`); `values` are the table's current options
 * (`rules` in full). */
export function optionControls(cat, values, { editable = false, changed = [], onchange = null } = {}) {
  const dis = !editable;
  const mark = (name) => changed.includes(name);
  const changedRule = (name) => changed.includes("rules") && values.rules[name] !== cat.defaults.rules[name];
  const notify = () => onchange && onchange();
  const select = (name, options, current, words) => h("select", { id: `opt-${name}`, name, disabled: dis, onchange: notify },
    options.map((v) => h("option", { value: JSON.stringify(v), selected: v === current }, words(v))));
  const check = (name) => h("input", { id: `opt-${name}`, name, type: "checkbox", checked: values[name], disabled: dis, onchange: notify });
  const number = (name, [low, high]) => h("input", {
    id: `opt-${name}`, name, type: "number", min: low, max: high, step: 1, value: values[name], disabled: dis, onchange: notify,
    inputmode: "numeric",
  });
  const rules = (options) => h("details", { class: "rules" }, h("summary", {}, t("options.rules")),
    Object.entries(options).map(([name, opts]) => field(`rules.${name}`, t(`rule.${name}`),
      h("select", { id: `opt-rules.${name}`, name: `rules.${name}`, disabled: dis, onchange: notify },
        opts.map((o) => h("option", { value: JSON.stringify(o), selected: o === values.rules[name] }, t(`rule.${name}.${o}`, {}, o)))),
      changedRule(name))));
  const control = {
    flag: (f) => check(f.name),
    whole: (f) => number(f.name, f.values),
    choice: (f) => select(f.name, f.name === "turn_seconds" ? byLength(f.values) : f.values, values[f.name], (x) => valueWords(f.name, x)),
    level: (f) => select(f.name, levels(cat, values[f.name]), (cat.level_aliases[values[f.name]] || values[f.name]), (x) => levelLabel(cat, x)),
  };
  return h("div", { class: "options" }, cat.fields.map((f) => (f.kind === "rules" ? rules(f.values)
    : field(f.name, t(`options.${f.name}`), control[f.kind](f), mark(f.name)))));
}

/** The options the form says, as the protocol's `options` object. */
export function readOptions(form, cat) {
  const out = { rules: {} };
  for (const el of form.querySelectorAll("[id^=opt-]")) {
    const name = el.name;
    let value;
    if (el.type === "checkbox") value = el.checked;
    else if (el.type === "number") value = Number(el.value);
    else value = JSON.parse(el.value);
    if (name.startsWith("rules.")) out.rules[name.slice(6)] = value;
    else out[name] = value;
  }
  if (!out.competitive) out.bet = 0;
  void cat;
  return out;
}
