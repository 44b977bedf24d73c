// The screen-reader game in one module loaded with the first table a page opens (not with the site's first
// page, which stays under its size budget): the live regions, the events said, the single-key commands.

export { Speaker } from "./speech.js";
export { onCommand, openHelp, voicePanel } from "./table-commands.js";
export { speakArrival, speakClock, speakEvent, speakState, turnWords } from "./table-speech.js";
