// A finished deal replayed trick by trick: every hand (the deal is over, so nothing is hidden any
// more), the dog and the écart, the auction, who played what in each trick and who won it, the result,
// and the fair shuffle's commitment, one click to copy, with the deal to download for `atout verify`.
// Everything comes from the server's review of the record (server/review.py): no rule is repeated here.
//
// The hook for an analysis: `ReviewView.setMarks(decisions)` takes decisions of the review (each by
// its `index` in the record's actions) that carry a `mark`, and `renderMarks` shows each beside that
// decision wherever the review shows it ("better: K♥ (+12)"), and lists them.
// The analysis itself: on a stored deal's page, the person who played it asks for the analysis of their
// seat (analysis.js: POST /api/analysis, its progress shown), and `setAnalysis` puts each decision's mark
// and "better: X (+N)" beside the entry of the same action (`data-action-index`: its place in the record).

import { h, replace, withCode } from "./dom.js";
import { t } from "./i18n.js";
import * as cards from "./cards.js";
import { shownName } from "./options.js";
import { contractWord, resultBlock, signed } from "./result.js";

/** A button that copies `text` (a commitment: 64 hex digits) in one click, and says it did. */
export function copyButton(text, label, toast) {
  const button = h("button", {
    type: "button", class: "quiet copy", title: text, dataset: { copy: text }, onclick: async () => {
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        const area = h("textarea", { readonly: true, class: "sr-only" }, text); // no clipboard API: the old way
        document.body.append(area);
        area.select();
        document.execCommand("copy");
        area.remove();
      }
      if (toast) toast(t("review.copied"));
    },
  }, label);
  return button;
}

/** What `atout verify FILE` checks alone: the commitment published when the deal began, the seed, the record. */
export function downloadLink(data, label = t("review.download")) {
  const body = JSON.stringify({ commitment: data.commitment, seed: data.seed, record: data.record }, null, 1);
  return h("a", {
    class: "download", download: `atout-${data.game}-deal-${data.deal}.json`,
    href: URL.createObjectURL(new Blob([body], { type: "application/json" })),
  }, label);
}

function chip(code) {
  const c = cards.parse(code);
  const colour = c.kind === "suit" ? (c.suit === "H" || c.suit === "D" ? "red" : "black") : c.kind;
  return h("span", { class: `chip ${colour}${c.kind === "suit" ? ` suit-${c.suit}` : ""}`, dataset: { card: code }, title: cards.fullName(code), "aria-label": cards.fullName(code) },
    cards.short(code));
}

function cardFace(code, extra = "") {
  return h("span", { class: `card small ${extra}`, dataset: { card: code }, title: cards.fullName(code), "aria-label": cards.fullName(code) },
    cards.face(code));
}

/** Marks on decisions (the analysis hook): each decision `{index, seat, ..., mark: {better, gain, note?}}`
 * is marked beside every element of `root` that shows it (`data-index`), and listed in `list`. */
export function renderMarks(root, decisions, nameOf, list = null) {
  for (const old of root.querySelectorAll(".mark")) old.remove();
  const marked = (decisions || []).filter((d) => d && d.mark);
  for (const d of marked) {
    const text = markText(d.mark);
    for (const el of root.querySelectorAll(`[data-index="${d.index}"]`)) {
      el.classList.add("marked");
      el.append(h("span", { class: "mark", title: d.mark.note || text }, text));
    }
  }
  if (list) {
    replace(list, marked.length ? h("ol", { class: "marks" }, marked.map((d) => h("li", { dataset: { index: d.index } },
      h("strong", {}, nameOf(d.seat)), " ", decisionWords(d), " — ", markText(d.mark), d.mark.note ? ` (${d.mark.note})` : ""))) : "");
    list.hidden = !marked.length;
  }
}

function markText(mark) {
  const better = mark.better === undefined ? "" : betterWords(mark.better);
  const gain = typeof mark.gain === "number" ? ` (${signed(mark.gain)})` : "";
  return t("review.better", { what: better }) + gain;
}

function betterWords(better) {
  if (typeof better === "string" && /^(T\d+|EX|(\d+|[JNQK])[SHDC])$/.test(better)) return cards.word(better);
  if (typeof better === "string") return contractWord(better);
  return String(better);
}

function decisionWords(d) {
  if (d.play !== undefined) return cards.word(d.play);
  if (d.bid !== undefined) return contractWord(d.bid);
  if (d.call !== undefined) return cards.word(d.call);
  if (d.discard !== undefined) return d.discard.map(cards.word).join(" ");
  if (d.poignee !== undefined) return t("review.poignee");
  if (d.chelem !== undefined) return "chelem";
  return "";
}

/** The review of one finished deal: `data` is what the server tells of it (`review` at a table, or
 * GET /api/games/ID/deals/N): {game, deal, deals, names, commitment, seed, record, review}. */
export class ReviewView {
  constructor(app, data, { go = null } = {}) {
    this.app = app;
    this.data = data;
    this.r = data.review;
    this.go = go; // (n) => show deal n of the same game, or null
    this.marks = [];
    const r = this.r;
    this.steps = r.tricks.length ? r.tricks.length + 2 : 2; // the deal, each trick, the result
    this.step = 0;
    this.root = h("section", { class: "review-page", dataset: { game: data.game, deal: String(data.deal) }, "aria-labelledby": "review-title" });
    this.keys = (e) => this.onKey(e);
    this.build();
  }

  nameOf(seat) {
    return shownName(this.app.catalogue, this.data.names && this.data.names[seat]) || t("table.seat_n", { n: seat + 1 });
  }

  build() {
    const d = this.data;
    const r = this.r;
    const res = r.result;
    const n = d.number ?? d.deal; // "deal k of n" as the game numbered it (a void deal: the number it was dealt again under)
    const title = res.void ? t("review.title_void", { n }) : t("review.title", { n, of: d.of ?? d.deals });
    const contract = res.void ? t(`result.void.${res.void}`, {}, res.void)
      : t("review.took", { name: this.nameOf(r.taker), contract: contractWord(res.contract) })
        + (r.called ? ` · ${t("table.called", { card: cards.word(r.called) })}` : "")
        + (res.partner !== null && res.partner !== r.taker && r.called ? ` · ${t("result.with_partner", { name: this.nameOf(res.partner) })}` : "");
    const auction = r.decisions.filter((x) => x.bid !== undefined).map((x) => h("li", { dataset: { index: x.index, actionIndex: x.index } },
      h("strong", {}, this.nameOf(x.seat)), " ", contractWord(x.bid), x.chelem ? " + chelem" : ""));
    this.stepTitle = h("h2", { class: "step-title", "aria-live": "polite" });
    this.board = h("div", { class: "review-board" });
    this.marksList = h("section", { class: "analysis", hidden: true, "aria-label": t("review.analysis") });
    const nav = h("div", { class: "row step-nav", role: "group", "aria-label": t("review.steps") },
      h("button", { type: "button", class: "quiet", "data-step": "first", "aria-label": t("review.first"), onclick: () => this.show(0) }, "«"),
      h("button", { type: "button", "data-step": "prev", "aria-label": t("review.prev"), onclick: () => this.show(this.step - 1) }, "◀"),
      this.counter = h("span", { class: "counter" }),
      h("button", { type: "button", "data-step": "next", "aria-label": t("review.next"), onclick: () => this.show(this.step + 1) }, "▶"),
      h("button", { type: "button", class: "quiet", "data-step": "last", "aria-label": t("review.last"), onclick: () => this.show(this.steps - 1) }, "»"));
    const deals = this.go && d.deals > 1 ? h("div", { class: "row deal-nav" },
      h("button", { type: "button", class: "quiet", disabled: d.deal <= 1, onclick: () => this.go(d.deal - 1) }, t("review.prev_deal")),
      h("button", { type: "button", class: "quiet", disabled: d.deal >= d.deals, onclick: () => this.go(d.deal + 1) }, t("review.next_deal"))) : "";
    const fair = h("section", { class: "fair" },
      h("h2", {}, t("review.fair")),
      d.commitment
        ? h("p", {}, t("review.commitment"), " ", h("code", { class: "commitment-full" }, d.commitment), " ",
          copyButton(d.commitment, t("review.copy"), this.app.toast))
        : h("p", { class: "hint" }, t("review.no_commitment")),
      d.seed ? h("p", {}, t("review.seed"), " ", h("code", {}, d.seed)) : "",
      h("p", {}, downloadLink(d), " ", h("span", { class: "hint" }, withCode(t("review.verify_hint")))));
    replace(this.root,
      h("header", { class: "review-head" }, h("h1", { id: "review-title" }, title), deals),
      h("p", { class: "contract" }, contract),
      auction.length ? h("details", { class: "auction" }, h("summary", {}, t("review.auction")), h("ol", {}, auction)) : "",
      nav, this.stepTitle, this.board, this.marksList, fair);
    this.show(0);
  }

  /** The cards each seat holds at the start of trick `k` (1-based); 0: as dealt. */
  handsAt(k) {
    const r = this.r;
    const hands = r.hands.map((hand) => new Set(hand));
    if (k === 0) return hands;
    if (r.ecart && r.taker !== null) { // the taker took the dog and laid the écart aside
      for (const c of r.dog) hands[r.taker].add(c);
      for (const c of r.ecart) hands[r.taker].delete(c);
    }
    for (const trick of r.tricks.slice(0, k - 1)) for (const p of trick.plays) hands[p.seat].delete(p.card);
    return hands;
  }

  show(step) {
    const r = this.r;
    this.step = Math.max(0, Math.min(this.steps - 1, step));
    const last = this.step === this.steps - 1;
    const k = last ? 0 : this.step; // 0: the deal as dealt; k: trick k
    this.counter.textContent = t("review.step", { n: this.step + 1, of: this.steps });
    for (const b of this.root.querySelectorAll(".step-nav button")) {
      const back = b.dataset.step === "first" || b.dataset.step === "prev";
      b.disabled = back ? this.step === 0 : last;
    }
    if (last) {
      this.stepTitle.textContent = t("review.result");
      replace(this.board, resultBlock(r.result, (x) => this.nameOf(x), r.players, this.app.catalogue, false));
    } else if (k === 0) {
      this.stepTitle.textContent = t("review.dealt");
      replace(this.board, this.handsBlock(this.handsAt(0), null), this.asideBlock());
    } else {
      const trick = r.tricks[k - 1];
      this.stepTitle.textContent = t("review.trick", { n: k, of: r.tricks.length });
      replace(this.board, this.trickBlock(trick), this.handsBlock(this.handsAt(k), trick), k === 1 ? this.asideBlock() : "");
    }
    renderMarks(this.root, this.marks, (x) => this.nameOf(x), this.marksList);
    if (this.analysis && this.analysisModule) this.analysisModule.annotateReview(this.root, this.analysis);
  }

  trickBlock(trick) {
    return h("div", { class: "review-trick", dataset: { trick: String(trick.number) } },
      h("ol", { class: "plays" }, trick.plays.map((p) => h("li", {
        class: p.seat === trick.winner ? "winner" : "", dataset: { seat: String(p.seat), index: String(p.index), actionIndex: String(p.index) },
      }, cardFace(p.card), h("span", { class: "who" }, this.nameOf(p.seat)),
      p.seat === trick.leader ? h("span", { class: "tag" }, t("review.led")) : "",
      p.seat === trick.winner ? h("span", { class: "tag win" }, t("review.won")) : ""))));
  }

  handsBlock(hands, trick) {
    const r = this.r;
    const playedBy = new Map(trick ? trick.plays.map((p) => [p.seat, p]) : []);
    const order = r.seats.concat([...Array(r.players).keys()].filter((s) => !r.seats.includes(s)));
    return h("ul", { class: "review-hands" }, order.map((seat) => {
      const tags = [];
      if (seat === r.dealer) tags.push(t("seat.dealer"));
      if (seat === r.taker) tags.push(t("review.taker"));
      if (r.result.partner !== null && seat === r.result.partner && seat !== r.taker) tags.push(t("seat.partner"));
      const play = playedBy.get(seat);
      return h("li", { dataset: { seat: String(seat) } },
        h("span", { class: "who" }, this.nameOf(seat), tags.length ? h("span", { class: "tag" }, tags.join(", ")) : ""),
        h("span", { class: "chips" }, cards.sortHand([...hands[seat]]).map((c) => {
          const el = chip(c);
          if (play && play.card === c) {
            el.classList.add("played");
            el.dataset.index = String(play.index);
          }
          return el;
        })));
    }));
  }

  asideBlock() {
    const r = this.r;
    const parts = [h("div", {}, h("strong", {}, t("table.dog")), " ", h("span", { class: "chips" }, cards.sortHand(r.dog).map(chip)))];
    if (r.ecart) parts.push(h("div", {}, h("strong", {}, t("review.ecart", { name: this.nameOf(r.taker) })), " ",
      h("span", { class: "chips" }, cards.sortHand(r.ecart).map(chip))));
    for (const p of r.poignees) parts.push(h("div", {}, h("strong", {}, t("table.poignee_of", { name: this.nameOf(p.seat), size: t(`poignee.${p.size}`) })), " ",
      h("span", { class: "chips" }, p.cards.map(chip))));
    return h("div", { class: "aside" }, parts);
  }

  /** The analysis hook: decisions with their marks (see renderMarks), shown at once and at every step. */
  setMarks(decisions) {
    this.marks = decisions || [];
    renderMarks(this.root, this.marks, (x) => this.nameOf(x), this.marksList);
  }

  /** The analysis of one's seat (the server's `analysis` object): its marks beside the entries of the
   * same actions, at this step and every step after. */
  setAnalysis(analysis) {
    this.analysis = analysis;
    const draw = (m) => {
      this.analysisModule = m;
      m.annotateReview(this.root, analysis);
    };
    if (this.analysisModule) draw(this.analysisModule);
    else import("./analysis.js").then(draw);
  }

  onKey(e) {
    if (e.target && ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) return;
    if (e.key === "ArrowRight") this.show(this.step + 1);
    else if (e.key === "ArrowLeft") this.show(this.step - 1);
    else if (e.key === "Home") this.show(0);
    else if (e.key === "End") this.show(this.steps - 1);
    else return;
    e.preventDefault();
  }

  attach() {
    document.addEventListener("keydown", this.keys);
    return this.root;
  }

  detach() {
    document.removeEventListener("keydown", this.keys);
  }
}

/** A deal of a stored game, on its own page (#/g/GAME/N). */
export async function renderDeal(app, main, game, number) {
  replace(main, h("p", { class: "hint" }, t("loading")));
  const response = await fetch(`/api/games/${encodeURIComponent(game)}/deals/${number}`);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    replace(main, h("section", { class: "card-box" }, h("p", {}, app.errorText(data.error || { code: String(response.status) })),
      h("a", { href: `#/g/${encodeURIComponent(game)}` }, t("review.to_game"))));
    return null;
  }
  const view = new ReviewView(app, data, { go: (n) => app.go(`g/${encodeURIComponent(game)}/${n}`) });
  const played = Boolean(app.me) && (data.names || []).includes(app.me.name);
  replace(main, h("div", { class: "card-box review-box" },
    h("a", { href: `#/g/${encodeURIComponent(game)}`, class: "back-link" }, `← ${t("review.to_game")}`), view.attach(),
    played ? analysisBox(view, game, number - 1) : ""));
  return view;
}

/** The analysis of one's own play in this deal: shown at once when it was made already, else a button
 * that asks for it (its progress while the expert works); either way the marks go beside the actions. */
function analysisBox(view, game, deal) {
  const box = h("div", { class: "review-analysis" });
  import("./analysis.js").then(async (m) => { // loaded when a player's own deal is reviewed, not at the first page
    view.analysisModule = m;
    const made = await m.storedAnalysis({ game, deal });
    if (made) {
      replace(box, h("section", { class: "analysis" }, m.decisionsList(made)));
      view.setAnalysis(made);
    } else {
      replace(box, m.analysisPanel({ game, deal, onDone: (a) => view.setAnalysis(a) }));
    }
  });
  return box;
}

/** A finished deal of the table's game, reviewed over the table (a dialog: the game goes on behind). */
export async function reviewAtTable(app, table, number) {
  let data;
  try {
    data = await app.net.request({ type: "review", table, deal: number });
  } catch (err) {
    app.toast(app.errorText(err), "error");
    return null;
  }
  let view = null;
  const dialog = h("dialog", { class: "review-dialog", "aria-labelledby": "review-title" });
  const open = (d) => {
    if (view) view.detach();
    view = app.review = new ReviewView(app, d, { go: async (n) => {
      try {
        open(await app.net.request({ type: "review", table, deal: n }));
      } catch (err) {
        app.toast(app.errorText(err), "error");
      }
    } });
    replace(dialog, h("button", { type: "button", class: "quiet close", onclick: () => dialog.close() }, t("close")), view.attach());
  };
  open(data);
  dialog.addEventListener("close", () => {
    if (view) view.detach();
    if (app.review === view) app.review = null;
    dialog.remove();
  });
  document.body.append(dialog);
  dialog.showModal();
  return view;
}
