// The table's single-key commands, in the manner of the card games blind players play (QuentinC's
// Playroom): one key reads one thing (the hand, the trick, the scores...), `?` lists them in a dialog.
// None fires while a text field, a list or a dialog has the keys.

import { h } from "./dom.js";
import { partWords, t } from "./i18n.js";
import { focusBefore, refocus } from "./table-focus.js";
import { nextVerbosity, verbositySelect } from "./speech.js";
import {
  bidWords, dogWords, handWords, lastTrickWords, scoreWords, trickWords, turnOfWords,
} from "./table-speech.js";

await partWords("table");

/** Each key, what it reads (its help's words) and how. */
const COMMANDS = [
  { keys: ["h"], help: "speech.key_hand", run: (v) => v.speaker.answer(handWords(v)) },
  { keys: ["1", "2", "3", "4", "5"], shown: ["1–5"], help: "speech.key_suit", run: (v, key) => v.speaker.answer(handWords(v, ["S", "H", "C", "D", "T"][Number(key) - 1])) },
  { keys: ["t"], help: "speech.key_trick", run: (v) => v.speaker.answer(trickWords(v)) },
  { keys: ["l"], help: "speech.key_last", run: (v) => { v.toggle("last"); v.speaker.answer(lastTrickWords(v)); } },
  { keys: ["d"], help: "speech.key_dog", run: (v) => v.speaker.answer(dogWords(v)) },
  { keys: ["s"], help: "speech.key_shown", run: (v) => v.toggle("shown") },
  { keys: ["b"], help: "speech.key_bids", run: (v) => v.speaker.answer(bidWords(v)) },
  { keys: ["p"], help: "speech.key_scores", run: (v) => v.speaker.answer(scoreWords(v)) },
  { keys: ["w"], help: "speech.key_turn", run: (v) => v.speaker.answer(turnOfWords(v)) },
  { keys: ["r"], help: "speech.key_repeat", run: (v) => v.speaker.repeat() },
  { keys: ["v"], help: "speech.key_verbosity", run: (v) => { v.speaker.answer(t("speech.verbosity_set", { level: t(`speech.verbosity_${nextVerbosity()}`) })); v.drawVoicePanel(); } },
  { keys: ["←", "→", "↑", "↓"], help: "speech.key_arrows", run: null },
  { keys: ["Escape"], help: "speech.key_escape", run: null },
  { keys: ["i"], help: "speech.key_hint", run: (v) => v.askHint() },
  { keys: ["g"], help: "speech.key_guide", run: (v) => import("./reference.js").then((m) => m.openGuide(v.app)) },
  { keys: ["?"], help: "speech.key_help", run: (v) => openHelp(v) },
];

/** Whether a key press is someone typing, or meant for a control or dialog that has the focus (an open dialog: one
 * just closed, whose focus is not given back yet, holds no keys: `?`, Escape, `g` at once opened no guide). */
function typing(e) {
  const el = e.target;
  if (!el || !el.closest) return false;
  return Boolean(el.closest("input, textarea, select, [contenteditable=''], [contenteditable=true], dialog[open]"));
}

/** A key pressed at the table: true when a command took it. */
export function onCommand(view, e) {
  if (e.ctrlKey || e.altKey || e.metaKey || typing(e) || e.defaultPrevented) return false;
  if (e.key === "ArrowUp" || e.key === "ArrowDown") return moveBySuit(view, e.key === "ArrowDown" ? 1 : -1, e);
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const command = COMMANDS.find((c) => c.run && c.keys.includes(key));
  if (!command) return false;
  e.preventDefault();
  command.run(view, key);
  return true;
}

/** The focus to the first card of the next (or previous) suit of the hand; its suit said by its name. */
function moveBySuit(view, step, e) {
  const buttons = [...view.hand.querySelectorAll("button.card")];
  if (!buttons.length) return false;
  const group = (b) => { const c = b.dataset.card; return c === "EX" || c[0] === "T" ? "T" : c.slice(-1); };
  const at = buttons.indexOf(document.activeElement);
  const groups = [...new Set(buttons.map(group))];
  const here = at < 0 ? -1 : groups.indexOf(group(buttons[at]));
  const next = groups[(here + step + groups.length) % groups.length];
  buttons.find((b) => group(b) === next).focus();
  e.preventDefault();
  return true;
}

/** The keys' list in a modal dialog, with the verbosity's choice; the focus back where it was on closing. */
export function openHelp(view) {
  const before = document.activeElement;
  const { key } = focusBefore(view); // the control again if a move drew it anew while the list was open
  const dialog = h("dialog", { class: "keys-dialog", "aria-labelledby": "keys-title", tabindex: "-1" },
    h("h2", { id: "keys-title" }, t("speech.keys")),
    h("p", {}, t("speech.keys_intro")),
    h("dl", { class: "keys-list" }, COMMANDS.map((c) => [
      h("dt", {}, (c.shown || c.keys).map((k) => h("kbd", {}, k === "Escape" ? "Esc" : k.toUpperCase()))),
      h("dd", {}, t(c.help))])),
    verbositySelect("verbosity-keys", () => view.drawVoicePanel()),
    h("form", { method: "dialog" }, h("button", { type: "submit", class: "primary" }, t("speech.close"))));
  dialog.addEventListener("close", () => { // a task after the closing: the focus may have gone on meanwhile
    dialog.remove();
    const now = document.activeElement;
    if (now && now !== document.body && now.isConnected) return; // given back by the browser, or put elsewhere since
    if (before && before.isConnected) before.focus();
    else if (key) refocus(view, key); // the table moved on meanwhile: its control drawn anew, or what comes next
  });
  document.body.append(dialog);
  dialog.showModal();
  dialog.focus(); // read from its title, not from its last control (the list of levels)
  return dialog;
}

/** The table side's panel of the screen-reader game: the verbosity's choice, and the keys' list a click away. */
export function voicePanel(view) {
  return h("details", {}, h("summary", {}, t("speech.settings")),
    verbositySelect("verbosity", () => {}),
    h("button", { type: "button", class: "quiet", onclick: () => openHelp(view) }, t("speech.keys_button")));
}

export { COMMANDS };
