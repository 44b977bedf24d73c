// One table: seats around the felt (you at the bottom), your hand, what you may do now, the clock,
// the score sheet, the chat and the log. Everything is drawn from the TableView the server sends;
// the only state kept here is what the person is choosing (an écart, a poignée) and the log.
// TableView holds it and the socket's side; each part is drawn by its own table-*.js module.

import { $, beforeNextFrame, h, replace } from "./dom.js";
import { t } from "./i18n.js";
import * as cards from "./cards.js";
import { shownName } from "./options.js";
import { renderBar, renderPaused, noticeTurn, unnotice } from "./table-bar.js";
import { onKey, renderFelt, renderOverlay } from "./table-felt.js";
import { focusAfter, focusBefore } from "./table-focus.js";
import { handSizer, renderHand } from "./table-hand.js";
import { chatForm, loadLog, onEvent, renderLog } from "./table-log.js";
import { renderActions, tick } from "./table-prompts.js";
import { renderResult, renderSide, turnInReview } from "./table-sheet.js";


// The state after an event that carries only what changed (the hello asked for patches; docs/protocol.md).
export function applyPatch(state, m) {
  const next = { ...state, ...m.patch };
  if (m.deal_patch) next.deal = { ...state.deal, ...m.deal_patch };
  return next;
}

export class TableView {
  constructor(app, id, main) {
    this.app = app;
    this.id = id;
    this.main = main;
    this.seq = null;
    this.actedAt = null; // the event an action was sent in answer to, until the table moves on or refuses it
    this.state = null;
    this.receivedAt = 0;
    this.ecart = new Set();
    this.poignee = null; // {size, n, cards: Set} while choosing a poignée
    this.log = [];
    this.overlay = null; // "last" | "shown" | null
    this.lastRecord = null;
    this.tricksSeen = 0;
    this.drawn = {}; // each part's key when last drawn (toDraw())
    this.ticker = null;
    this.built = false;
    this.keys = (e) => Boolean(this.voice && this.voice.onCommand(this, e)) || onKey(this, e); // the single-key commands first
    this.voice = null; // the screen-reader game's module (table-voice.js), once loaded
    this.unsaid = []; // what happened before it was loaded, said once it is
    this.speaker = null; // its live regions (speech.js), made with the page
    this.names = {}; // the last name known at each seat, for log lines about people who just left
    this.trickPlays = []; // the log's current trick: [name, card] as played, until a card says who won it
    this.result = null; // the last deal's result as shown: {key, game, result, record}, until the person dismisses it or its game is over
    this.dismissed = new Set(); // the results dismissed (their keys)
    this.refusedCode = null; // the table refused this person (private, no spectators): its page says so
    this.noticing = false; // the tab's title and icon say "your turn" (a hidden tab)
    this.sized = handSizer(this);
    this.visibility = () => { if (!document.hidden) unnotice(this); };
    this.arrived = Boolean(app.moved); // opened from another page of the site (not a page loaded here)
    this.resultOpened = false;
    this.beforeResult = null; // what had the focus when the result opened
  }

  // ------------------------------------------------------------------ life
  open() {
    if (!this.built || !this.main.contains(this.root)) this.build();
    const join = { type: "join", table: this.id };
    if (this.seq !== null) join.last_seq = this.seq;
    this.app.net.send(join);
  }

  close() {
    clearInterval(this.ticker);
    document.removeEventListener("keydown", this.keys);
    this.sized.disconnect();
    document.removeEventListener("visibilitychange", this.visibility);
    window.removeEventListener("scroll", this.placeTurnBar);
    unnotice(this);
  }

  /** The language changed: every word on screen again at once, the log's lines included (kept as data). */
  relabel() {
    this.build();
    if (this.refusedCode) return this.refuse(this.refusedCode);
    renderLog(this);
    this.render();
    return null;
  }

  /** The table does not admit this person: a page that says why, and the way back. */
  refuse(code) {
    this.refusedCode = code;
    replace(this.main, h("section", { class: "card-box refused", role: "alert", dataset: { refused: code } },
      h("h1", {}, t(code === "no_table" ? "refused.gone_title" : "refused.title")),
      h("p", {}, t(`refused.${code}`, { id: this.id })),
      h("p", {}, h("a", { href: "#/", class: "button" }, t("refused.back")))));
    this.built = false;
  }

  offline() {
    if (this.root) this.root.classList.add("offline");
  }

  build() {
    this.bar = h("header", { class: "table-bar" });
    this.felt = h("section", { class: "felt", "aria-label": t("table.felt") });
    this.actions = h("section", { class: "actions", "aria-label": t("table.actions"), tabindex: "-1" });
    this.hand = h("section", { class: "hand", "aria-label": t("table.hand") });
    this.sheet = h("section", { class: "panel sheet-panel", "aria-label": t("table.sheet") });
    this.drawn = {}; // new, empty parts: each drawn at the next render
    this.optionsBox = h("section", { class: "panel options-panel", "aria-label": t("table.options") });
    this.chatList = h("ol", { class: "chat-list", "aria-label": t("chat.title"), tabindex: "0" }); // spoken by the announcements
    this.logList = h("ol", { class: "log-list", "aria-label": t("log.title"), tabindex: "0" }); // scrolled from the keyboard too
    this.voicePanel = h("section", { class: "panel voice-panel" }); // filled once the voice is loaded
    this.side = h("aside", { class: "side" },
      this.optionsBox, this.sheet,
      h("section", { class: "panel chat" }, h("h2", {}, t("chat.title")), this.chatList, chatForm(this)),
      h("details", { class: "panel log", open: true }, h("summary", {}, t("log.title")), this.logList),
      this.voicePanel); // last: the play's parts keep their places
    this.overlayBox = h("div", { class: "overlay", hidden: true, role: "dialog", "aria-modal": "false" });
    this.resultBox = h("div", { class: "felt-panel result-panel", hidden: true, role: "dialog", "aria-modal": "false" });
    this.voiceBox = h("div", { class: "voice" }); // the live regions, once the voice is loaded
    this.pausedBox = h("div", { class: "paused-banner", role: "status", hidden: true }); // the table waits for its store
    this.pausedWhy = null;
    // your turn, your cards scrolled away (a phone at the chat): a bar to them
    this.turnBar = h("button", { type: "button", class: "turn-bar primary", hidden: true,
      onclick: () => { this.actions.scrollIntoView({ block: "center" }); this.actions.focus({ preventScroll: true }); } },
    t("table.turn_bar"));
    this.dockNote = h("p", { class: "dock-note", hidden: true }, h("button", { type: "button", class: "linklike", onclick: () => this.resultBox.scrollIntoView({ block: "start" }) }, t("table.result_docked")));
    this.root = h("div", { class: "table-page", dataset: { table: this.id } },
      this.bar, h("div", { class: "play-area" }, this.pausedBox, this.felt, this.actions, this.hand, this.dockNote), this.side, this.overlayBox, this.resultBox, this.voiceBox, this.turnBar);
    replace(this.main, this.root);
    this.built = true;
    clearInterval(this.ticker);
    this.ticker = setInterval(() => { tick(this); if (this.voice) this.voice.speakClock(this); }, 250);
    this.speakers();
    document.addEventListener("keydown", this.keys);
    this.sized.observe(this.hand);
    document.addEventListener("visibilitychange", this.visibility);
    window.addEventListener("scroll", this.placeTurnBar, { passive: true });
  }

  placeTurnBar = () => {
    if (!this.turnBar) return;
    const box = this.actions.getBoundingClientRect();
    const hand = this.hand.getBoundingClientRect();
    const seen = (r) => r.height > 0 && r.bottom > 0 && r.top < window.innerHeight;
    this.turnBar.hidden = !(this.isMyTurn() && !seen(box) && !seen(hand));
  };

  // ------------------------------------------------------------------ messages
  receive(m) {
    if (m.type === "table") {
      this.seq = m.seq;
      this.setState(m.state);
      if (m.log) loadLog(this, m.log);
      if (m.log && m.state.deal && !this.arrivalSaid) { // the deal under way said once on arriving, not on a reconnection
        this.arrivalSaid = true;
        const begun = m.log.findLast((item) => item.event && item.event.type === "deal_start");
        if (begun) this.say((v) => v.speakArrival(this, begun.event));
      }
      return;
    }
    if (m.patch && !this.state) {
      this.open(); // a patch with nothing to patch: ask for the whole state again (join)
      return;
    }
    if (this.seq !== null && m.seq <= this.seq && !m.state && !m.patch) return; // already seen
    this.seq = Math.max(this.seq ?? 0, m.seq);
    onEvent(this, m.event);
    const { event } = m;
    this.say((v) => v.speakEvent(this, event));
    if (m.state) this.setState(m.state);
    else if (m.patch) this.setState(applyPatch(this.state, m));
  }

  setState(state) {
    const before = this.state;
    this.state = state;
    if (state.you === null && state.status !== "closed") this.app.lookedAt = this.id; // quick play offers its seat first
    for (const seat of state.seats) if (seat.name) this.names[seat.seat] = seat.name;
    if (typeof state.seq === "number") this.seq = Math.max(this.seq ?? 0, state.seq);
    this.receivedAt = performance.now();
    this.root.classList.remove("offline");
    const deal = state.deal;
    if (!deal || !before || !before.deal || deal.phase !== before.deal.phase || state.game?.deal_number !== before.game?.deal_number) {
      this.ecart.clear();
      if (!deal || deal.phase !== "play") this.poignee = null;
    }
    if (this.automatic()) { // the robot plays for this seat: nothing being chosen stays half done
      this.ecart.clear();
      this.poignee = null;
    }
    if (deal && deal.result && state.game) {
      const key = `${state.game.id}/${state.game.sheet.length}`;
      if (!this.result || this.result.key !== key) this.result = { key, game: state.game.id, result: deal.result };
    }
    this.say((v) => v.speakState(this, before));
    const mine = this.isMyTurn();
    if (mine && !this.wasMine) {
      this.say((v) => this.speaker.say(v.turnWords(this), "act"));
      noticeTurn(this);
      document.dispatchEvent(new CustomEvent("atout:turn")); // a dialog over the table (the rules, the guide) says so
    } else if (!mine) {
      unnotice(this);
    }
    this.wasMine = mine;
    this.render();
  }

  // ------------------------------------------------------------------ the screen reader's voice
  /** The live regions in this page (made anew in the page's language, the last words kept for "repeat"),
   * the voice's module loaded first if it is not yet. */
  speakers() {
    if (!this.voice) {
      if (this.voiceLoading) return;
      this.voiceLoading = import("./table-voice.js").then((voice) => {
        this.voice = voice;
        this.speakers();
        const unsaid = this.unsaid;
        this.unsaid = [];
        for (const said of unsaid) said(voice);
        if (this.state) this.render(); // the bar's keys button
      });
      return;
    }
    const last = this.speaker ? this.speaker.last : "";
    this.speaker = new this.voice.Speaker();
    this.speaker.last = last;
    replace(this.voiceBox, this.speaker.regions);
    this.drawVoicePanel();
  }

  drawVoicePanel() {
    if (this.voice) replace(this.voicePanel, this.voice.voicePanel(this));
  }

  /** ``said(voice)`` now if the voice is loaded, else once it is (in the order things happened). */
  say(said) {
    if (this.voice && this.speaker) said(this.voice);
    else this.unsaid.push(said);
  }

  // ------------------------------------------------------------------ helpers
  get me() {
    return this.state ? this.state.you : null;
  }

  nameOf(seat) {
    if (seat === null || seat === undefined) return "?";
    const s = this.state && this.state.seats[seat]; // events may come before the state (a new table's first ones)
    return shownName(this.app.catalogue, (s && s.name) || this.names[seat]) || t("table.seat_n", { n: seat + 1 });
  }

  /** Who plays the game at a seat, for its score sheet, tricks and results: once the game is over, its own
   * players as it ended (the server's ``game.names``), never whoever sat down in their seats since. */
  playerOf(seat) {
    const g = this.state && this.state.game;
    const name = g && g.names && seat !== null && seat !== undefined ? g.names[seat] : null;
    return name ? shownName(this.app.catalogue, name) : this.nameOf(seat);
  }

  isMyTurn() {
    const d = this.state && this.state.deal;
    return Boolean(d && this.me !== null && d.to_act === this.me && d.legal && d.legal.length
      && this.actedAt !== this.seq && !this.state.paused && !this.automatic());
  }

  /** Whether the robot plays for this person's seat (the clock ran out): until they are back. */
  automatic() {
    const s = this.state;
    const seat = s && s.you !== null && s.you !== undefined ? s.seats[s.you] : null;
    return Boolean(seat && seat.automatic && s.game && !s.game.over);
  }

  legal(kind) {
    const d = this.state.deal;
    return d && d.legal ? d.legal.filter((c) => c[kind] !== undefined) : [];
  }

  secondsLeft() {
    const c = this.state && this.state.clock;
    if (!c) return null;
    return Math.max(0, c.seconds_left - (performance.now() - this.receivedAt) / 1000);
  }

  async send(message) {
    const acting = message.type === "act";
    if (acting) {
      // One action per state of the table: a second click before the answer would only be refused as stale.
      if (this.actedAt === this.seq) return null;
      this.actedAt = this.seq;
      this.wasMine = false; // the next turn of this person's is a new one, said again
      this.render();
    }
    try {
      return await this.app.net.request({ table: this.id, seq: this.seq, ...message });
    } catch (err) {
      if (acting && this.actedAt !== null) {
        this.actedAt = null;
        this.render();
      }
      this.refused(err, message);
      return null;
    }
  }

  /** A refusal, seen by the hand and said once: by the prompt's refusal line (an alert) where the prompt has
   * one, else by the toast (an alert too); never also by the announcements (issue 47: it was said three or
   * four times). */
  refused(err, message) {
    const text = err.code === "illegal" ? this.reason(err, message) : this.app.errorText(err);
    const box = this.actions.querySelector(".refusal");
    this.app.toast(text, "error", { silent: Boolean(box) });
    if (box) box.textContent = text;
  }

  /** A refusal in the person's words: the rule the engine named, with the cards as the screen shows them. */
  reason(err, message) {
    const card = message && message.action && message.action.play;
    const d = this.state.deal;
    const led = d && d.trick.map((x) => cards.parse(x.card)).find((c) => c.kind !== "excuse");
    const top = d && d.trick.map((x) => cards.parse(x.card)).filter((c) => c.kind === "trump").reduce((a, c) => Math.max(a, c.n), 0);
    const params = {
      card: card ? cards.fullName(card) : "", suit: led && led.kind === "suit" ? cards.suitWord(led.suit) : "",
      top: top ? cards.word(`T${top}`) : "", called: d && d.called ? cards.word(d.called) : "",
    };
    return t(`refusal.${err.rule}`, params, null) || err.message;
  }

  // ------------------------------------------------------------------ drawing
  render() {
    if (!this.state) return;
    const focus = focusBefore(this);
    const s = this.state;
    this.root.dataset.status = s.status;
    this.root.dataset.phase = s.deal ? s.deal.phase : "";
    this.root.dataset.seat = s.you === null ? "spectator" : String(s.you);
    this.root.dataset.players = String(s.players);
    renderBar(this);
    renderPaused(this);
    renderFelt(this);
    renderActions(this);
    renderHand(this);
    this.hintModule?.redraw(this);
    renderSide(this);
    renderOverlay(this);
    renderResult(this);
    focusAfter(this, focus);
    turnInReview(this);
    beforeNextFrame(this.placeTurnBar, this.placeTurnBar); // it reads the layout: once a frame
  }




  /** Quick play at this table: a robot's seat, from the next deal (the server picks which). */
  async claim() {
    try {
      await this.app.net.request({ type: "claim", table: this.id });
    } catch (err) {
      this.app.toast(this.app.errorText(err), "error");
    }
  }

  /** Whether what ``part`` shows (``what``) changed since it was last drawn: a part drawn again at every
   * event loses clicks that fall across a redraw, and costs the browser a layout each time. */
  toDraw(part, what) {
    const key = JSON.stringify(what);
    if (this.drawn[part] === key) return false;
    this.drawn[part] = key;
    return true;
  }

  toggle(which) {
    this.overlay = this.overlay === which ? null : which;
    this.render();
  }

  // ------------------------------------------------------------------ requests
  askHint() { // hint.js
    return import("./hint.js").then((m) => (this.hintModule = m).askHint(this));
  }

  async back() {
    await this.send({ type: "back" });
  }

  async sit(seat) {
    await this.send({ type: "sit", seat });
  }

  async addRobot(seat) {
    await this.send({ type: "robot", seat, level: this.state.options.robot_level });
  }

  async fillRobots() {
    for (const seat of this.state.seats.filter((x) => x.kind === "empty").map((x) => x.seat)) {
      const answer = await this.send({ type: "robot", seat, level: this.state.options.robot_level });
      if (!answer) break;
    }
  }

  async leave() {
    const s = this.state;
    const during = s.status === "playing" && s.game && !s.game.over;
    if (during && !window.confirm(t("table.leave_confirm"))) return;
    const answer = await this.send({ type: "leave" });
    if (answer) this.app.go("");
  }

  async proposeCancel() {
    await this.send({ type: "cancel" });
  }
}

export { $ };
