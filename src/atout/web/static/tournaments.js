// Duplicate tournaments (docs/tournaments.md): the list (open, running, finished), a form to create one,
// and a tournament's page (#/tournaments/ID): its options and commitment, who registered, a button to
// register or unregister, the person's table while a round is played, the live ranking by total duplicate
// score, and after each round every deal's scores seat by seat, each table's game a link to its review
// (#/g/GAME/N). Its words are the catalogues' tournaments.*, loaded with it (partWords).

import { h, replace } from "./dom.js";
import { dateTime, num, partWords, t } from "./i18n.js";
import { levelLabel } from "./options.js";
import { signed } from "./result.js";
import { copyButton } from "./review.js";

await partWords("tournaments");

/** A tournament's status in the page's language (a profile lists them too). */
export const statusWord = (status) => t(`tournaments.status_${status}`);

async function call(path, body) {
  const init = body === undefined ? { credentials: "same-origin" }
    : { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const answer = await fetch(path, init);
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw data.error || { code: String(answer.status), message: answer.statusText };
  return data;
}

let styled = false;
function ensureStyle() {
  if (styled || document.querySelector("link[data-tournaments]")) return;
  styled = true;
  document.head.append(h("link", { rel: "stylesheet", href: import.meta.resolve("/static/tournaments.css"), dataset: { tournaments: "1" } }));
}

let refresh = null; // the page's timer while a tournament is played (its ranking is live)
function stopRefresh() {
  if (refresh) clearTimeout(refresh);
  refresh = null;
}

function line(app, x) {
  return h("li", { dataset: { id: x.id } }, h("a", { href: `#/tournaments/${encodeURIComponent(x.id)}` }, x.name), " — ",
    t("tournaments.summary", { deals: x.deals, rounds: x.rounds, players: x.players, level: levelLabel(app.catalogue || {}, x.level) }), " ",
    h("span", { class: "tag" }, `${x.entries}`), x.private ? ` (${t("tournaments.private").split(" (")[0]})` : "");
}

function createForm(app, message) {
  const field = (label, input) => h("label", { class: "t-field" }, h("span", {}, label), input);
  const name = h("input", { name: "name", maxlength: 60, value: "Tournament", required: true });
  const deals = h("input", { name: "deals", type: "number", min: 1, max: 12, value: 4 });
  // two tables at least (each seat compared with the other table's): one more person than a table seats
  const players = h("select", { name: "players", onchange: () => { size.min = Number(players.value) + 1; if (Number(size.value) < size.min) size.value = size.min; } },
    h("option", { value: "4" }, "4"), h("option", { value: "5" }, "5"));
  const rounds = h("input", { name: "rounds", type: "number", min: 1, max: 10, value: 1 });
  const full = h("input", { type: "radio", name: "start", value: "full", checked: true });
  const timed = h("input", { type: "radio", name: "start", value: "time" });
  // each named for itself: their labels name the radio button before them (a label names its first field)
  const size = h("input", { name: "size", type: "number", min: 5, max: 200, value: 5, "aria-label": `${t("tournaments.when_full")} (${t("tournaments.people")})` });
  const when = h("input", { name: "starts_at", type: "datetime-local", "aria-label": `${t("tournaments.start")}: ${t("tournaments.at_time")}` });
  const priv = h("input", { name: "private", type: "checkbox" });
  return h("form", { class: "t-create", novalidate: true, onsubmit: async (e) => { // the server says what is wrong
    e.preventDefault();
    message.textContent = "";
    const body = { name: name.value, deals: Number(deals.value), players: Number(players.value), rounds: Number(rounds.value),
      private: priv.checked };
    if (timed.checked) body.starts_at = when.value ? new Date(when.value).getTime() / 1000 : null;
    else body.size = Number(size.value);
    try {
      const made = await call("/api/tournaments", body);
      app.go(`tournaments/${encodeURIComponent(made.id)}`);
    } catch (err) {
      message.textContent = app.errorText(err);
    }
  } },
  h("h2", {}, t("tournaments.create")),
  field(t("tournaments.name"), name), field(t("tournaments.deals"), deals), field(t("tournaments.players"), players), field(t("tournaments.rounds"), rounds),
  h("fieldset", { class: "t-start" }, h("legend", {}, t("tournaments.start")),
    h("label", {}, full, " ", t("tournaments.when_full"), " ", size, " ", t("tournaments.people")),
    h("label", {}, timed, " ", t("tournaments.at_time"), " ", when)),
  h("label", { class: "t-check" }, priv, " ", t("tournaments.private")),
  h("button", { type: "submit", class: "primary" }, t("tournaments.make")), message);
}

/** The tournaments page (#/tournaments), or one tournament's (#/tournaments/ID). */
export async function renderTournaments(app, main, id = "") {
  ensureStyle();
  stopRefresh();
  if (id) return renderOne(app, main, id);
  replace(main, h("p", { class: "hint" }, "…"));
  let listed;
  try {
    listed = await call("/api/tournaments");
  } catch (err) {
    replace(main, h("section", { class: "card-box" }, h("p", {}, app.errorText(err))));
    return;
  }
  const message = h("p", { class: "refusal", role: "alert" });
  const parts = [h("h1", {}, t("tournaments.title")), h("p", { class: "hint" }, t("tournaments.intro"))];
  for (const [kind, title] of [["open", "tournaments.open"], ["running", "tournaments.running"], ["finished", "tournaments.finished"]]) {
    parts.push(h("h2", {}, t(title)), listed[kind].length
      ? h("ul", { class: `t-list t-${kind}` }, listed[kind].map((x) => line(app, x))) : h("p", { class: "hint" }, t("tournaments.none")));
  }
  parts.push(app.registered ? createForm(app, message) : h("p", { class: "hint" }, t("tournaments.guest")));
  replace(main, h("section", { class: "card-box tournaments" }, parts));
}

/** A deal's key `ROUND.K` (from 0) as people count, short ("1.2": round 1, deal 2; its words as its title). */
function dealCell(key) {
  const [r, k] = String(key).split(".").map(Number);
  return h("td", { title: t("tournaments.deal_label", { r: r + 1, k: k + 1 }) }, `${r + 1}.${k + 1}`);
}

function rankingTable(rows) {
  return h("div", { class: "sheet-scroll", tabindex: "0" }, h("table", { class: "board t-ranking" },
    h("thead", {}, h("tr", {}, ["tournaments.place", "tournaments.player", "tournaments.total", "tournaments.scored"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, rows.map((r) => h("tr", { class: r.you ? "you" : "", dataset: { name: r.name } },
      h("td", {}, num(r.place)),
      h("td", {}, h("a", { href: `#/p/${encodeURIComponent(r.name)}` }, r.name), r.abandoned ? h("span", { class: "tag" }, t("tournaments.abandoned")) : ""),
      h("td", { class: "num" }, signed(r.total)),
      h("td", { class: "num" }, num(r.deals)))))));
}

function tablesList(tables) {
  const rounds = [...new Set(tables.map((x) => x.round))];
  return rounds.map((r) => h("div", { class: "t-round" }, h("h3", {}, t("tournaments.round", { n: r + 1 })),
    h("ul", { class: "t-tables" }, tables.filter((x) => x.round === r).map((x) => h("li", { dataset: { table: x.table } },
      h("strong", {}, t("tournaments.table", { n: x.number + 1 })), " ",
      x.names.map((n) => n || t("tournaments.robot")).join(", "), " — ", t("tournaments.played", { n: x.deals_done }), x.closed ? ` (${t("tournaments.closed")})` : "",
      x.game ? [" ", Array.from({ length: x.deals_done }, (_, k) => [h("a", { class: "deal-link", href: `#/g/${encodeURIComponent(x.game)}/${k + 1}` },
        t("tournaments.deal", { n: k + 1 })), " "])] : "")))));
}

function scoresTable(rows, tables) {
  const numberOf = new Map(tables.map((x) => [x.table, x.number + 1]));
  return h("div", { class: "sheet-scroll", tabindex: "0" }, h("table", { class: "board t-scores" },
    h("thead", {}, h("tr", {}, ["tournaments.deal_seat", "tournaments.seat", "tournaments.table", "tournaments.player",
      "tournaments.points", "tournaments.mean", "tournaments.score"].map((k) => h("th", { scope: "col" }, t(k, { n: "" }).trim())))),
    h("tbody", {}, rows.map((r) => h("tr", { dataset: { deal: r.deal, seat: String(r.seat) } },
      dealCell(r.deal), h("td", {}, String(r.seat + 1)), h("td", {}, String(numberOf.get(r.table) || "")),
      h("td", {}, r.name || t("tournaments.robot")), h("td", { class: "num" }, signed(r.points)),
      h("td", { class: "num" }, r.mean === null ? "—" : signed(r.mean)),
      h("td", { class: "num" }, r.score === null ? "—" : signed(r.score)))))));
}

async function renderOne(app, main, id) {
  let x;
  try {
    x = await call(`/api/tournaments/${encodeURIComponent(id)}`);
  } catch (err) {
    replace(main, h("section", { class: "card-box" }, h("p", {}, app.errorText(err)),
      h("p", {}, h("a", { href: "#/tournaments" }, t("tournaments.back")))));
    return;
  }
  const message = h("p", { class: "refusal", role: "alert" });
  const act = (path) => async () => {
    message.textContent = "";
    try {
      await call(`/api/tournaments/${encodeURIComponent(id)}/${path}`, {});
      renderOne(app, main, id);
    } catch (err) {
      message.textContent = app.errorText(err);
    }
  };
  const parts = [h("p", {}, h("a", { href: "#/tournaments" }, t("tournaments.back"))),
    h("h1", {}, x.name, " ", h("span", { class: "tag t-status" }, statusWord(x.status))),
    h("p", {}, t("tournaments.summary", { deals: x.deals, rounds: x.rounds, players: x.players, level: levelLabel(app.catalogue || {}, x.level) })),
    h("p", {}, x.starts_at ? t("tournaments.starts_at", { time: dateTime(x.starts_at) }) : t("tournaments.starts_full", { size: x.size })),
    h("p", { class: "commitment-line" }, t("tournaments.commitment"), " ", h("code", {}, x.commitment), " ", copyButton(x.commitment, t("review.copy"), app.toast))];
  if (x.seed) {
    parts.push(h("p", {}, t("tournaments.seed"), " ", h("code", { class: "t-seed" }, x.seed)));
    parts.push(h("p", {}, h("a", { class: "t-download", href: `/api/tournaments/${encodeURIComponent(x.id)}/deals`,
                                   download: `atout-tournament-${x.id}.json` }, t("tournaments.download"))));
  }
  if (x.your_table) {
    parts.push(h("p", { class: "t-yours" }, t("tournaments.your_table"), " ",
      h("a", { class: "primary t-play", href: `#/t/${encodeURIComponent(x.your_table)}` }, t("tournaments.go_table"))));
  }
  if (x.status === "open") {
    if (!app.registered) parts.push(h("p", { class: "hint" }, t("tournaments.guest")));
    else if (x.registered) parts.push(h("p", {}, h("button", { type: "button", class: "t-unregister", onclick: act("unregister") }, t("tournaments.unregister")), message));
    else parts.push(h("p", {}, h("button", { type: "button", class: "primary t-register", onclick: act("register") }, t("tournaments.register")), message));
  }
  parts.push(h("h2", {}, t("tournaments.entries", { n: x.entries })), h("p", { class: "t-entries" }, x.entries_names.join(", ") || t("tournaments.none")));
  if (x.status !== "open") {
    parts.push(h("h2", {}, t("tournaments.ranking"), x.status === "running" ? h("span", { class: "tag" }, t("tournaments.live")) : ""), rankingTable(x.ranking));
    parts.push(h("h2", {}, t("tournaments.tables")), tablesList(x.tables));
    parts.push(h("h2", {}, t("tournaments.scores")), x.deals_scores.length ? scoresTable(x.deals_scores, x.tables) : h("p", { class: "hint" }, t("tournaments.hidden")));
  }
  replace(main, h("section", { class: "card-box tournament", dataset: { id: x.id, status: x.status } }, parts));
  if (x.status === "running" || x.status === "open") {
    refresh = setTimeout(() => {
      if (location.hash === `#/tournaments/${encodeURIComponent(id)}` || location.hash === `#/tournaments/${id}`) renderOne(app, main, id);
    }, 3000);
  }
}

export { stopRefresh };
