// The page's words, in its language only: its catalogue's core (words/<lang>.js), loaded before any module
// importing this one runs (a top-level await, so t() stays synchronous), and each part of the site's words
// (words/<lang>/<part>.js), loaded when a module of that part awaits partWords(part). No other module knows
// where words live: a new language is its catalogue (English's files and keys) and its LANGUAGES and LOCALE.

/** The languages the site speaks, each named in itself (the language choice shows these). */
export const LANGUAGES = { en: "English", fr: "Français", es: "Español" };
/** Each language's locale for numbers, dates and plurals (Intl). */
const LOCALE = { en: "en-GB", fr: "fr-FR", es: "es-ES" };

/** The language of a first visit: the one chosen on this browser before, else the browser's first choice
 * the site speaks (navigator.languages: the Accept-Language list), else English. */
function initial() {
  const saved = localStorage.getItem("atout.lang");
  if (Object.hasOwn(LANGUAGES, saved || "")) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.toLowerCase().split("-")[0];
    if (Object.hasOwn(LANGUAGES, base)) return base;
  }
  return "en";
}

/** A language's words: its core, or a part's ("rules"); a failure is forgotten (asked again next time). */
export function catalogue(language, part = "core") {
  if (!Object.hasOwn(LANGUAGES, language)) return Promise.reject(new Error(`no such language: ${language}`));
  const name = part === "core" ? language : `${language}/${part}`;
  if (!loading.has(name)) loading.set(name, import(`./words/${name}.js`).then((m) => m.default, (e) => { loading.delete(name); throw e; }));
  return loading.get(name);
}

const loading = new Map(); // "fr", "fr/rules" -> their words (a promise)
const parts = new Set(["core"]); // the parts opened
let current = initial();
let words = { ...(await catalogue(current)) };
document.documentElement.lang = current;

/** A part's words for t(), in the page's language (its modules await this at their top level). */
export async function partWords(part) {
  parts.add(part);
  const language = current;
  const more = await catalogue(language, part);
  if (language === current) Object.assign(words, more); // else setLang loaded them
}

/** The page's language: "en", "fr" or "es". */
export function lang() {
  return current;
}

/** The page's locale for Intl (numbers, dates, plurals): "en-GB", "fr-FR" or "es-ES". */
export function locale() {
  return LOCALE[current];
}

/** Speak `value` from now on (its words loaded first, every part opened too), and keep that choice on this
 * browser; the caller draws the page again once this resolves. */
export async function setLang(value) {
  const chosen = Object.hasOwn(LANGUAGES, value) ? value : "en";
  let opened, tables;
  do { // again if a part opened meanwhile
    opened = [...parts];
    tables = await Promise.all(opened.map((part) => catalogue(chosen, part)));
  } while (opened.length < parts.size);
  words = Object.assign({}, ...tables);
  current = chosen;
  localStorage.setItem("atout.lang", current);
  document.documentElement.lang = current;
}

/** The words for `key` in the current language, with {name} filled from `params`; `fallback` when the
 * language has none (undefined: the key itself). */
export function t(key, params = {}, fallback) {
  const text = pick(words, key, params);
  if (text === undefined) return fallback === undefined ? key : fallback;
  const out = fill(text, params);
  return text.startsWith("{") ? out.charAt(0).toUpperCase() + out.slice(1) : out; // a sentence starts with a capital
}

function fill(text, params) {
  const word = (v) => (typeof v === "number" ? num(v) : String(v)); // a number as the language writes it
  return text.replace(/\{(\w+)\}/g, (_, name) => (params && params[name] !== undefined ? word(params[name]) : ""));
}

const formatters = new Map();

/** One Intl formatter per kind and language, made once: a page writes numbers at every event, and making one
 * costs far more than using it (its share of drawing a deal's table, measured in Chromium's profiler). */
function formatter(Kind, kind, options) {
  const key = `${Kind.name} ${kind} ${current}`;
  let made = formatters.get(key);
  if (!made) formatters.set(key, (made = new Kind(LOCALE[current], options)));
  return made;
}

/** A number as the page's language writes it: "12,5" and "10 000" in French, "12.5" and "10,000" in English
 * (four digits stay together: 1000), a negative one with the true minus sign (−3) in both; `digits`: exactly
 * that many decimals (a rating's one), else up to two. */
export function num(n, digits) {
  const decimals = digits === undefined ? { maximumFractionDigits: 2 } : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  const format = formatter(Intl.NumberFormat, `${digits}`, { ...decimals, useGrouping: "min2" });
  const text = format.format(Math.abs(n));
  return n < 0 && /[1-9]/.test(text) ? `\u2212${text}` : text;
}

/** A share (0.45) as a percentage: "45 %" in French, "45%" in English. */
export function percent(x) {
  return formatter(Intl.NumberFormat, "percent", { style: "percent" }).format(x);
}

/** The words for `key`, in the plural form the count `params.n` takes in the current language (Intl.PluralRules:
 * `key.one` for one in English, for 0 and 1 in French), else `key` itself. */
function pick(words, key, params) {
  if (params && typeof params.n === "number") {
    const form = words[`${key}.${formatter(Intl.PluralRules, "plural", {}).select(params.n)}`];
    if (form !== undefined) return form;
  }
  return words[key];
}

/** A date and time in the current language's way ("25 Nov 2026, 15:54" / "25 nov. 2026, 15:54"). */
export function dateTime(seconds) {
  return formatter(Intl.DateTimeFormat, "date", { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
}
