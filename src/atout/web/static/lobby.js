// The lobby: the open tables, live, and the form that creates one with every option.

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { levelLabel, optionControls, readOptions, shownName } from "./options.js";
import { friendsBox } from "./account.js";

let draft = { players: 4 }; // the create form survives live lobby updates

export function renderLobby(app, main) {
  let list = main.querySelector("#lobby-tables");
  if (!list) {
    list = h("div", { id: "lobby-tables" }); // inside the section the title names: one landmark, not two of one name
    replace(main,
      h("div", { class: "lobby" },
        quickPlay(app),
        h("section", { class: "card-box", "aria-labelledby": "lobby-title" },
          h("h1", { id: "lobby-title" }, t("lobby.title")), list),
        h("div", { class: "lobby-side" }, friendsBox(app), createForm(app))));
  }
  const mine = (x) => x.you !== null && x.you !== undefined;
  const rank = (x) => (mine(x) ? 0 : x.over ? 3 : x.status === "waiting" ? 1 : 2); // a game over: last
  const tables = [...app.tables.values()].sort((a, b) => rank(a) - rank(b));
  renderYours(app, main, tables.filter(mine));
  if (!tables.length) {
    replace(list, h("p", { class: "hint" }, t("lobby.empty")));
    return;
  }
  replace(list, h("ul", { class: "tables" }, tables.map((x) => tableItem(app, x))));
}

/** Quick play: one click seats you at a game of the size you pick (the table you were just watching when it
 * has a seat for you, a robot's seat at a game going on, taken at its next deal, or a table waiting for
 * people), or opens one with robots at once. */
function quickPlay(app) {
  const message = h("p", { class: "refusal", role: "status" });
  const go = async (players, button) => {
    for (const b of button.parentNode.querySelectorAll("button")) b.disabled = true;
    message.textContent = "";
    try {
      const answer = await app.net.request({ type: "quick", players, near: app.lookedAt || undefined }); // the table just watched first
      app.go(`t/${answer.table}`);
    } catch (err) {
      message.textContent = app.errorText(err);
    } finally {
      for (const b of button.parentNode.querySelectorAll("button")) b.disabled = false;
    }
  };
  return h("section", { class: "card-box quick", id: "quick-play", "aria-labelledby": "quick-title" },
    h("h2", { id: "quick-title" }, t("quick.title")),
    h("p", { class: "hint" }, t("quick.why")),
    h("div", { class: "row", role: "group", "aria-labelledby": "quick-title" },
      [3, 4, 5].map((n) => h("button", { type: "button", class: "primary", dataset: { quick: String(n) },
        onclick: (e) => go(n, e.currentTarget) }, t("quick.players", { n })))),
    message,
    h("p", { class: "hint learn-links" }, t("welcome.new"), " ", h("a", { href: "#/rules" }, t("welcome.rules")), " · ",
      h("a", { href: "#/guide" }, t("welcome.guide"))));
}

/** The tables where you sit, first of all: a person who closed the tab mid-deal finds their seat. */
function renderYours(app, main, yours) {
  let box = main.querySelector("#your-tables");
  if (!box) {
    box = h("section", { id: "your-tables", class: "card-box yours", "aria-live": "polite" });
    main.querySelector(".lobby").prepend(box);
  }
  box.hidden = !yours.length;
  replace(box, yours.length ? [
    h("h2", {}, t(yours.some((x) => x.status === "playing") ? "lobby.yours_playing" : "lobby.yours")),
    h("ul", { class: "tables" }, yours.map((x) => h("li", { class: "row", dataset: { table: x.id } },
      h("span", {}, t("lobby.table", { id: x.id }), " · ", statusWord(x),
        " · ", t("lobby.your_seat", { n: x.you + 1 })),
      h("button", { class: "primary", onclick: () => app.go(`t/${x.id}`) }, t("lobby.back"))))),
  ] : []);
}

/** A table's state in a word: its game being played, its game over (finished or cancelled: not a table
 * waiting for people, though one may sit for the next game), or waiting for its first game. */
function statusWord(x) {
  if (x.status === "playing") return t("lobby.playing");
  if (x.over) return t(x.over === "cancelled" ? "lobby.cancelled" : "lobby.over");
  return t("lobby.waiting");
}

function tableItem(app, x) {
  const programs = x.robot_accounts || []; // seats of robot accounts: people's programs, tagged
  const seats = x.seats.map((name, i) => h("li", { class: name ? "taken" : "free" }, shownName(app.catalogue, name) || t("lobby.free"),
    programs.includes(i) ? [" ", h("span", { class: "tag robot" }, t("robot.tag"))] : ""));
  const o = x.options || {};
  const facts = [
    t("lobby.players", { n: x.players }),
    t("lobby.deals", { n: o.deals }),
    o.turn_seconds ? t("lobby.seconds", { n: o.turn_seconds }) : t("lobby.untimed"),
    o.competitive ? t("lobby.competitive") : t("lobby.practice"),
    o.bet ? t("lobby.bet", { n: o.bet }) : "",
    x.private ? t("lobby.private") : "",
  ].filter(Boolean).join(" · ");
  const status = statusWord(x);
  const yours = x.you !== null && x.you !== undefined;
  return h("li", { class: `table-item ${x.status}${yours ? " mine" : ""}`, dataset: { table: x.id } },
    h("div", { class: "table-head" },
      h("strong", {}, t("lobby.table", { id: x.id })), " ",
      h("span", { class: `badge ${x.over ? "over" : x.status}` }, status),
      yours ? h("span", { class: "tag mine" }, t("lobby.your_seat", { n: x.you + 1 })) : "",
      x.quick ? h("span", { class: "tag quick" }, t("quick.tag")) : "",
      x.robots ? h("span", { class: "hint" }, " ", t("lobby.robots", { n: x.robots })) : "",
      x.spectators ? h("span", { class: "hint" }, " · ", t("lobby.spectators", { n: x.spectators })) : ""),
    h("div", { class: "hint" }, facts),
    h("ul", { class: "seat-names" }, seats),
    h("div", { class: "row" },
      yours ? h("button", { class: "primary", onclick: () => app.go(`t/${x.id}`) }, t("lobby.back")) : "",
      !yours && x.quick && x.claimable > 0 && !x.private
        ? h("button", { onclick: () => claim(app, x.id), "aria-label": t("quick.claim_label", { id: x.id }) }, t("quick.claim"))
        : "",
      !yours && x.free > 0 && x.status === "waiting"
        ? h("button", { onclick: () => claim(app, x.id), "aria-label": t("lobby.open_label", { id: x.id }) }, t("lobby.open")) // seated, not watching
        : "",
      !yours && x.options && x.options.spectators !== false
        ? h("button", { class: "quiet", onclick: () => app.go(`t/${x.id}`), "aria-label": t("lobby.watch_label", { id: x.id }) }, t("lobby.watch"))
        : ""));
}

/** A seat at this table for me (the lobby's *Sit* and *Take a robot's seat*): a free one, or a robot's. */
async function claim(app, table) {
  try {
    await app.net.request({ type: "claim", table });
    app.go(`t/${table}`);
  } catch (err) {
    app.toast(app.errorText(err), "error");
  }
}

function createForm(app) {
  const cat = app.catalogue;
  const players = h("fieldset", { class: "players" }, h("legend", {}, t("create.players")),
    [3, 4, 5].map((n) => h("label", {},
      h("input", { type: "radio", name: "players", value: n, checked: draft.players === n, onchange: () => { draft.players = n; } }),
      ` ${n}`)));
  const controls = optionControls(cat, cat.defaults, { editable: true, draft });
  const form = h("form", {
    class: "card-box create", id: "create-form", "aria-labelledby": "create-title",
    onsubmit: async (e) => {
      e.preventDefault();
      const options = readOptions(form, cat);
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      try {
        const answer = await app.net.request({ type: "create", players: draft.players, options });
        app.go(`t/${answer.table}`);
      } catch (err) {
        app.toast(app.errorText(err), "error");
      } finally {
        button.disabled = false;
      }
    },
  },
  h("h2", { id: "create-title" }, t("create.title")),
  players, controls,
  h("p", { class: "hint" }, t("create.level_hint", { level: levelLabel(cat, cat.defaults.robot_level) })),
  h("button", { type: "submit" }, t("create.submit")));
  return form;
}
