// What a screen reader is told: two live regions (the polite one a log of announcements, the urgent one
// assertive), and how much is told, by the person's choice of verbosity (kept in this browser). In the
// manner of the games blind players play (QuentinC's Playroom): each kind of message has its priority.

import { h } from "./dom.js";
import { partWords, t } from "./i18n.js";

await partWords("table");

/** The verbosity levels, from the most told to the least: everything; my turns and the tricks; only what
 * asks me to act. */
export const LEVELS = Object.freeze(["all", "mine", "act"]);

/** Each kind of announcement and the least verbose level that still says it. */
export const KINDS = Object.freeze({
  others: "all", // another seat's card, bid, call, écart; someone sits or leaves
  chat: "all",
  mine: "mine", // what this person did, the dog, poignées and chelems shown
  trick: "mine", // a trick won, a deal's result, the game's end
  act: "act", // this person's turn, their clock's last seconds, a refusal
});

const STORED = "atout.verbosity";
const KEPT = 30; // announcements kept in the log region (older ones leave it unspoken)

export function verbosity() {
  const saved = localStorage.getItem(STORED);
  return LEVELS.includes(saved) ? saved : "all";
}

export function setVerbosity(level) {
  if (!LEVELS.includes(level)) throw new Error(`verbosity: ${level} is none of ${LEVELS.join(", ")}`);
  localStorage.setItem(STORED, level);
}

/** Whether an announcement of ``kind`` is said at the person's level. */
export function told(kind, level = verbosity()) {
  const least = KINDS[kind];
  if (least === undefined) throw new Error(`announcement kind ${kind} is none of ${Object.keys(KINDS).join(", ")}`);
  return LEVELS.indexOf(level) <= LEVELS.indexOf(least);
}

/** The two regions of a page and the last thing said (for "repeat"). */
export class Speaker {
  constructor() {
    this.polite = h("div", { class: "sr-only announcements", role: "log", "aria-live": "polite", "aria-label": t("speech.region") });
    this.urgent = h("div", { class: "sr-only announcements-urgent", role: "alert", "aria-live": "assertive", "aria-label": t("speech.urgent") });
    this.last = "";
  }

  get regions() {
    return [this.polite, this.urgent];
  }

  /** ``text`` said if its ``kind`` is told at the person's level: urgent ones in the assertive region. */
  say(text, kind = "others") {
    if (!text || !told(kind)) return;
    this.last = text;
    if (kind === "act") {
      this.urgent.textContent = ""; // the same words twice are spoken twice
      this.urgent.append(h("p", {}, text));
      return;
    }
    this.polite.append(h("p", { dataset: { kind } }, text));
    while (this.polite.childElementCount > KEPT) this.polite.firstElementChild.remove();
  }

  /** An answer to a command the person pressed: always said, at once (they asked for it). */
  answer(text) {
    const words = text || t("speech.nothing");
    this.last = words;
    this.urgent.textContent = "";
    this.urgent.append(h("p", {}, words));
  }

  repeat() {
    this.answer(this.last);
  }
}

/** The verbosity's choice, as a labelled list; ``onchange`` after it is kept. */
export function verbositySelect(id = "verbosity", onchange = () => {}) {
  const select = h("select", {
    id, name: "verbosity", onchange: () => { setVerbosity(select.value); onchange(select.value); },
  }, LEVELS.map((level) => h("option", { value: level, selected: level === verbosity() }, t(`speech.verbosity_${level}`))));
  return h("div", { class: "verbosity" },
    h("label", { for: id }, t("speech.verbosity")), " ", select,
    h("p", { class: "hint" }, t("speech.verbosity_hint")));
}

/** The next level (a key cycles through them). */
export function nextVerbosity() {
  const next = LEVELS[(LEVELS.indexOf(verbosity()) + 1) % LEVELS.length];
  setVerbosity(next);
  return next;
}
