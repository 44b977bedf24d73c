// How the page looks, kept on this browser: its theme (the system's, light or dark) and its deck (two colours,
// or four: diamonds blue, clubs green, for a person who tells red from black badly or reads small cards).
// The choices are attributes of <html> the stylesheet reads (style.css: light-dark(), data-deck).

import { h } from "./dom.js";
import { t } from "./i18n.js";

export const THEMES = ["auto", "light", "dark"];
export const DECKS = ["two", "four"];

function saved(key, allowed) {
  const value = localStorage.getItem(key);
  return allowed.includes(value) ? value : allowed[0];
}

export function theme() { return saved("atout.theme", THEMES); }
export function deck() { return saved("atout.deck", DECKS); }

/** The choices on <html>: "auto" leaves the theme to the system (no attribute). */
export function apply() {
  const root = document.documentElement;
  if (theme() === "auto") delete root.dataset.theme; else root.dataset.theme = theme();
  root.dataset.deck = deck();
}

function choose(key, value) {
  localStorage.setItem(key, value);
  apply();
}

function group(name, values, current) {
  return h("fieldset", { class: "display-choice" }, h("legend", {}, t(`display.${name}`)),
    values.map((value) => h("label", {},
      h("input", { type: "radio", name, value, checked: value === current, onchange: () => choose(`atout.${name}`, value) }),
      " ", t(`display.${name}_${value}`))));
}

/** The display's dialog: the theme and the deck, each change seen at once; the focus back where it was. */
export function openDisplay() {
  const before = document.activeElement;
  const dialog = h("dialog", { class: "display-dialog", "aria-labelledby": "display-title" },
    h("h2", { id: "display-title" }, t("display.title")),
    group("theme", THEMES, theme()),
    group("deck", DECKS, deck()),
    h("p", { class: "hint" }, t("display.deck_hint")),
    h("form", { method: "dialog" }, h("button", { type: "submit", class: "primary" }, t("close"))));
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (before && before.isConnected) before.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

apply();
