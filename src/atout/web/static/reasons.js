// Why the expert prefers a choice, in a sentence of the page's language: the hint's reasons (hint.js) and
// the analysis's (analysis.js) are the same data, made by the server from its search (bots/reasons.py:
// every number is the search's, and which reason is given is the search's choice); only the words are here.
// Loaded with the hint or the analysis, never with the first page.

import { lang, num } from "./i18n.js";
import * as cards from "./cards.js";

const WORDS = {
  en: {
    gain: "It wins {gain} points on average over the {worlds} deals searched, against {other} (95% interval {low} to {high}).",
    noise: "It is {gain} points ahead of {other} over the {worlds} deals searched, within the search's noise (95% interval {low} to {high}).",
    even: "{other} is as good, over the {worlds} deals searched.",
    petit: "The Petit ends with your side in {chance}% of the deals searched, against {other_chance}% after {other}.",
    wins: "Your side wins the deal in {chance}% of the deals searched, against {other_chance}% after {other}.",
    voids: "It empties your {suits}, which {other} keeps.",
    only: "It is the only sensible choice here.",
    "other.pass": "passing", "other.call": "calling {card}", "other.discard": "laying aside {cards}",
    "other.poignee": "showing the poignée", "other.poignee_hidden": "keeping the poignée hidden",
    "other.chelem": "announcing a chelem", "other.chelem_no": "announcing no chelem",
    "other.redeal": "redealing", "other.play_on": "playing on",
    "contract.prise": "Prise", "contract.garde": "Garde", "contract.garde_sans": "Garde sans", "contract.garde_contre": "Garde contre",
  },
  fr: {
    gain: "Elle gagne {gain} points en moyenne sur les {worlds} donnes explorées, face à {other} (intervalle à 95 % de {low} à {high}).",
    noise: "Elle devance {other} de {gain} points sur les {worlds} donnes explorées, dans le bruit de la recherche (intervalle à 95 % de {low} à {high}).",
    even: "{other} vaut autant, sur les {worlds} donnes explorées.",
    petit: "Le Petit finit dans votre camp dans {chance} % des donnes explorées, contre {other_chance} % avec {other}.",
    wins: "Votre camp gagne la donne dans {chance} % des donnes explorées, contre {other_chance} % avec {other}.",
    voids: "Elle vous fait couper à {suits}, que {other} garde.",
    only: "C'est le seul choix sensé ici.",
    "other.pass": "passer", "other.call": "appeler {card}", "other.discard": "écarter {cards}",
    "other.poignee": "montrer la poignée", "other.poignee_hidden": "garder la poignée cachée",
    "other.chelem": "annoncer un chelem", "other.chelem_no": "ne pas annoncer de chelem",
    "other.redeal": "redonner", "other.play_on": "jouer",
    "contract.prise": "Prise", "contract.garde": "Garde", "contract.garde_sans": "Garde sans", "contract.garde_contre": "Garde contre",
  },
  es: {
    gain: "Gana {gain} puntos de media en los {worlds} repartos explorados, frente a {other} (intervalo del 95 % de {low} a {high}).",
    noise: "Supera a {other} en {gain} puntos en los {worlds} repartos explorados, dentro del ruido de la búsqueda (intervalo del 95 % de {low} a {high}).",
    even: "{other} vale lo mismo, en los {worlds} repartos explorados.",
    petit: "El Pequeño acaba en tu bando en el {chance} % de los repartos explorados, frente al {other_chance} % con {other}.",
    wins: "Tu bando gana el reparto en el {chance} % de los repartos explorados, frente al {other_chance} % con {other}.",
    voids: "Te deja sin {suits}, que {other} conserva.",
    only: "Es la única elección sensata aquí.",
    "other.pass": "pasar", "other.call": "llamar a {card}", "other.discard": "descartar {cards}",
    "other.poignee": "mostrar el puñado", "other.poignee_hidden": "no mostrar el puñado",
    "other.chelem": "anunciar Capote", "other.chelem_no": "no anunciar Capote",
    "other.redeal": "repartir de nuevo", "other.play_on": "seguir jugando",
    "contract.prise": "Toma", "contract.garde": "Guardia", "contract.garde_sans": "Guardia sin el Perro",
    "contract.garde_contre": "Guardia contra el Perro",
  },
};
export const KEYS = WORDS; // the tests check every language has the same keys

function w(key, params = {}) {
  const text = (WORDS[lang()] || WORDS.en)[key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (params[name] !== undefined ? String(params[name]) : ""));
}

const number = (x) => num(Math.round(x * 10) / 10); // the French comma, the true minus sign

/** The action a reason compares with, as a noun: `K♥`, `Garde`, `passing`, `laying aside …`. */
export function otherWords(action) {
  if (!action) return "";
  if (action.play !== undefined) return cards.word(action.play);
  if (action.bid !== undefined) return action.bid === "pass" ? w("other.pass") : w(`contract.${action.bid}`);
  if (action.call !== undefined) return w("other.call", { card: cards.word(action.call) });
  if (action.discard !== undefined) return w("other.discard", { cards: action.discard.map(cards.word).join(" ") });
  if (action.poignee !== undefined) return w(action.poignee === null ? "other.poignee_hidden" : "other.poignee");
  if (action.chelem !== undefined) return w(action.chelem ? "other.chelem" : "other.chelem_no");
  if (action.petit_sec !== undefined) return w(action.petit_sec === "redeal" ? "other.redeal" : "other.play_on");
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
  const text = w(reason.kind, params);
  return text.charAt(0).toUpperCase() + text.slice(1); // a sentence that starts with a card: "Trump 8 is as good…"
}
