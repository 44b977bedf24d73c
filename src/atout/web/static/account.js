// Accounts over HTTP: log in or register, a player's profile and recent games, friends, and the
// leaderboard. Chips, XP and badges appear on the profile when the server sends them.

import { h, replace, withCode } from "./dom.js";
import { dateTime, num, percent, t } from "./i18n.js";
import { contractWord, signed } from "./result.js";
import { shownName } from "./options.js";
import { downloadLink } from "./review.js";
import { lineChart } from "./chart.js";

/** The profile's insights: an empty, hidden section at once, filled by insights.js, which loads with the first
 * profile shown rather than with the site's first page. */
function insightsBox(app, name) {
  const box = h("section", { class: "insights", hidden: true, "aria-labelledby": "insights-title" });
  import("./insights.js").then((m) => m.fillInsights(app, box, name)).catch(() => {});
  return box;
}

export async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw (data.error || { code: String(response.status), message: response.statusText });
  return data;
}

/** A guest playing a game now: registering keeps the seat, logging in waits for the game's end (the server says so). */
function seatedInGame(app) {
  const s = app.view && app.view.state;
  return Boolean(!app.registered && s && s.you !== null && s.you !== undefined && s.game && !s.game.over);
}

export function accountDialog(app) {
  const name = h("input", { id: "account-name", name: "name", required: true, maxlength: 40, autocomplete: "username", "aria-describedby": "account-name-rule" });
  const password = h("input", { id: "account-password", name: "password", type: "password", required: true, maxlength: 200, autocomplete: "current-password" });
  const message = h("p", { class: "refusal", role: "alert" });
  const submit = async (path) => {
    const registering = path === "/api/register";
    const wrong = registering ? app.nameProblem(name.value) : null;
    if (wrong) {
      message.textContent = wrong;
      name.focus();
      return;
    }
    // a new password's two rules that need no server (the label says them before): its length, and no name in it
    const weak = !registering || !password.value ? null : [...password.value].length < 12 ? "too_short"
      : name.value.trim() && password.value.toLowerCase().includes(name.value.trim().toLowerCase()) ? "has_name" : null;
    if (weak) {
      message.textContent = t(`error.weak_password.${weak}`);
      password.focus();
      return;
    }
    if (!name.value.trim() || !password.reportValidity()) return;
    const body = { name: name.value.normalize("NFC").trim(), password: password.value };
    // a guest may register the name they play under, and keeps their seats under the account (docs/security.md)
    const guest = localStorage.getItem("atout.token");
    if (guest && !app.registered) body.guest = guest;
    try {
      await api(path, body);
      localStorage.removeItem("atout.name");
      app.restart();
    } catch (err) {
      message.textContent = app.errorText(err);
    }
  };
  const dialog = h("dialog", { class: "account", "aria-labelledby": "account-title" },
    h("form", { method: "dialog", onsubmit: (e) => { e.preventDefault(); submit("/api/login"); } },
      h("h2", { id: "account-title" }, t("account.title")),
      h("p", { class: "hint" }, t("account.why")),
      seatedInGame(app) ? h("p", { class: "notice warn", dataset: { notice: "seated" } }, t("account.seated")) : "",
      h("label", { for: "account-name" }, t("account.name")), name,
      h("p", { id: "account-name-rule", class: "hint" }, t("name.rule")),
      h("label", { for: "account-password" }, t("account.password")), password,
      message,
      h("div", { class: "row" },
        h("button", { type: "submit", class: "primary" }, t("account.login")),
        h("button", { type: "button", onclick: () => submit("/api/register") }, t("account.register")),
        h("button", { type: "button", class: "quiet", onclick: () => dialog.close() }, t("close")))));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  name.focus();
}

// The daily chips (docs/protocol.md): POST /api/claim gives CLAIM_CHIPS to an account below CLAIM_BELOW,
// once a day. The page offers it only below; the server decides, and its refusal is shown.
const CLAIM_BELOW = 200;
const CLAIM_CHIPS = 200;

function claimBox(app, chipsShown) {
  const message = h("p", { class: "claim-message", role: "status" });
  const button = h("button", {
    type: "button", class: "primary", onclick: async () => {
      button.disabled = true;
      try {
        const answer = await api("/api/claim", {});
        chipsShown.textContent = num(answer.chips);
        message.classList.remove("refusal");
        message.textContent = t("claim.done", { n: answer.claimed, chips: answer.chips });
        button.remove();
      } catch (err) {
        message.classList.add("refusal");
        message.textContent = app.errorText(err);
        if (err.code === "not_below" || err.code === "claimed_today") {
          button.remove(); // not again today, or not needed: the balance says which
          const me = await api("/api/me").catch(() => null);
          if (me && typeof me.chips === "number") chipsShown.textContent = num(me.chips);
        } else {
          button.disabled = false;
        }
      }
    },
  }, t("claim.button", { n: CLAIM_CHIPS }));
  return h("div", { class: "claim" }, h("p", { class: "hint" }, t("claim.why", { n: CLAIM_CHIPS, below: CLAIM_BELOW })), button, message);
}

export async function renderProfile(app, main, name) {
  replace(main, h("p", { class: "hint" }, t("loading")));
  let p;
  try {
    p = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (err) {
    replace(main, h("section", { class: "card-box" }, h("h1", {}, name),
      h("p", {}, app.me && app.me.name === name && !app.me.registered ? t("profile.guest") : app.errorText(err))));
    return;
  }
  const stats = Object.entries(p.stats || {}).map(([key, s]) => h("tr", {},
    h("th", { scope: "row" }, key === "all" ? t("profile.all") : t("lobby.players", { n: key })),
    h("td", {}, num(s.games)), h("td", {}, num(s.wins)), h("td", { dataset: { stat: "abandoned" } }, num(s.abandoned || 0)), h("td", {}, num(s.deals)),
    h("td", {}, s.taker_success === null ? "—" : percent(Math.round(s.taker_success * 100) / 100)),
    h("td", {}, s.average_per_deal === null ? "—" : num(s.average_per_deal))));
  const facts = [];
  const shown = {};
  for (const key of ["chips", "xp", "level"]) {
    if (p[key] === undefined || p[key] === null || p.robot_of) continue; // a robot account wins none
    shown[key] = h("strong", {}, num(p[key]));
    facts.push(h("li", { dataset: { fact: key } }, t(`profile.${key}`), " ", shown[key]));
  }
  const own = app.registered && app.me && app.me.name === p.name;
  const claim = own && shown.chips && p.chips < CLAIM_BELOW ? claimBox(app, shown.chips) : "";
  const badges = (p.badges || []).map((b) => h("li", { class: "badge-item", dataset: { badge: b.badge },
    title: t(`badge.${b.badge}.what`, {}, b.what || "") }, h("span", { class: "medal", "aria-hidden": "true" }), t(`badge.${b.badge}`, {}, b.what || b.badge)));
  const recent = (p.recent || []).map((g) => h("li", {},
    h("a", { href: `#/g/${encodeURIComponent(g.game)}` }, dateTime(g.ended_at)), " — ",
    t(g.place === 1 ? "profile.place_first" : "profile.place", { place: g.place, n: g.players }), " ", h("strong", {}, signed(g.total)),
    g.abandoned ? ` (${t("seat.abandoned")})` : "", g.competitive ? "" : ` (${t("lobby.practice")})`));
  const friendButton = app.registered && app.me && app.me.name !== p.name && !p.robot_of ? friendship(app, p.name) : "";
  replace(main, h("section", { class: "card-box profile" },
    h("h1", {}, p.name), p.robot_of ? h("p", { class: "robot-of" }, h("span", { class: "tag robot" }, t("robot.tag")), " ",
      t("robot.of", { name: p.robot_of })) : "", friendButton,
    own ? h("p", {}, h("a", { href: "#/account" }, t("profile.account_link"))) : "",
    facts.length ? h("ul", { class: "facts" }, facts) : "", claim,
    badges.length ? h("ul", { class: "badges", "aria-label": t("profile.badges") }, badges) : "",
    historyCharts(p.history),
    p.robot_of ? "" : insightsBox(app, p.name),
    h("div", { class: "sheet-scroll", tabindex: "0" }, h("table", { class: "stats" }, h("caption", {}, t("profile.stats")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("create.players"))), ["games", "wins", "abandoned", "deals", "taker_success", "average"].map((k) => h("th", { scope: "col" }, t(`profile.${k}`))))),
      h("tbody", {}, stats))),
    h("h2", {}, t("profile.recent")),
    recent.length ? h("ol", { class: "recent" }, recent) : h("p", { class: "hint" }, t("profile.no_games")),
    tournamentsBox(p.name)));
}

/** Where you stand with ``name``, on their profile: a button to ask them, your request waiting, theirs to
 * answer, or friends; drawn again on your click and when they answer (the button stayed as it was). */
function friendship(app, name) {
  const box = h("div", { class: "friendship", "aria-live": "polite" });
  const key = name.toLocaleLowerCase();
  const has = (list) => list.some((n) => n.toLocaleLowerCase() === key);
  const act = async (action) => {
    try {
      draw(await api("/api/friends", { action, name }));
      if (action === "request") app.toast(t("friends.sent", { name }));
    } catch (err) {
      app.toast(app.errorText(err), "error");
    }
  };
  const draw = (f) => {
    if (!box.isConnected && box.dataset.state) return; // another page now
    let state = "none";
    if (has(f.friends)) state = "friends";
    else if (has(f.outgoing)) state = "outgoing";
    else if (has(f.incoming)) state = "incoming";
    box.dataset.state = state;
    if (state === "friends") replace(box, h("p", {}, t("friend.friends", { name })));
    else if (state === "outgoing") replace(box, h("p", {}, t("friends.waiting", { name })));
    else if (state === "incoming") {
      replace(box, h("p", {}, t("friend.requested", { name }), " ",
        h("button", { type: "button", onclick: () => act("accept") }, t("friends.accept")), " ",
        h("button", { type: "button", class: "quiet", onclick: () => act("refuse") }, t("friends.refuse"))));
    } else replace(box, h("button", { type: "button", onclick: () => act("request") }, t("friends.add")));
  };
  const ask = () => api("/api/friends").then(draw, () => {});
  app.refreshFriendship = () => { if (box.isConnected) ask(); }; // a friend message came: they answered, or asked
  ask();
  return box;
}

/** The person's tournaments (docs/tournaments.md), asked for after the profile: a list, or nothing. */
function tournamentsBox(name) {
  const box = h("section", { class: "profile-tournaments", hidden: true }, h("h2", {}, t("profile.tournaments")));
  Promise.all([api(`/api/tournaments?player=${encodeURIComponent(name)}`), import("./tournaments.js")]).then(([found, words]) => {
    const all = [...found.running, ...found.open, ...found.finished];
    if (!all.length) return;
    box.append(h("ul", {}, all.map((x) => h("li", { dataset: { id: x.id, status: x.status } },
      h("a", { href: `#/tournaments/${encodeURIComponent(x.id)}` }, x.name), ` — ${words.statusWord(x.status)}`))));
    box.hidden = false;
  }).catch(() => {});
  return box;
}

/** The profile's drawings: chips after each movement, and the rating game by game for one player count
 * (the one most played, others a click away). */
function historyCharts(history) {
  if (!history) return "";
  const figures = [];
  const chips = history.chips || [];
  if (chips.length) {
    const first = chips[0][1];
    const last = chips[chips.length - 1][1];
    figures.push(h("figure", { class: "chart-box", dataset: { chart: "chips" } },
      h("figcaption", {}, t("profile.chart_chips")),
      lineChart({ points: chips, kind: "chips", label: t("profile.chart_chips_label", { first, last, n: chips.length }) })));
  }
  const ratings = history.ratings || {};
  const counts = Object.keys(ratings).sort((a, b) => ratings[b].length - ratings[a].length || a - b);
  if (counts.length) {
    const box = h("figure", { class: "chart-box", dataset: { chart: "rating" } });
    const draw = (count) => {
      const rows = ratings[count];
      const last = rows[rows.length - 1];
      replace(box,
        h("figcaption", {}, t("profile.chart_rating", { n: count }),
          counts.length > 1 ? h("span", { class: "row counts", role: "group", "aria-label": t("board.players") },
            counts.map((c) => h("button", { type: "button", class: c === count ? "primary" : "quiet", "aria-pressed": String(c === count), onclick: () => draw(c) }, t("lobby.players", { n: c })))) : ""),
        lineChart({
          points: rows.map((r) => [r[0], r[1]]), band: rows.map((r) => [r[1] - r[2], r[1] + r[2]]), kind: "rating",
          format: (v) => num(v, 1), label: t("profile.chart_rating_label", { n: count, games: rows.length, mu: num(last[1], 1), sigma: num(last[2], 1) }),
        }),
        h("p", { class: "hint" }, t("profile.chart_rating_hint")));
    };
    draw(counts[0]);
    figures.push(box);
  }
  return figures.length ? h("section", { class: "history", "aria-label": t("profile.history") }, h("h2", {}, t("profile.history")), h("div", { class: "charts" }, figures)) : "";
}

/** The table where you would invite a friend: one where you sit, waiting for people first. */
function myTable(app) {
  const mine = [...app.tables.values()].filter((x) => x.you !== null && x.you !== undefined);
  return mine.find((x) => x.status === "waiting" && x.free > 0) || mine.find((x) => x.quick && x.claimable > 0) || mine[0] || null;
}

/** One friend: where they are on the site, and what you may do about it (join them, invite them). */
function friendItem(app, name, seen = { status: "offline", table: null }, ...extra) {
  const status = seen.status || "offline";
  const mine = myTable(app);
  const actions = [];
  if (seen.table && (!mine || mine.id !== seen.table)) {
    actions.push(h("button", { type: "button", class: "primary", onclick: () => app.go(`t/${seen.table}`), "aria-label": t("friends.join_label", { name }) }, t("friends.join")));
  }
  if (mine && status !== "offline" && seen.table !== mine.id) {
    actions.push(h("button", {
      type: "button", "aria-label": t("friends.invite_label", { name }), onclick: async () => {
        try {
          await app.net.request({ type: "invite", table: mine.id, name });
          app.toast(t("invite.sent", { name }));
        } catch (err) {
          app.toast(app.errorText(err), "error");
        }
      },
    }, t("friends.invite")));
  }
  return h("li", { class: `friend ${status}`, dataset: { friend: name, status } },
    h("span", { class: `presence ${status}`, "aria-hidden": "true" }),
    h("a", { href: `#/p/${encodeURIComponent(name)}` }, name), " ",
    h("span", { class: "status" }, t(`presence.${status}`)), " ", actions, extra);
}

/** The lobby's box of friends on the site now, kept fresh while the lobby shows it. */
export function friendsBox(app) {
  if (!app.registered) return "";
  const list = h("div", { class: "friends-now" }, h("p", { class: "hint" }, t("loading")));
  const box = h("section", { class: "card-box friends-box", id: "friends-box", "aria-labelledby": "friends-box-title" },
    h("h2", { id: "friends-box-title" }, h("a", { href: "#/friends" }, t("friends.title"))), list);
  const refresh = async () => {
    if (!box.isConnected && box.dataset.shown) {
      clearInterval(timer);
      return;
    }
    let f;
    try {
      f = await api("/api/friends");
    } catch {
      return;
    }
    box.dataset.shown = "1";
    const here = f.friends.filter((n) => ((f.presence || {})[n] || {}).status !== "offline" && (f.presence || {})[n]);
    const away = f.friends.length - here.length;
    replace(list,
      here.length ? h("ul", { class: "friend-list" }, here.map((n) => friendItem(app, n, f.presence[n]))) : "",
      !f.friends.length ? h("p", { class: "hint" }, t("friends.none_yet")) : away ? h("p", { class: "hint" }, t("friends.away", { n: away })) : "");
  };
  const timer = setInterval(refresh, 10000);
  refresh();
  app.refreshFriends = refresh;
  return box;
}

/** A stored game (#/g/ID): each deal in order on one line, void ones said so and numbered as the score
 * sheet numbers the others, each with its review and its download (what `atout verify FILE` checks). */
export async function renderGame(app, main, id) {
  let g;
  try {
    g = await api(`/api/games/${encodeURIComponent(id)}`);
  } catch (err) {
    replace(main, h("section", { class: "card-box" }, h("p", {}, app.errorText(err))));
    return;
  }
  const nameOf = (seat) => (!g.seats[seat] ? t("table.seat_n", { n: seat + 1 }) : g.seats[seat].deleted ? t("player.deleted") : g.seats[seat].name);
  let voids = 0;
  const rows = g.sheet.map((line, i) => {
    const number = i + 1; // the deal's place in the game, void ones included: its review and download
    const label = line.void ? t("game.void_label", { n: ++voids }) : t("game.deal_label", { n: line.number });
    const data = { game: g.id, deal: number, commitment: (g.commitments || [])[i] || null, seed: (g.records[i] || {}).seed, record: g.records[i] };
    return h("tr", { class: line.void ? "void" : "", dataset: { deal: String(number) } },
      h("th", { scope: "row" }, h("span", { class: "label" }, label),
        h("span", { class: "deal-links" },
          h("a", { href: `#/g/${encodeURIComponent(g.id)}/${number}`, "aria-label": t("game.review_label", { what: label }) }, t("game.review")),
          g.records[i] ? downloadLink(data, t("game.download")) : "")),
      h("td", {}, line.void ? t(`result.void.${line.void}`, {}, t("sheet.void")) : `${nameOf(line.taker)} ${contractWord(line.contract)} ${line.made ? "✓" : "✗"}`),
      (line.scores || []).map((sc) => h("td", { class: "num" }, signed(sc))));
  });
  replace(main, h("section", { class: "card-box game-page", dataset: { game: g.id } },
    h("h1", {}, t("game.title", { id: g.id })),
    h("div", { class: "sheet-scroll", tabindex: "0" }, h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("game.deal")), h("th", { scope: "col" }, t("sheet.contract")),
        g.seats.map((s) => h("th", { scope: "col", class: "num" }, s.deleted ? t("player.deleted") : shownName(app.catalogue, s.name))))),
      h("tbody", {}, rows))),
    h("p", { class: "hint" }, withCode(t("game.replay_hint")))));
}

export async function renderLeaderboard(app, main, query = { players: 4, period: "week", page: 1 }) {
  let board;
  try {
    board = await api(`/api/leaderboard?players=${query.players}&period=${query.period}&page=${query.page}`);
  } catch (err) {
    replace(main, h("p", {}, app.errorText(err)));
    return;
  }
  const pick = (key, values, words) => h("div", { class: "row", role: "group", "aria-label": t(`board.${key}`) },
    values.map((v) => h("button", { class: v === query[key] ? "primary" : "quiet", "aria-pressed": String(v === query[key]), onclick: () => renderLeaderboard(app, main, { ...query, [key]: v, page: 1 }) }, words(v))));
  const rows = board.rows.map((r) => h("tr", {},
    h("td", {}, num(r.rank)), h("td", {}, h("a", { href: `#/p/${encodeURIComponent(r.name)}` }, r.name)),
    h("td", { class: "num" }, num(r.points)), h("td", { class: "num" }, num(r.games)), h("td", { class: "num" }, num(r.wins)),
    h("td", { class: "num" }, r.level !== undefined ? num(r.level) : "—"),
    h("td", { class: "num" }, r.rating ? `${num(r.rating.mu, 1)} ± ${num(3 * r.rating.sigma, 1)}` : "—")));
  const pages = Math.max(1, Math.ceil(board.total / board.per_page));
  replace(main, h("section", { class: "card-box" },
    h("h1", {}, t("board.title")),
    pick("players", [3, 4, 5], (n) => t("lobby.players", { n })),
    pick("period", ["week", "month", "all"], (p) => t(`board.${p}`)),
    h("div", { class: "sheet-scroll", tabindex: "0", role: "region", "aria-label": t("board.title") }, // at 320 px its seven columns scroll, not the page
      h("table", { class: "board" },
        h("thead", {}, h("tr", {}, ["rank", "name", "points", "games", "wins", "level", "rating"].map((k) => h("th", { scope: "col" }, t(`board.${k}`))))),
        h("tbody", {}, rows))),
    board.rows.length ? "" : h("p", { class: "hint" }, t("board.empty")),
    h("div", { class: "row" },
      h("button", { class: "quiet", disabled: query.page <= 1, onclick: () => renderLeaderboard(app, main, { ...query, page: query.page - 1 }) }, t("board.previous")),
      h("span", {}, t("board.page", { page: query.page, pages })),
      h("button", { class: "quiet", disabled: query.page >= pages, onclick: () => renderLeaderboard(app, main, { ...query, page: query.page + 1 }) }, t("board.next")))));
}

export async function renderFriends(app, main) {
  let f;
  try {
    f = await api("/api/friends");
  } catch (err) {
    replace(main, h("p", {}, app.errorText(err)));
    return;
  }
  const act = async (action, name) => {
    try {
      await api("/api/friends", { action, name });
      renderFriends(app, main);
    } catch (err) {
      app.toast(app.errorText(err), "error");
    }
  };
  app.refreshFriends = () => renderFriends(app, main); // again when a table changes: a friend may have sat
  app.followLobby(); // the tables where you sit (where "Invite to my table" invites), kept live
  const input = h("input", { name: "friend", maxlength: 20, "aria-label": t("friends.name"), placeholder: t("friends.name") });
  clearTimeout(app.friendsPoll); // and every ten seconds: a friend may have come online or gone
  app.friendsPoll = setTimeout(() => { if (location.hash === "#/friends") renderFriends(app, main); }, 10000);
  replace(main, h("section", { class: "card-box friends" },
    h("h1", {}, t("friends.title")),
    h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) act("request", input.value.trim()); } },
      input, h("button", { type: "submit" }, t("friends.add"))),
    h("h2", {}, t("friends.incoming")),
    f.incoming.length ? h("ul", {}, f.incoming.map((n) => h("li", {}, n, " ",
      h("button", { onclick: () => act("accept", n) }, t("friends.accept")),
      h("button", { class: "quiet", onclick: () => act("refuse", n) }, t("friends.refuse"))))) : h("p", { class: "hint" }, t("friends.no_requests")),
    h("h2", {}, t("friends.list")),
    f.friends.length ? h("ul", { class: "friend-list" }, f.friends.map((n) => friendItem(app, n, (f.presence || {})[n],
      h("button", { class: "quiet", onclick: () => act("remove", n) }, t("friends.remove"))))) : h("p", { class: "hint" }, t("friends.none")),
    h("h2", {}, t("friends.outgoing")),
    f.outgoing.length ? h("ul", {}, f.outgoing.map((n) => h("li", {}, n))) : h("p", { class: "hint" }, t("friends.no_requests"))));
}
