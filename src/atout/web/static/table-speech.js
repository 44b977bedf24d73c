// The table told to a screen reader: each event a sighted player sees, said as it happens (table events
// and the changes of the state they bring), and the answers to the single-key commands (table-commands.js).

import { num, partWords, t } from "./i18n.js";
import * as cards from "./cards.js";
import { shownName } from "./options.js";
import { contractWord, signed } from "./result.js";

await partWords("table");

const SUIT_KEYS = { S: "speech.spades", H: "speech.hearts", C: "speech.clubs", D: "speech.diamonds" };

const cardList = (codes) => codes.map(cards.fullName).join(", ");

/** The points a trick brings its winner: its cards' count (the Excuse stays with whoever played it). */
function trickPoints(plays, winner) {
  return plays.filter(([seat, card]) => card !== "EX" || seat === winner).reduce((sum, [, card]) => sum + cards.points(card), 0);
}

/** A table event said (not when the log of a join is replayed: that is the past). */
export function speakEvent(view, e) {
  if (view.replaying || !e) return;
  const say = (text, kind) => view.speaker.say(text, kind);
  const me = view.me;
  const name = (seat) => view.nameOf(seat);
  switch (e.type) {
    case "action": speakAction(view, e); break;
    case "deal_start": view.spokenTrick = []; say(t("speech.deal_start", { n: e.number, name: name(e.dealer) }), "others"); break;
    case "chat": if (e.name !== (view.app.me && view.app.me.name)) say(t("speech.chat", { name: shownName(view.app.catalogue, e.name), text: e.text }), "chat"); break;
    case "sat": if (e.seat !== me) say(t("speech.sat", { name: e.name }), "others"); break;
    case "left": if (e.seat !== me) say(t("speech.left", { name: name(e.seat) }), "others"); break;
    case "timeout": say(t("speech.timeout", { name: name(e.seat) }), e.seat === me ? "act" : "others"); break;
    case "unranked": say(t("log.unranked", { names: e.seats.map(name).join(", ") }), "others"); break; // the log's words
    default: break;
  }
}

/** Arriving at a table whose deal is under way (the daily deal's first deal begins with its table, before the page
 * hears anything): which deal it is and who dealt, as the deal's start says it. */
export function speakArrival(view, e) {
  view.speaker.say(t("speech.deal_start", { n: e.number, name: view.nameOf(e.dealer) }), "others");
}

function speakAction(view, e) {
  const a = e.action;
  const mine = e.seat === view.me;
  const kind = mine ? "mine" : "others";
  const who = view.nameOf(e.seat);
  const say = (text, k = kind) => view.speaker.say(text, k);
  if (a.bid !== undefined) { // one's own said as one's cards are ("You bid Garde"), never "Blindy: Garde"
    const words = { name: who, contract: contractWord(a.bid) };
    if (a.bid === "pass") say(mine ? t("speech.pass_mine") : t("speech.pass", words));
    else if (a.chelem) say(mine ? t("speech.bid_chelem_mine", words) : t("speech.bid_chelem", words));
    else say(mine ? t("speech.bid_mine", words) : t("speech.bid", words));
  } else if (a.call !== undefined) say(t("speech.call", { name: who, card: cards.fullName(a.call) }), "mine");
  else if (a.discard !== undefined) say(t("speech.ecart_all", { name: who }));
  else if (a.ecart !== undefined) {
    if (a.ecart.trumps && a.ecart.trumps.length) say(t("speech.ecart_trumps", { name: who, cards: cardList(a.ecart.trumps) }), "mine");
    else say(t("speech.ecart", { name: who }));
  } else if (a.chelem !== undefined) say(t(a.chelem ? "speech.chelem_yes" : "speech.chelem_no", { name: who }), a.chelem ? "mine" : kind);
  else if (a.poignee !== undefined) say(t("speech.poignee", { name: who, size: t(`poignee.${poigneeSize(view, a.poignee.length)}`), cards: cardList(a.poignee) }), "mine");
  else if (a.petit_sec !== undefined) say(t(a.petit_sec === "redeal" ? "speech.petit_sec_redeal" : "speech.petit_sec_play", { name: who }), "mine");
  else if (a.play !== undefined) {
    view.spokenTrick = view.spokenTrick || [];
    view.spokenTrick.push([e.seat, a.play]);
    say(mine ? t("speech.play_mine", { card: cards.fullName(a.play) }) : t("speech.play", { name: who, card: cards.fullName(a.play) }));
    if (e.won !== undefined && e.won !== null) {
      const n = trickPoints(view.spokenTrick, e.won);
      say(e.won === view.me ? t("speech.trick_won_mine", { n }) : t("speech.trick_won", { name: view.nameOf(e.won), n }), "trick");
      view.spokenTrick = [];
    }
  }
}

const POIGNEES = { 3: [13, 15, 18], 4: [10, 13, 15], 5: [8, 10, 13] }; // simple, double, triple (the rules' counts)

/** A poignée's size by its count of trumps at this many players. */
function poigneeSize(view, count) {
  const [, double, triple] = POIGNEES[view.state ? view.state.players : 4] || POIGNEES[4];
  return count >= triple ? "triple" : count >= double ? "double" : "simple";
}

/** What the new state shows that no event said: the dog turned over, a deal's result, the game's end, and
 * this person's turn (urgent). */
export function speakState(view, before) {
  if (view.replaying) return;
  const s = view.state;
  const d = s.deal;
  const b = before && before.deal;
  if (d && d.dog && d.dog.length && !(b && b.dog && b.dog.length) && b) view.speaker.say(t("speech.dog", { cards: cardList(d.dog) }), "mine");
  if (d && d.result && !(b && b.result) && before) view.speaker.say(resultWords(view, d.result), "trick");
  if (s.game && s.game.over && before && before.game && !before.game.over) {
    view.speaker.say(t("speech.game_over", { list: scoresList(view) }), "trick");
  }
}

const CLOCK_SAID = [10, 5]; // the seconds left at which this person's clock is said on their turn

/** This person's clock in its last seconds, said (urgent) at 10 s and 5 s left, once each per turn. */
export function speakClock(view) {
  const left = view.isMyTurn() ? view.secondsLeft() : null;
  if (left === null) {
    view.clockSaid = null;
    return;
  }
  if (!view.clockSaid || view.clockSaid.seq !== view.seq) view.clockSaid = { seq: view.seq, at: new Set(CLOCK_SAID.filter((x) => left <= x - 1)) };
  for (const at of CLOCK_SAID) {
    if (left <= at && !view.clockSaid.at.has(at)) {
      view.clockSaid.at.add(at);
      view.speaker.say(t("speech.seconds_left", { n: Math.max(1, Math.ceil(left)) }), "act");
    }
  }
}

/** This person's turn, said urgently, with what is asked. */
export function turnWords(view) {
  const legal = (kind) => view.legal(kind).length > 0;
  if (legal("bid")) return t("speech.your_turn_bid");
  if (legal("call")) return t("speech.your_turn_call");
  const discard = view.legal("discard_from")[0];
  if (discard) return t("speech.your_turn_ecart", { n: discard.count });
  if (legal("chelem")) return t("speech.your_turn_chelem");
  if (legal("play")) return t("speech.your_turn_play");
  return t("speech.your_turn");
}

function resultWords(view, r) {
  if (r.void) return t("speech.void");
  const said = t(r.made ? "speech.made" : "speech.lost", { name: view.playerOf(r.taker), contract: contractWord(r.contract), diff: num(r.margin) });
  const scores = r.scores.map((x, seat) => `${view.playerOf(seat)} ${signed(x)}`).join(", ");
  return `${said}. ${scores}`;
}

function scoresList(view) {
  const g = view.state.game;
  return g ? g.totals.map((x, seat) => `${view.playerOf(seat)} ${signed(x)}`).join(", ") : "";
}

// ------------------------------------------------------------------ answers to the commands

/** The hand, suit by suit (``only``: one suit's letter, or "T" for the trumps and the Excuse). */
export function handWords(view, only = null) {
  const d = view.state && view.state.deal;
  if (!d || !d.hand || !d.hand.length) return t("speech.hand_empty");
  const hand = cards.sortHand(d.hand);
  const groups = [...Object.keys(SUIT_KEYS), "T"].filter((g) => !only || g === only).map((g) => {
    const inIt = hand.filter((c) => (g === "T" ? cards.parse(c).kind !== "suit" : cards.parse(c).suit === g));
    const suit = t(g === "T" ? "speech.trumps" : SUIT_KEYS[g]);
    if (!inIt.length) return only ? t("speech.hand_none", { suit }) : null;
    const names = inIt.map((c) => (g === "T" ? cards.fullName(c) : rankWord(c)));
    return t("speech.hand_suit", { suit, cards: names.join(", ") });
  }).filter(Boolean);
  return groups.join(". ");
}

/** A suit card by its rank only (its suit is said once for the group): "King", "7". */
function rankWord(code) {
  const full = cards.fullName(code);
  const suit = cards.suitWord(cards.parse(code).suit);
  return full.replace(new RegExp(`\\s*(of|de)\\s+${suit}$`), "");
}

const plays = (view, list) => list.map((x) => `${view.playerOf(x.seat)}: ${cards.fullName(x.card)}`).join(", ");

export function trickWords(view) {
  const d = view.state && view.state.deal;
  if (!d || !d.trick.length) return t("speech.trick_empty");
  return t("speech.trick", { plays: plays(view, d.trick) });
}

export function lastTrickWords(view) {
  const d = view.state && view.state.deal;
  const lt = d && d.last_trick;
  if (!lt) return t("speech.no_last");
  return t("speech.last", { name: view.playerOf(lt.winner), plays: plays(view, lt.cards) });
}

export function scoreWords(view) {
  const g = view.state && view.state.game;
  if (!g || !g.sheet.length) return t("speech.no_scores");
  return t("speech.scores", { list: scoresList(view) });
}

export function turnOfWords(view) {
  const d = view.state && view.state.deal;
  if (!d || d.to_act === null || d.to_act === undefined || d.phase === "end") return t("speech.turn_none");
  const who = d.to_act === view.me ? turnWords(view) : t("speech.turn_of", { name: view.playerOf(d.to_act) });
  const left = view.secondsLeft();
  return left === null ? who : `${who}, ${t("speech.clock", { n: Math.ceil(left) })}`;
}

export function dogWords(view) {
  const d = view.state && view.state.deal;
  if (!d) return t("speech.dog_unknown");
  const parts = [d.dog && d.dog.length ? t("speech.dog", { cards: cardList(d.dog) }) : t("speech.dog_unknown")];
  if (d.ecart && d.ecart.length) parts.push(t("speech.your_ecart", { cards: cardList(d.ecart) }));
  if (d.ecart_trumps && d.ecart_trumps.length) parts.push(t("speech.ecart_trumps", { name: view.playerOf(d.taker), cards: cardList(d.ecart_trumps) }));
  return parts.join(". ");
}

export function bidWords(view) {
  const d = view.state && view.state.deal;
  if (!d) return t("speech.no_bids");
  const parts = [];
  const bids = d.bids || [];
  parts.push(bids.length ? t("speech.bids", { list: bids.map((x) => `${view.playerOf(x.seat)} ${contractWord(x.bid)}`).join(", ") }) : t("speech.no_bids"));
  if (d.contract && d.phase !== "bidding") {
    parts.push(t("speech.contract", { contract: contractWord(d.contract), name: view.playerOf(d.taker) })
      + (d.called ? `, ${t("speech.called", { card: cards.fullName(d.called) })}` : ""));
  }
  return parts.join(". ");
}
