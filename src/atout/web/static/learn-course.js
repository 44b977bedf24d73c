// The guided lessons' course and the learner's progress (issue 46): the course and the lessons' words as the
// server gives them (GET /api/learn), a lesson text's placeholders filled, and the runs kept (an account's by
// the server, a guest's in this browser). Shared by the course's page (learn.js) and a lesson's (learn-lesson.js).

import { h } from "./dom.js";
import { lang, num } from "./i18n.js";
import * as cards from "./cards.js";

const STORED = "atout.lessons";
const CARD_ARGS = new Set(["card", "top", "called", "king"]);
const CARDS_ARGS = new Set(["cards", "trumps"]);

let course = null; // GET /api/learn: {lessons, words, progress}
const lessonTexts = {}; // each language's lesson words, once fetched

/** The course and, for an account, its progress (asked again when ``fresh``). */
export async function loadCourse(fresh = false) {
  if (!course || fresh) {
    const answer = await fetch("/api/learn");
    if (!answer.ok) throw new Error(`${answer.status}`);
    course = await answer.json();
  }
  return course;
}

/** The lessons' words in the page's language (a year in the browser's cache under their version). */
export async function lessonWords() {
  const language = lang();
  if (!lessonTexts[language]) {
    const answer = await fetch(`/api/learn/words/${language}?v=${encodeURIComponent((await loadCourse()).words)}`);
    if (!answer.ok) throw new Error(`${answer.status}`);
    lessonTexts[language] = await answer.json();
  }
  return lessonTexts[language];
}

/** A placeholder's value as the page writes it: a card by its name, a suit by its word, a number as the
 * language writes it (src/atout/learn/texts.py says which placeholder is what). */
function written(name, value) {
  if (CARD_ARGS.has(name)) return cards.word(value);
  if (CARDS_ARGS.has(name)) { // trumps after the first by their number alone: "trump 2, 3, 7, Excuse"
    let trumps = 0;
    return value.map((c) => (cards.isTrump(c) && trumps++ ? cards.short(c) : cards.word(c))).join(", ");
  }
  if (name === "suit") return cards.suitWord(value);
  return typeof value === "number" ? num(value) : String(value);
}

/** A lesson text with its placeholders filled (the key itself when the words lack it). */
export function say(words, key, args = {}) {
  const text = words[key];
  if (text === undefined) return key;
  const out = text.replace(/\{(\w+)\}/g, (_, name) => (args[name] === undefined ? "" : written(name, args[name])));
  return text.startsWith("{") ? out.charAt(0).toUpperCase() + out.slice(1) : out; // a sentence starts with a capital
}

/** A text's paragraphs (a blank line apart), as <p> elements. */
export function paragraphs(text) {
  return text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean).map((p) => h("p", {}, p));
}

function stored() {
  try {
    const value = JSON.parse(localStorage.getItem(STORED) || "{}");
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

/** The learner's progress: ``{LESSON: {answers, done}}``, the account's or this browser's. */
export function progress(app) {
  return app.registered ? (course && course.progress) || {} : stored();
}

/** A run reached ``answers`` (finished: ``done``): the furthest run is kept, a finished lesson stays finished
 * (the server keeps an account's as it answers; this is what the page remembers meanwhile). */
export function keep(app, id, answers, done) {
  const all = app.registered ? ((course && (course.progress ||= {})) || {}) : stored();
  const old = all[id] || { answers: [], done: false };
  all[id] = { answers: answers.length > old.answers.length ? answers : old.answers, done: old.done || done };
  if (!app.registered) localStorage.setItem(STORED, JSON.stringify(all));
}

/** Forget a run that no longer replays (the lessons changed since it was kept). */
export function forget(app, id) {
  const all = progress(app);
  delete all[id];
  if (!app.registered) localStorage.setItem(STORED, JSON.stringify(all));
}

/** A guest's runs, sent once it is logged in: each replayed by the server, then kept with the account; the
 * browser's copy goes once the account has them. One sending at a time, which every caller waits for: two
 * renders at once (the boot's and the socket's) each sent the runs, and one's ``course = null`` fell between
 * the other's loading the course and drawing it, which drew "0 lessons done" (seen in CI). */
let sending = null;
export function keepGuestProgress(app) {
  sending ||= sendGuestProgress(app).finally(() => { sending = null; });
  return sending;
}

async function sendGuestProgress(app) {
  const runs = stored();
  const ids = Object.keys(runs);
  if (!app.registered || !ids.length) return;
  const answers = await Promise.all(ids.map((id) => fetch(`/api/learn/${encodeURIComponent(id)}`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ answers: runs[id].answers || [] }),
  }).catch(() => null)));
  // kept by the account (or no run of the lessons as they are now: 4xx): gone from here; the others (the
  // network or the server away, a budget spent) stay, to be sent again at the next visit
  ids.forEach((id, i) => { if (answers[i] && answers[i].status < 500 && answers[i].status !== 429) delete runs[id]; });
  if (Object.keys(runs).length) localStorage.setItem(STORED, JSON.stringify(runs));
  else localStorage.removeItem(STORED);
  // the account's progress, with what it just took: replaced whole, never emptied in between (a page being
  // drawn reads it); if it cannot be asked now, whoever needs it next asks again
  try {
    await loadCourse(true);
  } catch {
    course = null;
  }
}
