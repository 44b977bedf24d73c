// The table's log (lines kept as data, worded when shown) and its chat.

import { clear, h, replace, scrollToEnd } from "./dom.js";
import { t } from "./i18n.js";
import * as cards from "./cards.js";
import { levelLabel, shownName } from "./options.js";
import { contractWord } from "./result.js";

/** A table event: its line in the log, and the names and deal record the log and the result panel need. */
export function onEvent(view, e) {
  const name = (seat) => view.nameOf(seat);
  switch (e.type) {
    case "sat": view.names[e.seat] = e.name; addLog(view, "log.sat", { name: e.name }); break;
    case "left": addLog(view, "log.left", { name: name(e.seat) }); break;
    case "robot": view.names[e.seat] = e.name; addLog(view, "log.robot", { name: e.name, level: { level: e.level } }); break;
    case "master": if (e.seat !== null && e.seat !== undefined) addLog(view, "log.master", { name: name(e.seat) }); break;
    case "game_start": view.log = []; view.trickPlays = []; if (!view.replaying && view.logList) clear(view.logList); addLog(view, "log.game_start", { n: e.deals }); break;
    case "deal_start": view.lastRecord = null; view.trickPlays = []; addLog(view, "log.deal_start", { n: e.number, name: name(e.dealer) }, "deal"); break;
    case "action": logAction(view, e); break;
    case "deal_end":
      view.lastRecord = e.record;
      if (view.result) view.result.record = e.record;
      if (e.line && e.line.void) { // nobody played it: why, and that it does not count, not "The deal is over."
        addLog(view, `result.void.${e.line.void}`, {}, "deal");
        addLog(view, "result.void_next", {}, "deal");
      } else addLog(view, "log.deal_end", {}, "deal");
      break;
    case "game_end": addLog(view, "log.game_end", {}, "deal"); break;
    case "timeout": addLog(view, "log.timeout", { name: name(e.seat) }); break;
    case "automatic": addLog(view, e.on ? "log.auto_on" : "log.auto_off", { name: name(e.seat) }); break;
    case "handed": if (!e.claim) addLog(view, "log.handed", { name: e.name }); break;
    case "unranked": addLog(view, "log.unranked", { names: e.seats.map(name).join(", ") }); break;
    case "absent": addLog(view, "log.absent", { name: name(e.seat) }); break;
    case "present": addLog(view, "log.present", { name: name(e.seat) }); break;
    case "abandon": addLog(view, "log.abandon", { name: name(e.seat) }); break;
    case "cancel_proposed": addLog(view, "log.cancel_proposed", { name: name(e.by) }); break;
    case "vote": addLog(view, e.accept ? "log.vote_yes" : "log.vote_no", { name: name(e.seat) }); break;
    case "cancel_end": addLog(view, e.cancelled ? "log.cancelled" : "log.not_cancelled"); if (e.record) view.lastRecord = e.record; break;
    case "invited": addLog(view, "log.invited", { name: e.name }); break;
    case "closed": addLog(view, "log.closed"); break;
    default: break;
  }
}

/** A game action in the log, as data: its words are chosen when it is shown, in the language of then.
 * A card that ends a trick (`won`) is followed by the trick and who took it. */
export function logAction(view, e) {
  const a = e.action;
  const who = view.nameOf(e.seat);
  const seat = view.state && view.state.seats[e.seat];
  const more = e.by === "robot" && seat && seat.kind === "person" ? ["log.by_robot"] : [];
  if (a.bid !== undefined) {
    if (a.bid === "pass") addLog(view, "log.pass", { name: who }, "", more);
    else addLog(view, a.chelem ? "log.bid_chelem" : "log.bid", { name: who, contract: { contract: a.bid } }, "", more);
  } else if (a.call !== undefined) addLog(view, "log.call", { name: who, card: { card: a.call } }, "", more);
  else if (a.discard !== undefined) addLog(view, "log.ecart_all", { name: who, cards: { cards: a.discard } }, "", more);
  else if (a.ecart !== undefined) {
    if (a.ecart.trumps && a.ecart.trumps.length) addLog(view, "log.ecart_trumps", { name: who, cards: { cards: a.ecart.trumps } }, "", more);
    else addLog(view, "log.ecart", { name: who }, "", more);
  } else if (a.chelem !== undefined) addLog(view, a.chelem ? "log.chelem_yes" : "log.chelem_no", { name: who }, "", more);
  else if (a.poignee !== undefined) addLog(view, "log.poignee", { name: who, cards: { cards: a.poignee } }, "", more);
  else if (a.play !== undefined) {
    view.trickPlays.push([who, a.play]);
    addLog(view, "log.play", { name: who, card: { card: a.play } }, "", more);
    if (e.won !== undefined && e.won !== null) {
      addLog(view, "log.trick_won", { name: view.nameOf(e.won), cards: { plays: view.trickPlays } }, "log-trick");
      view.trickPlays = [];
    }
  } else if (a.petit_sec !== undefined) addLog(view, a.petit_sec === "redeal" ? "log.petit_sec_redeal" : "log.petit_sec_play", { name: who }, "", more);
}

/** One line of the log: its words' key, its arguments (names as they were; cards, contracts and levels as
 * codes), its style, and words after it. */
export function addLog(view, key, p = {}, kind = "", more = []) {
  const entry = { key, p, kind, more, get text() { return logText(view, this); } };
  view.log.push(entry);
  if (view.log.length > 300) view.log.splice(0, view.log.length - 300);
  if (view.logList && !view.replaying) {
    view.logList.append(h("li", { class: kind }, entry.text));
    while (view.logList.childElementCount > 300) view.logList.firstElementChild.remove();
    scrollToEnd(view.logList);
  }
}

export function logText(view, entry) {
  const params = {};
  for (const [k, v] of Object.entries(entry.p)) params[k] = logValue(view, v);
  return [t(entry.key, params), ...entry.more.map((k) => t(k))].join(" ");
}

export function logValue(view, v) {
  if (typeof v === "string") return shownName(view.app.catalogue, v); // a robot's level in this language
  if (!v || typeof v !== "object") return v;
  if (v.card !== undefined) return cards.word(v.card);
  if (v.cards !== undefined) return v.cards.map(cards.word).join(" ");
  if (v.contract !== undefined) return contractWord(v.contract);
  if (v.level !== undefined) return levelLabel(view.app.catalogue, v.level);
  if (v.plays !== undefined) return v.plays.map(([n, c]) => `${shownName(view.app.catalogue, n)} ${cards.word(c)}`).join(", ");
  return "";
}

export function renderLog(view) {
  if (!view.logList) return;
  replace(view.logList, view.log.map((entry) => h("li", { class: entry.kind }, entry.text)));
  scrollToEnd(view.logList);
}

/** The log a join brought: the table's events so far, as this viewer received them. */
export function loadLog(view, items) {
  view.log = [];
  view.trickPlays = [];
  view.replaying = true;
  try {
    for (const item of items) onEvent(view, item.event);
  } finally {
    view.replaying = false;
  }
  renderLog(view);
}

/** The chat's form: a line said to the table, the field emptied once the server took it. */
export function chatForm(view) {
  const input = h("input", { name: "chat", maxlength: 300, autocomplete: "off", "aria-label": t("chat.say"), placeholder: t("chat.placeholder") });
  return h("form", {
    class: "chat-form", onsubmit: async (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      try {
        await view.app.net.request({ type: "chat", table: view.id, text });
        input.value = "";
      } catch (err) {
        view.app.toast(view.app.errorText(err), "error");
      }
    },
  }, input, h("button", { type: "submit" }, t("chat.send")));
}

/** The chat's lines, drawn again only when they changed (the scroll to the last one forces a layout). */
export function renderChat(view) {
  const chat = view.state.chat || [];
  if (!view.toDraw("chat", chat)) return;
  replace(view.chatList, chat.map((c) => h("li", {}, h("strong", {}, c.name), ": ", h("span", { class: "chat-text" }, c.text))));
  scrollToEnd(view.chatList);
}
