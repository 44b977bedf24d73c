// One guided lesson (#/learn/ID): the felt as at a table (table-felt.js), the learner's hand, and the lesson's
// panel: the question, the verdict on the last answer with its why, what happened since, and the controls the
// question needs (choices, bids, kings to call, an écart or a poignée to choose). Every answer goes to the
// server, which replays the lesson from the right answers so far and judges it (POST /api/learn/ID): the
// engine is the referee, the page keeps only the answers. Two live regions say what a sighted learner sees
// change, once each: the verdict, what the robots did, the next question.

import { $, clear, h, replace } from "./dom.js";
import { num, partWords, t } from "./i18n.js";
import * as cards from "./cards.js";
import { contractWord } from "./result.js";
import { cardFace, renderFelt } from "./table-felt.js";
import { handSizer, layoutHand } from "./table-hand.js";
import { forget, keep, paragraphs, progress, say } from "./learn-course.js";

await partWords("learn");

const CONTRACTS = ["pass", "prise", "garde", "garde_sans", "garde_contre"];

export class LessonView {
  constructor(app, main, course, index, words) {
    this.app = app;
    this.main = main;
    this.course = course;
    this.index = index;
    this.lesson = course.lessons[index];
    this.words = words;
    this.answers = [];
    this.state = null;
    this.chosen = new Set(); // an écart's or a poignée's cards being chosen
    this.busy = false;
    this.begun = false; // the learner read the lesson's intro and began (or came back to a lesson begun)
    this.sized = handSizer(this);
    this.keys = (e) => this.onKey(e);
    this.build();
  }

  // ------------------------------------------------------------------ life
  build() {
    const id = this.lesson.id;
    this.felt = h("section", { class: "felt", "aria-label": t("table.felt") });
    this.hand = h("section", { class: "hand", "aria-label": t("table.hand") });
    this.panel = h("section", { class: "lesson-panel", "aria-label": t("learn.question") });
    this.polite = h("div", { class: "sr-only", role: "log", "aria-live": "polite" });
    this.urgent = h("div", { class: "sr-only", role: "alert", "aria-live": "assertive" });
    this.root = h("div", { class: "learn-page lesson-page", dataset: { lesson: id } },
      h("header", { class: "lesson-head" },
        h("a", { href: "#/learn", class: "back" }, "← ", t("learn.back")),
        h("h1", {}, h("span", { class: "lesson-n" }, t("learn.lesson_n", { n: this.index + 1, of: this.course.lessons.length })), " ",
          say(this.words, `${id}.title`))),
      this.panel,
      h("div", { class: "play-area" }, this.felt, this.hand),
      this.polite, this.urgent);
    replace(this.main, this.root);
    this.sized.observe(this.hand);
    document.addEventListener("keydown", this.keys);
  }

  close() {
    this.sized.disconnect();
    document.removeEventListener("keydown", this.keys);
  }

  /** The lesson where the learner left it (a run this browser or the account kept), else from its start. */
  async open() {
    const kept = progress(this.app)[this.lesson.id];
    this.answers = kept && !kept.done ? [...kept.answers] : [];
    this.begun = this.answers.length > 0;
    let state = await this.ask(null);
    if (state && state.error && this.answers.length) { // a kept run the lessons no longer replay
      forget(this.app, this.lesson.id);
      this.app.toast(t("learn.lost"), "error");
      this.answers = [];
      state = await this.ask(null);
    }
    if (!state || state.error) return;
    this.state = state;
    this.render();
    const title = `${t("learn.lesson_n", { n: this.index + 1, of: this.course.lessons.length })}: ${say(this.words, `${this.lesson.id}.title`)}`;
    this.speak(this.begun ? `${title}. ${this.question()}` : title);
    this.focusAfter();
  }

  /** The intro read: the first question, said. */
  begin() {
    this.begun = true;
    this.renderPanel();
    this.speak(this.question());
    this.focusAfter();
  }

  /** POST the answers so far and ``attempt``: the lesson's state, or ``{error}`` (said as a toast). */
  async ask(attempt) {
    try {
      const answer = await fetch(`/api/learn/${encodeURIComponent(this.lesson.id)}`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ answers: this.answers, attempt }),
      });
      const body = await answer.json();
      if (!answer.ok) {
        if (body.error && body.error.code !== "not_the_lesson") this.app.toast(this.app.errorText(body.error), "error");
        return { error: body.error || { code: String(answer.status) } };
      }
      return body;
    } catch (err) {
      this.app.toast(t("learn.failed", { why: String(err.message || err) }), "error");
      return null;
    }
  }

  /** The learner's answer: judged by the server; right, the lesson moves on and what happened is said. */
  async attempt(answer) {
    if (this.busy || !this.state || this.state.done) return;
    this.busy = true;
    this.root.classList.add("busy");
    const state = await this.ask(answer);
    this.busy = false;
    this.root.classList.remove("busy");
    if (!state || state.error) return;
    const verdict = state.verdict;
    if (verdict && verdict.right) {
      this.answers.push(answer);
      this.chosen.clear();
      keep(this.app, this.lesson.id, this.answers, state.done);
      this.state = state;
      this.render();
      const told = [say(this.words, verdict.key, verdict.args), ...this.events(state.events)]; // its words say it is right
      told.push(state.done ? `${t("learn.finished")}. ${say(this.words, `${this.lesson.id}.end`)}` : this.question());
      told.forEach((line) => this.speak(line));
      this.focusAfter();
    } else if (verdict) {
      this.state = { ...this.state, verdict };
      this.renderPanel();
      this.showVerdict();
      this.urgent.textContent = ""; // the same words twice are said twice
      this.urgent.append(h("p", {}, `${t("learn.wrong")} ${say(this.words, verdict.key, verdict.args)} ${t("learn.try_again")}`));
    }
  }

  speak(text) {
    this.polite.append(h("p", {}, text));
    while (this.polite.childElementCount > 30) this.polite.firstElementChild.remove();
  }

  /** The question asked now, in words (its placeholders filled). */
  question() {
    const ask = this.state && this.state.ask;
    return ask ? say(this.words, ask.key, ask.args) : "";
  }

  /** What happened since the last right answer, a sentence each (the learner's own move in the second person). */
  events(events) {
    const name = (seat) => this.nameOf(seat);
    return events.map((e) => {
      const you = e.seat === 0;
      if (e.won !== undefined) return you ? t("learn.you_win", { n: e.won }) : t("learn.trick_to", { name: name(e.seat), n: e.won });
      if (e.play) return you ? t("learn.you_play", { card: cards.word(e.play) }) : t("log.play", { name: name(e.seat), card: cards.word(e.play) });
      if (e.bid) {
        if (e.bid === "pass") return you ? t("learn.you_pass") : t("log.pass", { name: name(e.seat) });
        return you ? t("learn.you_bid", { contract: contractWord(e.bid) }) : t("log.bid", { name: name(e.seat), contract: contractWord(e.bid) });
      }
      if (e.call) return you ? t("learn.you_call", { card: cards.word(e.call) }) : t("log.call", { name: name(e.seat), card: cards.word(e.call) });
      if (e.discard) return t("learn.you_ecart", { cards: e.discard.map(cards.word).join(", ") });
      if (e.ecart) return e.trumps.length ? t("log.ecart_trumps", { name: name(e.seat), cards: e.trumps.map(cards.word).join(", ") }) : t("log.ecart", { name: name(e.seat) });
      if (e.chelem !== undefined) return you ? t(e.chelem ? "learn.you_chelem" : "learn.you_no_chelem") : t(e.chelem ? "log.chelem_yes" : "log.chelem_no", { name: name(e.seat) });
      if (e.poignee) {
        const shown = e.poignee.map(cards.word).join(", ");
        return you ? t("learn.you_poignee", { cards: shown }) : t("log.poignee", { name: name(e.seat), cards: shown });
      }
      return "";
    }).filter(Boolean);
  }

  // ------------------------------------------------------------------ what renderFelt reads, as a table's view
  get me() {
    return 0;
  }

  nameOf(seat) {
    if (seat === 0) return this.app.me ? this.app.me.name : t("learn.learner");
    return this.state.names[seat - 1];
  }

  feltView() {
    const s = this.state;
    const seats = Array.from({ length: s.players }, (_, seat) => ({
      seat, kind: seat ? "robot" : "person", name: this.nameOf(seat), level: "club", present: true, connected: true,
    }));
    return { state: { players: s.players, seats, deal: s.deal, game: {}, status: "playing", you: 0, master: null },
      felt: this.felt, app: this.app, me: 0, nameOf: (seat) => this.nameOf(seat), playerOf: (seat) => this.nameOf(seat) };
  }

  // ------------------------------------------------------------------ drawing
  render() {
    const s = this.state;
    this.root.dataset.step = String(s.step);
    this.root.dataset.done = String(s.done);
    this.root.dataset.kind = s.ask ? s.ask.kind : "";
    renderFelt(this.feltView());
    this.renderHand();
    this.renderPanel();
  }

  /** The hand: every card a button (a lesson lets you try a card the rules refuse: it says why), chosen
   * cards pressed while an écart or a poignée is chosen. */
  renderHand() {
    const d = this.state.deal;
    const ask = this.state.ask;
    const choosing = ask && (ask.kind === "ecart" || ask.kind === "poignee");
    clear(this.hand);
    const hand = cards.sortHand(d.hand);
    const row = h("div", { class: "hand-cards", role: "group", "aria-label": t("table.hand_n", { n: hand.length }) });
    for (const code of hand) {
      const chosen = choosing && this.chosen.has(code);
      const label = cards.fullName(code) + (chosen ? `, ${t("card.selected")}` : "");
      row.append(h("button", {
        type: "button", class: `card in-hand${chosen ? " selected" : ""}${cards.isTrump(code) || code === "EX" ? " trump" : ""}`,
        dataset: { card: code }, "aria-pressed": choosing ? String(chosen) : null, disabled: !ask || this.state.done ? true : null,
        onclick: () => this.cardClicked(code),
      }, cards.face(code), h("span", { class: "sr-only" }, label)));
    }
    this.hand.append(row);
    layoutHand(this);
  }

  cardClicked(code) {
    const ask = this.state.ask;
    if (!ask || this.busy) return;
    if (!this.begun) this.begin(); // a card clicked before the start button: the lesson begins
    if (ask.kind === "pick" || ask.kind === "play") {
      this.attempt({ card: code });
      return;
    }
    if (ask.kind === "ecart" || ask.kind === "poignee") {
      const refused = ask.kind === "ecart" && !this.chosen.has(code) && this.refusedForEcart(code);
      if (refused) { // a king, a bout, a trump: refused as it is chosen, in the engine's words (as at a table)
        this.state = { ...this.state, verdict: { right: false, key: `rule.ecart.${refused}`, args: { cards: [code] } } };
        this.renderPanel();
        this.showVerdict();
        this.urgent.textContent = "";
        this.urgent.append(h("p", {}, `${t("learn.wrong")} ${say(this.words, this.state.verdict.key, this.state.verdict.args)} ${t("learn.try_again")}`));
        return;
      }
      if (this.chosen.has(code)) this.chosen.delete(code);
      else this.chosen.add(code);
      this.renderHand();
      this.renderPanel();
      $(`.hand-cards button[data-card="${code}"]`, this.hand)?.focus();
      return;
    }
    this.urgent.textContent = "";
    this.urgent.append(h("p", {}, this.question()));
  }

  /** Why ``code`` may never go to this écart (the engine's reason, which the server sends with the taker's
   * choice: `engine/ecart.py`), or null. */
  refusedForEcart(code) {
    const choice = (this.state.deal.legal || []).find((c) => c.discard_from !== undefined);
    return (choice && choice.refused && choice.refused[code]) || null;
  }

  /** The panel: the steps, the verdict on the last answer and what happened, the question and its controls. */
  renderPanel() {
    const s = this.state;
    const id = this.lesson.id;
    const intro = paragraphs(say(this.words, `${id}.intro`));
    if (!this.begun) {
      replace(this.panel, h("div", { class: "lesson-intro" }, intro),
        h("div", { class: "row" }, h("button", { type: "button", class: "primary big", dataset: { begin: "" }, onclick: () => this.begin() },
          t(this.answers.length ? "learn.continue" : "learn.start"))));
      return;
    }
    const parts = [this.stepsList()];
    const v = s.verdict;
    if (v) {
      parts.push(h("div", { class: `verdict ${v.right ? "right" : "wrong"}`, dataset: { verdict: v.right ? "right" : "wrong" } },
        v.right ? h("span", { class: "mark", "aria-hidden": "true" }, "✓") : h("strong", {}, `✗ ${t("learn.wrong")}`), " ", say(this.words, v.key, v.args),
        v.right ? "" : ` ${t("learn.try_again")}`));
    }
    const happened = v && !v.right ? [] : this.events(s.events);
    if (happened.length) {
      parts.push(h("details", { class: "happened", open: happened.length <= 6 },
        h("summary", {}, t("learn.happened")), h("ul", {}, happened.map((line) => h("li", {}, line)))));
    }
    if (s.done) {
      const next = this.course.lessons[this.index + 1];
      parts.push(h("div", { class: "lesson-end" },
        h("h2", {}, t("learn.finished")), paragraphs(say(this.words, `${id}.end`)),
        h("div", { class: "row" },
          next ? h("a", { class: "button primary", href: `#/learn/${next.id}`, dataset: { next: next.id } }, t("learn.next"))
            : h("a", { class: "button primary", href: "#/" }, t("learn.play")),
          h("button", { type: "button", class: "quiet", onclick: () => this.again() }, t("learn.again")),
          h("a", { class: "button quiet", href: "#/learn" }, t("learn.back")))));
    } else if (s.ask) {
      parts.push(h("h2", { class: "ask", dataset: { key: s.ask.key } }, this.question()), this.controls());
    }
    parts.push(h("details", { class: "lesson-about" }, h("summary", {}, t("learn.about")), intro));
    replace(this.panel, parts);
  }

  stepsList() {
    const s = this.state;
    const items = Array.from({ length: s.steps }, (_, i) => {
      const state = i < s.step ? "done" : i === s.step && !s.done ? "now" : "later";
      return h("li", { class: state, "aria-current": state === "now" ? "step" : null },
        h("span", { class: "sr-only" }, t(`learn.step_${state}`, { n: i + 1 })));
    });
    return h("div", { class: "steps" },
      h("span", {}, s.done ? t("learn.finished") : t("learn.step_n", { n: s.step + 1, of: s.steps })),
      h("ol", { "aria-label": t("learn.steps") }, items));
  }

  /** The buttons a question needs (a card question needs none: the hand is its control). */
  controls() {
    const ask = this.state.ask;
    const d = this.state.deal;
    const legal = (kind) => (d.legal || []).filter((c) => c[kind] !== undefined);
    if (ask.kind === "choose") {
      return h("div", { class: "row choices", role: "group", "aria-label": this.question() },
        ask.options.map((o) => h("button", { type: "button", dataset: { choice: o.value }, onclick: () => this.attempt({ choice: o.value }) },
          o.key ? say(this.words, o.key) : num(Number(o.value)))));
    }
    if (ask.kind === "bid") {
      return h("div", { class: "row bids", role: "group", "aria-label": t("bid.title") },
        CONTRACTS.map((c) => h("button", { type: "button", class: c === "pass" ? "quiet" : "", dataset: { bid: c }, onclick: () => this.attempt({ bid: c }) }, contractWord(c))));
    }
    if (ask.kind === "call") {
      return h("div", { class: "row calls", role: "group", "aria-label": t("call.title") },
        legal("call").map((c) => h("button", { type: "button", class: "card-button", dataset: { call: c.call }, "aria-label": t("call.label", { card: cards.fullName(c.call) }), onclick: () => this.attempt({ card: c.call }) },
          cardFace(c.call, "small", true))));
    }
    if (ask.kind === "ecart") {
      const n = (legal("discard_from")[0] || { count: 0 }).count;
      return h("div", { class: "row" },
        h("span", { class: "chosen", role: "status" }, t("learn.chosen", { k: this.chosen.size, n })),
        h("button", { type: "button", class: "primary", dataset: { confirm: "ecart" }, onclick: () => this.attempt({ cards: [...this.chosen] }) }, t("learn.lay")),
        this.chosen.size ? h("button", { type: "button", class: "quiet", onclick: () => { this.chosen.clear(); this.render(); } }, t("learn.clear")) : "");
    }
    if (ask.kind === "poignee") {
      const offer = legal("poignee_from")[0];
      const n = offer ? Math.min(...Object.values(offer.sizes)) : 0;
      return h("div", { class: "row" },
        h("span", { class: "chosen", role: "status" }, t("learn.chosen", { k: this.chosen.size, n })),
        h("button", { type: "button", class: "primary", dataset: { confirm: "poignee" }, disabled: !this.chosen.size, onclick: () => this.attempt({ cards: [...this.chosen] }) }, t("learn.show")),
        h("button", { type: "button", class: "quiet", dataset: { confirm: "none" }, onclick: () => this.attempt({ cards: [] }) }, t("learn.no_poignee")));
    }
    return h("p", { class: "hint" }, t("learn.click_card"));
  }

  /** After a right answer the focus stays on something to act with: the first choice or card, else the end's button. */
  focusAfter() {
    const target = this.panel.querySelector("[data-begin], .lesson-end .button, .choices button, .bids button, .calls button")
      || this.hand.querySelector("button.card:not([disabled])");
    if (target) target.focus({ preventScroll: true }); // the verdict stays in sight (a phone scrolls to it)
    this.showVerdict();
  }

  /** The verdict scrolled into sight when it is not (a phone's hand is below the fold, its verdict above). */
  showVerdict() {
    const box = this.panel.querySelector(".verdict, .lesson-end, .ask");
    if (!box) return;
    const r = box.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) {
      box.scrollIntoView({ block: "start", behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
    }
  }

  /** The lesson from its start again (a finished lesson stays finished). */
  async again() {
    this.begun = true;
    this.answers = [];
    this.chosen.clear();
    const state = await this.ask(null);
    if (!state || state.error) return;
    this.state = state;
    this.render();
    this.speak(this.question());
    this.focusAfter();
  }

  /** The arrows walk the hand, as at a table. */
  onKey(e) {
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    const buttons = [...this.hand.querySelectorAll("button.card:not([disabled])")];
    const at = buttons.indexOf(document.activeElement);
    if (!buttons.length || at < 0) return;
    buttons[(at + (e.key === "ArrowRight" ? 1 : -1) + buttons.length) % buttons.length].focus();
    e.preventDefault();
  }
}
