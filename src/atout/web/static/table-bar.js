// The table's bar (facts, stakes, buttons, the bell), the store's pause banner, and your turn told in a hidden tab.

import { clear, h, morph, replace } from "./dom.js";
import { t } from "./i18n.js";
import * as cards from "./cards.js";
import { contractWord } from "./result.js";
import { copyButton } from "./review.js";
import { rankingRoute } from "./table-prompts.js";

// Your turn in a tab you are not looking at: the tab's icon gets a red dot, and a short tone plays (made
// with WebAudio: nothing to download), unless the bar's bell was turned off (remembered in localStorage).
const ICON_TURN = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ctext y='14' font-size='14'%3E%E2%99%A3%3C/text%3E%3Ccircle cx='12' cy='4' r='4' fill='%23d32f2f'/%3E%3C/svg%3E";
let iconAtRest = null;

function setIcon(turn) {
  const link = document.querySelector("link[rel=icon]");
  if (!link) return;
  if (iconAtRest === null) iconAtRest = link.getAttribute("href");
  link.setAttribute("href", turn ? ICON_TURN : iconAtRest);
  document.documentElement.dataset.turn = turn ? "yes" : "";
}

export function soundOn() {
  return localStorage.getItem("atout.sound") !== "off";
}

let audio = null;
export function chime() {
  beep();
}

function beep() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    audio = audio || new Context();
    const now = audio.currentTime;
    const gain = audio.createGain();
    gain.connect(audio.destination);
    [[660, 0], [880, 0.16]].forEach(([hz, at]) => {
      const tone = audio.createOscillator();
      tone.frequency.value = hz;
      tone.connect(gain);
      tone.start(now + at);
      tone.stop(now + at + 0.14);
    });
    gain.gain.setValueAtTime(0.15, now);
    gain.gain.linearRampToValueAtTime(0, now + 0.32);
    window.atout.beeps = (window.atout.beeps || 0) + 1; // what the browser tests count
  } catch (err) {
    void err; // no sound here: the title and icon say it
  }
}


/** The bar: back to the lobby, the table's name, the deal's facts, the stakes, its tags, and its buttons. */
export function renderBar(view) {
  const s = view.state;
  const d = s.deal;
  const g = s.game;
  const facts = [];
  if (g && !g.over) facts.push(t("table.deal_of", { n: g.deal_number, of: g.deals }));
  if (d && d.contract && d.phase !== "bidding") { // bidding: each seat's bubble says its bid, and the bar keeps its rows
    facts.push(t("table.contract_by", { contract: contractWord(d.contract), name: view.playerOf(d.taker) }));
    if (d.called) facts.push(t("table.called", { card: cards.word(d.called) }));
  }
  const seated = s.you !== null;
  const playing = s.status === "playing" && g && !g.over;
  const stakes = [];
  if (s.options && s.options.bet) stakes.push(t("table.bet", { n: s.options.bet }));
  if (g && (g.pot || (s.options && s.options.bet))) stakes.push(t("table.pot", { n: g.pot || 0 }));
  morph(view.bar, h("div", { class: "bar-title" }, // the title's part wraps within itself: the buttons keep their row
    h("a", { href: "#/", class: "back", "aria-label": t("table.to_lobby") }, "←"),
    h("h1", {}, t("lobby.table", { id: s.id })),
    h("span", { class: "facts" }, facts.join(" · ")),
    stakes.length ? h("span", { class: "stakes" }, stakes.join(" · ")) : "",
    s.daily ? h("a", { class: "tag daily-tag", href: `#/${rankingRoute(view)}` }, t(s.daily.tournament ? "table.tournament_tag" : "table.daily_tag"))
      : g && g.unranked ? h("span", { class: "tag warn unranked", dataset: { unranked: g.unranked } }, t(`table.unranked.${g.unranked}`, {}, t("table.unranked"))) : "",
    s.you === null ? h("span", { class: "tag" }, t("table.spectator")) : "",
    s.commitment ? commitmentButton(view, s.commitment) : ""), h("div", { class: "bar-buttons" },
    // from the play's start: the row does not grow above the hand at the first trick's end
    d && (d.last_trick || d.phase === "play") ? h("button", { class: "quiet", disabled: !d.last_trick, onclick: () => view.toggle("last"), "aria-keyshortcuts": "L" }, t("table.last_trick")) : "",
    d ? h("button", { class: "quiet", onclick: () => view.toggle("shown"), "aria-keyshortcuts": "S" }, t("table.shown")) : "",
    s.options?.competitive === false && !s.daily && seated && d && playing ? h("button", { class: "quiet hint-button", onclick: () => view.askHint(), "aria-keyshortcuts": "I" }, t("table.hint")) : "",
    h("button", { class: "quiet guide", onclick: () => import("./reference.js").then((m) => m.openGuide(view.app)), "aria-keyshortcuts": "G", "aria-haspopup": "dialog" }, t("table.guide")),
    view.voice ? h("button", { class: "quiet keys", onclick: () => view.voice.openHelp(view), "aria-keyshortcuts": "?", dataset: { keys: "" } }, t("speech.keys_button")) : "",
    playing && seated && !s.vote ? cancelButton(view) : "",
    seated ? h("button", {
      class: "quiet sound", "aria-pressed": String(soundOn()), "aria-label": t("table.sound"),
      title: `${t("table.sound")}: ${t(soundOn() ? "table.sound_on" : "table.sound_off")}`,
      onclick: () => { localStorage.setItem("atout.sound", soundOn() ? "off" : "on"); view.render(); },
    }, "♪") : "",
    seated ? h("button", { class: "quiet", onclick: () => view.leave() }, t("table.leave")) : ""));
}

/** The deal's whole commitment, one click to copy (for `atout verify --commitment`), its start shown (the bar's
 * morph keeps the button drawn before while the hash is the same). */
function commitmentButton(view, hash) {
  const button = copyButton(hash, t("table.commitment", { short: hash.slice(0, 8) }), view.app.toast);
  button.classList.add("commitment");
  button.title = t("table.commitment_copy", { hash }); // said after its name, which is its visible words (axe)
  return button;
}

/** The banner of a table that waits for its store (spoken once, when it changes). */
export function renderPaused(view) {
  const why = view.state.paused || null;
  if (why === view.pausedWhy) return; // a live region speaks when its text changes, not on every render
  view.pausedWhy = why;
  if (why) replace(view.pausedBox, h("strong", {}, t("table.paused")), " ", h("span", { class: "why" }, why));
  else clear(view.pausedBox);
  view.pausedBox.hidden = !why;
  view.root.classList.toggle("paused", Boolean(why));
}

/** It became this person's turn: a tab they are not looking at says so in its title and icon, and a
 * short sound plays (the bar's bell turns it off; remembered). */
export function noticeTurn(view) {
  if (!document.hidden) return;
  view.noticing = true;
  document.title = t("table.turn_title");
  setIcon(true);
  if (soundOn()) beep();
}

/** The tab is looked at again (or the turn passed): its title and icon as they were. */
export function unnotice(view) {
  if (!view.noticing) return;
  view.noticing = false;
  document.title = t("welcome.title");
  setIcon(false);
}

/** "Propose to cancel", offered only when another person is present to agree (robots do not vote):
 *  alone with robots it says why not, and that leaving is an abandonment (the server refuses it too). */
function cancelButton(view) {
  const s = view.state;
  const others = s.you !== null && s.you !== undefined && s.seats.some((x, i) => i !== s.you && x.kind === "person"
    && x.present && x.connected && !x.automatic && !x.abandoned);
  if (others) return h("button", { class: "quiet", onclick: () => view.proposeCancel() }, t("table.cancel"));
  return h("button", {
    class: "quiet", "aria-disabled": "true", title: t("table.cancel_alone"), dataset: { cancel: "alone" },
    onclick: () => view.app.toast(t("table.cancel_alone")),
  }, t("table.cancel"));
}
