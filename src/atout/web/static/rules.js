// The rules page (#/rules, #/rules/SECTION; issue 46): every rule section by section, each with an example
// the engine played and cards drawn as the table draws them, and the score calculator. Its facts are the
// engine's (GET /api/rules, rulebook.js), its words the catalogues' rules.*. The same content opens in a
// dialog over a table (reference.js), whose links scroll within it and never leave the table.

import { h, replace } from "./dom.js";
import { partWords, t } from "./i18n.js";
import { rulebook } from "./rulebook.js";
import { calculator } from "./rules-calc.js";
import { SECTIONS } from "./rules-sections.js";

await partWords("rules");

let styled = false;
/** The rules' own style sheet (its print rules included), added once (the site allows no inline style). */
export function ensureStyle() {
  if (styled || document.querySelector("link[data-rules]")) return;
  styled = true;
  document.head.append(h("link", { rel: "stylesheet", href: import.meta.resolve("/static/rules.css"), dataset: { rules: "1" } }));
}

/** A link within the rules: it scrolls to its section and puts the focus on its heading; on the page it also
 * names the section in the address (without a new route: the page is not drawn again), in a dialog it
 * changes no address at all. */
function jump(root, key, target, inPage) {
  return (e) => {
    e.preventDefault();
    const heading = root.querySelector(`#${target} h2`) || root.querySelector(`#${target}`);
    if (!heading) return;
    heading.scrollIntoView({ block: "start" });
    heading.focus({ preventScroll: true });
    if (inPage) history.replaceState(null, "", `#/rules/${key}`);
  };
}

/** The rules, whole: title, links, contents, sections, calculator. `inPage`: the page's (#/rules), else a dialog's. */
export function rulesContent(f, app, { inPage = true, prefix = "rules" } = {}) {
  const root = h("article", { class: "rules-page", lang: document.documentElement.lang });
  const sid = (key) => `${prefix}-${key}`;
  const calc = calculator(f, app);
  const link = (key, words, target) => h("a", { href: `#/rules/${key}`, onclick: jump(root, key, target, inPage) }, words);
  const sections = SECTIONS.map(([key, title, draw]) => h("section", { id: sid(key), class: "rule-section", "aria-labelledby": `${sid(key)}-title` },
    h("h2", { id: `${sid(key)}-title`, tabindex: "-1" }, t(title)),
    draw(f, calc)));
  const calcId = sid("calculator");
  replace(root,
    h("h1", { id: `${prefix}-title`, tabindex: "-1" }, t("rules.title")),
    h("p", { class: "lead" }, t("rules.intro", { cards: f.deck.cards })),
    h("ul", { class: "rules-links" },
      h("li", {}, h("a", { href: "#/learn" }, t("rules.learn"))),
      h("li", {}, h("a", { href: "#/guide", class: "guide-link" }, t("rules.guide_link"))),
      h("li", {}, link("calculator", t("rules.calc_link"), calcId))),
    h("nav", { class: "rules-contents", "aria-labelledby": `${prefix}-contents` },
      h("h2", { id: `${prefix}-contents` }, t("rules.contents")),
      h("ol", {}, SECTIONS.map(([key, title]) => h("li", {}, link(key, t(title), sid(key)))),
        h("li", {}, link("calculator", t("rules.calc.title"), calcId)))),
    sections,
    h("section", { id: calcId, class: "rule-section calc-section" }, calc.node));
  calc.node.querySelector("h2").setAttribute("tabindex", "-1");
  return root;
}

/** #/rules[/SECTION]: the page, opened at its section when the address names one. */
export async function renderRules(app, main, section) {
  ensureStyle();
  replace(main, h("p", { class: "hint" }, "…"));
  let f;
  try {
    f = await rulebook();
  } catch (err) {
    replace(main, h("p", { class: "refusal", role: "alert" }, t("rules.calc.offline")));
    return;
  }
  const content = rulesContent(f, app);
  replace(main, content);
  const id = section && `#rules-${CSS.escape(section)}`;
  const target = id && (content.querySelector(`${id} h2`) || content.querySelector(id));
  if (target) {
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
  } else if (app && app.moved) {
    content.querySelector("h1").focus(); // opened from another page: the focus starts at its title
  }
}
