// The page: who you are, the connection, the route (#/ lobby, #/t/ID a table, #/p/NAME a profile,
// #/g/GAME a stored game and #/g/GAME/N its deal N reviewed, #/leaderboard, #/daily, #/tournaments[/ID],
// #/robots the robots' ladder, #/friends, #/account, #/learn[/LESSON] the guided lessons; #/rules[/SECTION] and
// #/guide, which anyone may read before choosing a name), and the messages that keep each view live.

import { $, h, replace } from "./dom.js";
import { LANGUAGES, lang, setLang, t } from "./i18n.js";
import { openDisplay } from "./display.js";
import { ASK_AGAIN, Net, againIn } from "./net.js";
import { renderLobby } from "./lobby.js";
import { TableView } from "./table.js";
import { renderFriends, renderGame, renderLeaderboard, renderProfile, accountDialog } from "./account.js";
import { renderDeal } from "./review.js";

const app = {
  me: null, // {id, name, registered}
  registered: false,
  catalogue: null, // GET /api/options
  tables: new Map(), // the lobby's TableSummary by id
  invitations: [],
  status: "connecting",
  openedAtFront: !location.hash.replace(/^#\/?/, ""), // opened at the front page: back to a game going on
  view: null, // the TableView while a table is open
  awayFrom: new Set(), // your tables this page left: still heard
  review: null, // the ReviewView while a deal's review page is open
  net: null,
};
window.atout = app; // for the curious, and for the browser tests' timing probes

/** A short message over the page, said by a screen reader (an error at once), unless ``silent``: the same words
 * are said elsewhere (a refusal's line in the prompt), and a person hears each refusal once. A new error takes
 * the place of the last one: refusals never stack over the page's buttons. Gone after a few seconds, unless
 * ``lasting``: then its caller removes it (the element returned). */
export function toast(text, kind = "info", { silent = false, lasting = false } = {}) {
  const box = $("#toasts");
  if (kind === "error") box.querySelectorAll(".toast.error").forEach((old) => old.remove());
  const item = h("div", { class: `toast ${kind}`, role: silent ? null : kind === "error" ? "alert" : "status", "aria-hidden": silent ? "true" : null }, text);
  box.append(item);
  if (!lasting) setTimeout(() => item.remove(), kind === "error" ? 7000 : 4000);
  return item;
}
app.toast = toast;

export function errorText(err) {
  if (!err) return "";
  const waits = err.code === "rate_limited" && err.retry_after; // a budget spent: say how long to wait
  const why = err.reason && t(`error.${err.code}.${err.reason}`, err, null); // a weak password's reason, in words
  const known = why || t(waits ? "error.rate_limited_wait" : `error.${err.code}`, err, null);
  return known || err.message || String(err.code);
}
app.errorText = errorText;

/** This page's session is over (ended here, or the server says so): the page starts again as a guest's,
 * saying why once it has. */
let over = false;
let mine = null; // why, when this page itself ended its session (the server's notice may come first)
function sessionOver(why) {
  if (over) return;
  over = true;
  sessionStorage.setItem("atout.flash", `session.${mine || why}`);
  localStorage.removeItem("atout.name");
  location.reload();
}
app.sessionOver = sessionOver;
app.ending = (why) => { mine = why; }; // null again when the request was refused

function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [kind, ...rest] = hash.split("/");
  return { kind: kind === "table" ? "t" : kind || "lobby", arg: decodeURIComponent(rest.join("/")) }; // #/table/ID, written out, is #/t/ID
}

export function go(path) {
  if (location.hash !== `#/${path}`) location.hash = `#/${path}`;
  else show();
}
app.go = go;

function socketPath() {
  const r = route();
  return r.kind === "t" && r.arg ? `/ws?table=${encodeURIComponent(r.arg)}` : "/ws";
}

let helloTries = 0;
let helloAgain = null;
let helloSaid = null; // the message that the page asks again, shown until the welcome comes

function hello() {
  app.welcomed = false; // until this socket's welcome
  clearTimeout(helloAgain);
  const message = { type: "hello", protocol: 1, patches: true };
  if (!app.registered) {
    const token = localStorage.getItem("atout.token");
    const name = localStorage.getItem("atout.name");
    if (token) message.token = token;
    if (name) message.name = name;
  }
  return message;
}

function onMessage(m) {
  switch (m.type) {
    case "welcome":
      app.welcomed = true;
      helloTries = 0;
      helloSaid?.remove();
      helloSaid = null;
      app.me = m.you;
      if (m.token) localStorage.setItem("atout.token", m.token);
      onStatus("online");
      show();
      break;
    case "error":
      if (!app.welcomed && ASK_AGAIN.has(m.code)) { // the hello itself not answered now: said once, asked again
        if (helloTries === 0) helloSaid = toast(t("error.asked_again"), "error", { lasting: true });
        helloAgain = setTimeout(() => app.net.send(hello()), againIn(helloTries++));
      } else if (m.code === "name_taken" || m.code === "bad_name") {
        const wished = localStorage.getItem("atout.name");
        localStorage.removeItem("atout.name");
        welcomeScreen(wished || "", errorText(m));
      } else if (m.code === "bad_token") {
        localStorage.removeItem("atout.token");
        location.reload();
      } else if (app.view && !app.view.state && (m.code === "private" || m.code === "no_spectators" || m.code === "no_table")) {
        app.view.refuse(m.code); // a table this person may not open, or one over or never made: a page that says so, not the lobby
      } else if (app.view && m.code === "no_table") {
        toast(errorText(m), "error");
        go("");
      } else {
        toast(errorText(m), "error");
      }
      break;
    case "lobby":
      app.tables = new Map(m.tables.map((x) => [x.id, x]));
      if (backToGame()) break;
      if (route().kind === "lobby") renderLobby(app, $("#main"));
      friendsMoved();
      break;
    case "lobby_table":
      app.tables.set(m.table.id, m.table);
      if (route().kind === "lobby") renderLobby(app, $("#main"));
      friendsMoved();
      break;
    case "lobby_remove":
      app.tables.delete(m.table);
      if (route().kind === "lobby") renderLobby(app, $("#main"));
      friendsMoved();
      break;
    case "table":
    case "event":
      if (app.view && app.view.id === m.table) app.view.receive(m);
      else if (app.awayFrom.has(m.table)) summons().then((s) => s.heard(app, m));
      break;
    case "called": // a new game at your table, this page elsewhere
      if (!app.view || app.view.id !== m.table) summons().then((s) => s.summon(app, m.table, "game"));
      break;
    case "invitation":
      invitation(m);
      break;
    case "friend":
      toast(t(`friend.${m.event}`, { name: m.name }));
      if (route().kind === "p" && app.refreshFriendship) app.refreshFriendship(); // the profile's button says where you stand now
      friendsMoved();
      break;
    case "tournament": // your round began: from its pages, straight to your table
      if (route().kind === "tournaments") go(`t/${m.table}`);
      else if (!app.view || app.view.id !== m.table) summons().then((s) => s.summon(app, m.table, "round"));
      break;
    case "presence": // a friend came online or left: the friends shown are asked again
      friendsMoved();
      break;
    case "session_ended":
      sessionOver(m.why);
      break;
    default:
      break;
  }
}

function summons() {
  return import("./summons.js");
}

/** Leaving a table's view: `away` (a new game waits for you), and its turns still heard (summons.js). */
function leaveView() {
  const view = app.view;
  view.close();
  app.view = null;
  if (!view.state || view.state.you == null || view.state.status === "closed") return;
  app.net.send({ type: "away", table: view.id });
  app.awayFrom.add(view.id);
  summons().then((s) => s.leaving(view));
}

/** A table changed: a friend may have sat down or started a game. The friends shown (the lobby's box,
 * the friends page) are asked again, at most every two seconds. */
let friendsTimer = null;
function friendsMoved() {
  const kind = route().kind;
  if (!app.refreshFriends || (kind !== "lobby" && kind !== "friends") || friendsTimer) return;
  friendsTimer = setTimeout(() => {
    friendsTimer = null;
    const k = route().kind;
    if (app.refreshFriends && (k === "lobby" || k === "friends")) app.refreshFriends();
  }, 2000);
}

/** The site opened at its front page (no route) while a game of yours goes on: straight back to it,
 * once; the lobby, where it comes first, is a click away. */
function backToGame() {
  if (!app.openedAtFront) return false;
  app.openedAtFront = false;
  const playing = [...app.tables.values()].find((x) => x.you !== null && x.you !== undefined && x.status === "playing");
  if (!playing || route().kind !== "lobby") return false;
  go(`t/${playing.id}`);
  return true;
}

function invitation(m) {
  const item = h("div", { class: "toast invite", role: "alert" },
    t("invite.from", { name: m.from }), " ",
    h("button", { onclick: () => { item.remove(); go(`t/${m.table}`); } }, t("invite.join")),
    h("button", { class: "quiet", onclick: () => item.remove() }, t("close")));
  $("#toasts").append(item);
}

function onStatus(status) {
  app.status = status;
  document.body.dataset.connection = status;
  renderTop();
  if ((status === "offline" || status === "busy") && app.view) app.view.offline(); // busy: refused for its address
}

function renderTop() {
  const skip = $(".skip");
  if (skip) skip.textContent = t("top.skip");
  if (!app.view || !app.view.noticing) document.title = t("welcome.title");
  const who = app.me
    ? h("span", { class: "who" },
      h("a", { href: `#/p/${encodeURIComponent(app.me.name)}`, title: t("top.profile") }, app.me.name),
      app.me.registered ? "" : h("span", { class: "tag" }, t("top.guest")))
    : "";
  // no "Connecting…" before a name
  const status = app.status === "online" || (app.status === "connecting" && !app.me) ? ""
    : h("span", { class: `netstatus ${app.status}`, role: "status" }, t(`net.${app.status}`));
  const account = app.registered
    ? h("button", { class: "quiet", onclick: logout }, t("top.logout"))
    : h("button", { class: "quiet", onclick: () => accountDialog(app) }, t("top.login"));
  replace($("#top"),
    h("a", { class: "brand", href: "#/" }, "Atout"),
    h("nav", { "aria-label": t("top.nav") },
      h("a", { href: "#/learn" }, t("top.learn")),
      h("a", { href: "#/" }, t("top.tables")),
      h("a", { href: "#/leaderboard" }, t("top.leaderboard")),
      h("a", { href: "#/daily" }, t("top.daily")),
      h("a", { href: "#/tournaments" }, t("top.tournaments")),
      h("a", { href: "#/robots" }, t("top.robots")),
      h("a", { href: "#/rules", class: "rules-link", onclick: rulesFromTop }, t("top.rules")),
      app.registered ? h("a", { href: "#/friends" }, t("top.friends")) : "",
      app.registered ? h("a", { href: "#/account" }, t("top.account")) : ""),
    h("span", { class: "spacer" }),
    status, who, account,
    h("button", { type: "button", class: "quiet display", "aria-haspopup": "dialog", onclick: openDisplay }, t("top.display")),
    h("select", {
      class: "quiet lang", "aria-label": t("top.language"), title: t("top.language"),
      onchange: async (event) => {
        await setLang(event.target.value); // its words arrive first: the page is drawn again in one go
        renderTop();
        if (app.view && route().kind === "t") app.view.relabel(); // everything on screen at once, the log too
        else if (!app.me && $("#guest-name")) welcomeScreen($("#guest-name").value);
        else {
          replace($("#main")); // drawn whole again: a page that keeps its frame (the lobby) redraws its words too
          show();
        }
        $("select.lang")?.focus(); // the choice drawn again keeps the focus
      },
    }, ...Object.entries(LANGUAGES).map(([code, name]) =>
      h("option", { value: code, lang: code, selected: code === lang() }, name))));
}

/** The top bar's "Rules" at a table opens them over it: the table stays, and keeps running under them. */
function rulesFromTop(e) {
  if (route().kind !== "t" || !app.view) return;
  e.preventDefault();
  import("./reference.js").then((m) => m.openRules(app));
}

async function logout() {
  mine = "logout_here";
  await fetch("/api/logout", { method: "POST" });
  sessionOver("logout_here");
}

/** The server's rule for a name (accounts.NAME): Latin letters, accented ones included, digits, _ or -;
 * the spaces around it are no part of it. The page says the rule, and checks it after trimming. */
const NAME = /^[A-Za-z0-9_\-\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u00FF\u0152\u0153\u0178]{3,20}$/;

export function nameProblem(value) {
  const name = value.normalize("NFC").trim();
  return NAME.test(name) ? null : t("name.bad", { name });
}

function welcomeScreen(wished = "", refusal = "") {
  const input = h("input", {
    id: "guest-name", name: "name", required: true, maxlength: 40, value: wished,
    autocomplete: "nickname", placeholder: t("welcome.placeholder"), "aria-describedby": "guest-name-rule guest-name-problem",
  });
  const problem = h("p", { id: "guest-name-problem", class: "refusal", role: "alert" }, refusal);
  const form = h("form", {
    class: "card-box welcome", novalidate: true, onsubmit: (e) => {
      e.preventDefault();
      const wrong = nameProblem(input.value);
      if (wrong) {
        problem.textContent = wrong;
        input.setAttribute("aria-invalid", "true");
        input.focus();
        return;
      }
      localStorage.setItem("atout.name", input.value.normalize("NFC").trim());
      if (app.net) location.reload(); // a refused name: a new hello, on a new connection
      else start();
    },
  },
  h("h1", {}, t("welcome.title")),
  h("p", {}, t("welcome.intro")),
  h("div", { class: "learn-offer" }, // the first offer to someone who never played (issue 46)
    h("h2", {}, t("welcome.learn_title")), h("p", {}, t("welcome.learn_what")),
    h("a", { class: "button primary", href: "#/learn" }, t("welcome.learn"))),
  h("label", { for: "guest-name" }, t("welcome.name")),
  h("div", { class: "row" }, input, h("button", { type: "submit" }, t("welcome.play"))),
  h("p", { id: "guest-name-rule", class: "hint" }, t("name.rule")),
  problem,
  h("p", { class: "hint" }, t("welcome.or"), " ",
    h("button", { type: "button", class: "linklike", onclick: () => accountDialog(app) }, t("welcome.login"))),
  h("p", { class: "hint learn-links" }, t("welcome.new"), " ", h("a", { href: "#/rules" }, t("welcome.rules")), " · ",
    h("a", { href: "#/guide" }, t("welcome.guide"))));
  replace($("#main"), form);
  input.focus();
}

/** Pages anyone may read, a name chosen or not, with no socket: the rules and the quick guide (loaded when asked). */
const OPEN_PAGES = {
  rules: (main, arg) => import("./rules.js").then((m) => m.renderRules(app, main, arg)),
  guide: (main) => import("./guide.js").then((m) => m.renderGuide(app, main)),
};

/** The guided lessons (learn.js): shown to anyone, a name or none; leaving them lets their page go. */
function showLearn(main, arg) {
  if (app.view) leaveView();
  document.body.dataset.view = "learn";
  app.learning = true;
  return import("./learn.js").then((m) => m.renderLearn(app, main, arg));
}

/** Pages drawn from the server's answers, each in an element of its own (no box), so an answer that comes once
 * the person is elsewhere (taken to a tournament's table) draws into one no longer shown, not over that page. */
const PAGES = {
  p: (page, arg) => renderProfile(app, page, arg),
  g: (page, arg) => {
    const [game, deal] = arg.split("/");
    if (deal) return renderDeal(app, page, game, Number(deal)).then((view) => { app.review = view; });
    return renderGame(app, page, game);
  },
  leaderboard: (page) => renderLeaderboard(app, page),
  daily: (page, arg) => import("./daily.js").then((m) => m.renderDaily(app, page, arg)), // loaded when asked
  tournaments: (page, arg) => import("./tournaments.js").then((m) => m.renderTournaments(app, page, arg)),
  robots: (page) => import("./robots.js").then((m) => m.renderRobots(app, page)),
  friends: (page) => renderFriends(app, page),
  account: (page) => import("./sessions.js").then((m) => m.renderAccount(app, page)),
};

function pageIn(main) {
  const page = h("div", { class: "page" }, h("p", { class: "hint" }, "…"));
  page.style.display = "contents";
  replace(main, page);
  return page;
}

function show() {
  const r = route();
  const main = $("#main");
  if (r.kind === "learn") return showLearn(main, r.arg);
  if (app.learning) {
    app.learning = false;
    import("./learn.js").then((m) => m.leaveLearn());
  }
  const open = OPEN_PAGES[r.kind];
  if (!app.me && !open) {
    if (!app.net) welcomeScreen(); // no name yet: the welcome (the rules or the lessons, say, left by the site's name)
    return;
  }
  if (r.kind !== "t" && app.view) leaveView();
  document.body.dataset.view = r.kind;
  if (open) {
    if (main.dataset.shown === location.hash && main.firstElementChild) return; // drawn already (the welcome came after)
    main.dataset.shown = location.hash;
    return open(main, r.arg);
  }
  delete main.dataset.shown;
  if (r.kind === "t" && r.arg) {
    if (!app.view || app.view.id !== r.arg) {
      if (app.view) leaveView();
      app.view = new TableView(app, r.arg, main);
    }
    if (app.awayFrom.delete(r.arg)) summons().then((s) => s.arrived(r.arg));
    if (app.net.follow()) return; // the table's own socket opens: the view opens on its welcome
    app.view.open();
    return;
  }
  if (app.review) {
    app.review.detach();
    app.review = null;
  }
  if (Object.hasOwn(PAGES, r.kind)) return PAGES[r.kind](pageIn(main), r.arg);
  app.net.send({ type: "lobby" });
  app.lobbySocket = app.net.ws;
  renderLobby(app, main);
}

/** "Skip to the content": focus goes to the page's main part, the route stays (its `#main` is no route). */
function skipToContent(e) {
  e.preventDefault();
  $("#main").focus();
}

async function start() {
  if (!app.net) {
    app.net = new Net({ hello, onMessage, onStatus, path: socketPath });
    app.net.connect();
  }
}

async function boot() {
  document.documentElement.lang = lang();
  renderTop();
  const flash = sessionStorage.getItem("atout.flash"); // why the last page ended its session
  if (flash) {
    sessionStorage.removeItem("atout.flash");
    toast(t(flash), "error");
  }
  const [me, catalogue] = await Promise.all([
    fetch("/api/me?optional=1").then((r) => (r.ok ? r.json() : null)).catch(() => null), // a guest: null, no error
    fetch("/api/options").then((r) => r.json()),
  ]);
  app.catalogue = catalogue;
  app.registered = Boolean(me && (me.name || (me.player && me.player.name)));
  window.addEventListener("hashchange", () => { app.moved = true; }); // a view opened from another: focus goes into it
  window.addEventListener("hashchange", show);
  $(".skip").addEventListener("click", skipToContent);
  window.addEventListener("online", () => app.net && app.net.nudge());
  if (app.registered && localStorage.getItem("atout.lessons") && route().kind !== "learn") import("./learn.js").then((m) => m.keepGuestProgress(app)); // a guest's lessons, now the account's
  if (route().kind === "learn") show(); // no name needed to learn
  if (app.registered || localStorage.getItem("atout.token") || localStorage.getItem("atout.name")) start();
  if (route().kind !== "learn" && (OPEN_PAGES[route().kind] || !app.net)) show(); // the rules need no socket; without a name, the welcome
}

app.restart = () => location.reload();

/** This socket hears the lobby's changes (once per socket: a table's own socket does not, until asked). */
app.followLobby = () => {
  if (app.lobbySocket === app.net.ws) return;
  app.lobbySocket = app.net.ws;
  app.net.send({ type: "lobby" });
};
app.nameProblem = nameProblem;
boot();
