#!/usr/bin/env node
// A simple tarot robot in JavaScript speaking "atout-engine 1" (docs/engine-protocol.md):
// one JSON object a line on stdin, one a line on stdout, anything else on stderr.
//
//   atout arena --candidate heuristic --baseline "cmd:node examples/simple_engine.js"
//
// It plays legally and plainly: it takes only with a strong hand, lays aside its smallest
// cards, keeps the petit and the Excuse while it can, leads its kings, wins a trick cheaply
// when it can and otherwise plays its least valuable card.  No Node package is needed.
"use strict";
const readline = require("readline");

let seat = null;

function say(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// Cards are codes: "7H", "10S", "JC" (jack), "NC" (knight), "QD", "KS", trumps "T1".."T21", "EX".
const FACES = { J: 11, N: 12, Q: 13, K: 14 };
const isTrump = (c) => c[0] === "T";
const suitOf = (c) => (c === "EX" ? "EX" : isTrump(c) ? "T" : c[c.length - 1]);
const isBout = (c) => c === "T1" || c === "T21" || c === "EX";

function rank(c) {
  if (c === "EX") return 0;
  if (isTrump(c)) return Number(c.slice(1));
  const face = c.slice(0, -1);
  return FACES[face] || Number(face);
}

function points(c) {
  if (isBout(c)) return 4.5;
  if (isTrump(c)) return 0.5;
  return { 14: 4.5, 13: 3.5, 12: 2.5, 11: 1.5 }[rank(c)] || 0.5;
}

// Least valuable first: points, then trumps after plain cards, then rank; the petit and the
// Excuse last of all (they are worth keeping).
function cheapness(c) {
  const keep = c === "T1" || c === "EX" ? 100 : 0;
  return keep + points(c) * 10 + (isTrump(c) ? 5 : 0) + rank(c) / 100;
}
const cheapest = (cards) => [...cards].sort((a, b) => cheapness(a) - cheapness(b))[0];

// The card winning the trick so far: the highest trump, else the highest card of the suit led.
function winning(trick) {
  const cards = trick.map((p) => p.card).filter((c) => c !== "EX");
  if (cards.length === 0) return null;
  const trumps = cards.filter(isTrump);
  if (trumps.length) return trumps.sort((a, b) => rank(b) - rank(a))[0];
  const led = suitOf(cards[0]);
  return cards.filter((c) => suitOf(c) === led).sort((a, b) => rank(b) - rank(a))[0];
}

function beats(card, best) {
  if (best === null) return card !== "EX";
  if (card === "EX") return false;
  if (isTrump(card)) return !isTrump(best) || rank(card) > rank(best);
  return !isTrump(best) && suitOf(card) === suitOf(best) && rank(card) > rank(best);
}

function chooseCard(view, cards) {
  if (cards.length === 1) return cards[0];
  if (view.trick.length === 0) {
    const kings = cards.filter((c) => !isTrump(c) && rank(c) === 14);
    if (kings.length) return kings[0];
    const plain = cards.filter((c) => !isTrump(c) && c !== "EX");
    return cheapest(plain.length ? plain : cards);
  }
  const best = winning(view.trick);
  const last = view.trick.length === view.seats.length - 1;
  const winners = cards.filter((c) => beats(c, best) && c !== "T1" && c !== "T21");
  // Win with a plain card of value, or (last to play) with the smallest card that wins.
  const valuable = winners.filter((c) => !isTrump(c) && points(c) > 2);
  if (valuable.length) return valuable.sort((a, b) => rank(b) - rank(a))[0];
  if (last && winners.length) return winners.sort((a, b) => cheapness(a) - cheapness(b))[0];
  return cheapest(cards);
}

function chooseBid(view, bids) {
  const hand = view.hand;
  const trumps = hand.filter(isTrump).length;
  const bouts = hand.filter(isBout).length;
  const kings = hand.filter((c) => !isTrump(c) && c !== "EX" && rank(c) === 14).length;
  const strength = trumps + 3 * bouts + 2 * kings;
  const wanted = strength >= 20 ? "garde" : strength >= 15 ? "prise" : "pass";
  const plain = bids.filter((b) => !b.chelem);
  return plain.find((b) => b.bid === wanted) || plain.find((b) => b.bid === "pass") || plain[0];
}

function chooseEcart(view, choice) {
  const refused = choice.refused || {};
  const allowed = choice.discard_from.filter((c) => !(c in refused));
  // Plain cards first (smallest first); trumps only when too few plain cards may go.
  const plain = allowed.filter((c) => !isTrump(c)).sort((a, b) => cheapness(a) - cheapness(b));
  const trumps = allowed.filter(isTrump).sort((a, b) => rank(a) - rank(b));
  return { discard: [...plain, ...trumps].slice(0, choice.count) };
}

function decide(message) {
  const view = message.view;
  const legal = view.legal;
  const of = (key) => legal.filter((a) => key in a);
  if (of("play").length) return { play: chooseCard(view, of("play").map((a) => a.play)) };
  if (of("bid").length) return chooseBid(view, of("bid"));
  if (of("discard_from").length) return chooseEcart(view, of("discard_from")[0]);
  if (of("petit_sec").length) return of("petit_sec").find((a) => a.petit_sec === "play") || legal[0];
  if (of("chelem").length) return of("chelem").find((a) => a.chelem === false) || legal[0];
  if (of("call").length) {
    // Call a king we lack, so the partner is someone else.
    return of("call").find((a) => !view.hand.includes(a.call)) || of("call")[0];
  }
  return legal[0];
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch (err) {
    process.stderr.write(`simple_engine: not JSON: ${line.slice(0, 80)}\n`);
    return;
  }
  switch (message.type) {
    case "hello":
      if (message.protocol !== "atout-engine" || message.version !== 1) {
        say({ type: "error", message: "simple_engine speaks atout-engine 1 only" });
        process.exit(1);
      }
      seat = message.seat;
      say({ type: "ready", protocol: "atout-engine", version: 1, name: "simple (JavaScript)" });
      break;
    case "decide":
      say({ type: "action", id: message.id, action: decide(message) });
      break;
    case "deal_end":
      process.stderr.write(`simple_engine seat ${seat}: deal ${message.number} scored ${message.result.scores[seat]}\n`);
      break;
    case "quit":
      process.exit(0);
      break;
    default: // "deal", and any message a later version adds: nothing to answer
  }
});
input.on("close", () => process.exit(0));
