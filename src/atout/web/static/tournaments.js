// Duplicate tournaments (docs/tournaments.md): the list (open, running, finished), a form to create one,
// and a tournament's page (#/tournaments/ID): its options and commitment, who registered, a button to
// register or unregister, the person's table while a round is played, the live ranking by total duplicate
// score, and after each round every deal's scores seat by seat, each table's game a link to its review
// (#/g/GAME/N). Its words are its own (both languages), as daily.js's.

import { h, replace } from "./dom.js";
import { dateTime, num, t, wordsFrom } from "./i18n.js";
import { levelLabel } from "./options.js";
import { signed } from "./result.js";
import { copyButton } from "./review.js";

const WORDS = {
  en: {
    title: "Tournaments", intro: "Duplicate tournaments: every table plays the same deals from the same seats, and each seat is scored against the same seat at the other tables.",
    open: "Registration open", running: "Being played", finished: "Finished", none: "None.",
    create: "Create a tournament", name: "Name", deals: "Deals a round", players: "Players a table", rounds: "Rounds",
    start: "Start", when_full: "When full, with", people: "people", at_time: "At", private: "Private (by its link only)",
    make: "Create", guest: "Log in (or register) to create or join a tournament.",
    summary: "Deals a round: {deals} · rounds: {rounds} · {players} a table · robots: {level}.",
    starts_at: "Starts at {time}.", starts_full: "Starts when {size} people have registered.",
    entries: "Registered ({n})", register: "Register", unregister: "Unregister", your_table: "Your table is ready:",
    go_table: "play", commitment: "The deals come from a seed whose SHA-256 is", seed: "The seed, revealed:",
    ranking: "Ranking", live: "live", place: "Place", player: "Player", total: "Duplicate score", scored: "Deals",
    abandoned: "abandoned", tables: "Tables", round: "Round {n}", table: "Table {n}", robot: "robot",
    deal: "deal {n}", scores: "Deal by deal", deal_seat: "Deal", seat: "Seat", points: "Points", mean: "Mean",
    score: "Score", played: "Deals played: {n}", closed: "over", hidden: "Each deal's scores are shown once every table of its round has played it.",
    status_open: "registration open", status_running: "being played", status_finished: "finished", status_cancelled: "cancelled",
    back: "All tournaments",
    download: "Download every deal of every table for atout verify", deal_label: "round {r}, deal {k}",
  },
  fr: {
    title: "Tournois", intro: "Tournois en duplicate : chaque table joue les mêmes donnes aux mêmes places, et chaque place est comparée à la même place des autres tables.",
    open: "Inscriptions ouvertes", running: "En cours", finished: "Terminés", none: "Aucun.",
    create: "Créer un tournoi", name: "Nom", deals: "Donnes par tour", players: "Joueurs par table", rounds: "Tours",
    start: "Début", when_full: "Quand il est complet, à", people: "personnes", at_time: "À", private: "Privé (par son lien seulement)",
    make: "Créer", guest: "Connectez-vous (ou inscrivez-vous) pour créer un tournoi ou y participer.",
    summary: "Donnes par tour : {deals} · tours : {rounds} · {players} par table · robots : {level}.",
    starts_at: "Début à {time}.", starts_full: "Commence quand {size} personnes sont inscrites.",
    entries: "Inscrits ({n})", register: "S'inscrire", unregister: "Se désinscrire", your_table: "Votre table est prête :",
    go_table: "jouer", commitment: "Les donnes viennent d'une graine dont le SHA-256 est", seed: "La graine, révélée :",
    ranking: "Classement", live: "en direct", place: "Place", player: "Joueur", total: "Score duplicate", scored: "Donnes",
    abandoned: "abandon", tables: "Tables", round: "Tour {n}", table: "Table {n}", robot: "robot",
    deal: "donne {n}", scores: "Donne par donne", deal_seat: "Donne", seat: "Place", points: "Points", mean: "Moyenne",
    score: "Score", played: "Donnes jouées : {n}", closed: "finie", hidden: "Les scores de chaque donne s'affichent quand toutes les tables de son tour l'ont jouée.",
    status_open: "inscriptions ouvertes", status_running: "en cours", status_finished: "terminé", status_cancelled: "annulé",
    back: "Tous les tournois",
    download: "Télécharger toutes les donnes de toutes les tables pour atout verify", deal_label: "tour {r}, donne {k}",
  },
  es: {
    title: "Torneos", intro: "Torneos duplicados: todas las mesas juegan las mismas rondas desde los mismos asientos, y cada asiento se puntúa frente al mismo asiento de las demás mesas.",
    open: "Inscripción abierta", running: "En juego", finished: "Terminados", none: "Ninguno.",
    create: "Crear un torneo", name: "Nombre", deals: "Rondas por vuelta", players: "Jugadores por mesa", rounds: "Vueltas",
    start: "Comienzo", when_full: "Cuando esté completo, con", people: "personas", at_time: "A las", private: "Privado (solo con su enlace)",
    make: "Crear", guest: "Inicia sesión (o regístrate) para crear un torneo o apuntarte.",
    summary: "Rondas por vuelta: {deals} · vueltas: {rounds} · {players} por mesa · robots: {level}.",
    starts_at: "Comienza a las {time}.", starts_full: "Comienza cuando se hayan inscrito {size} personas.",
    entries: "Inscritos ({n})", register: "Inscribirme", unregister: "Borrarme", your_table: "Tu mesa está lista:",
    go_table: "jugar", commitment: "Las rondas salen de una semilla cuyo SHA-256 es", seed: "La semilla, revelada:",
    ranking: "Clasificación", live: "en directo", place: "Puesto", player: "Jugador", total: "Puntuación duplicada", scored: "Rondas",
    abandoned: "abandono", tables: "Mesas", round: "Vuelta {n}", table: "Mesa {n}", robot: "robot",
    deal: "ronda {n}", scores: "Ronda a ronda", deal_seat: "Ronda", seat: "Asiento", points: "Puntos", mean: "Media",
    score: "Puntuación", played: "Rondas jugadas: {n}", closed: "terminada", hidden: "Los puntos de cada ronda se muestran cuando todas las mesas de su vuelta la han jugado.",
    status_open: "inscripción abierta", status_running: "en juego", status_finished: "terminado", status_cancelled: "cancelado",
    back: "Todos los torneos",
    download: "Descargar todas las rondas de todas las mesas para atout verify", deal_label: "vuelta {r}, ronda {k}",
  },
};
export const KEYS = WORDS; // the tests check every language has the same keys

/** A tournament's status in the page's language (a profile lists them too). */
export const statusWord = (status) => w(`status_${status}`);

const w = wordsFrom(WORDS);

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
    w("summary", { deals: x.deals, rounds: x.rounds, players: x.players, level: levelLabel(app.catalogue || {}, x.level) }), " ",
    h("span", { class: "tag" }, `${x.entries}`), x.private ? ` (${w("private").split(" (")[0]})` : "");
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
  const size = h("input", { name: "size", type: "number", min: 5, max: 200, value: 5, "aria-label": `${w("when_full")} (${w("people")})` });
  const when = h("input", { name: "starts_at", type: "datetime-local", "aria-label": `${w("start")}: ${w("at_time")}` });
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
  h("h2", {}, w("create")),
  field(w("name"), name), field(w("deals"), deals), field(w("players"), players), field(w("rounds"), rounds),
  h("fieldset", { class: "t-start" }, h("legend", {}, w("start")),
    h("label", {}, full, " ", w("when_full"), " ", size, " ", w("people")),
    h("label", {}, timed, " ", w("at_time"), " ", when)),
  h("label", { class: "t-check" }, priv, " ", w("private")),
  h("button", { type: "submit", class: "primary" }, w("make")), message);
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
  const parts = [h("h1", {}, w("title")), h("p", { class: "hint" }, w("intro"))];
  for (const kind of ["open", "running", "finished"]) {
    parts.push(h("h2", {}, w(kind)), listed[kind].length
      ? h("ul", { class: `t-list t-${kind}` }, listed[kind].map((x) => line(app, x))) : h("p", { class: "hint" }, w("none")));
  }
  parts.push(app.registered ? createForm(app, message) : h("p", { class: "hint" }, w("guest")));
  replace(main, h("section", { class: "card-box tournaments" }, parts));
}

/** A deal's key `ROUND.K` (from 0) as people count, short ("1.2": round 1, deal 2; its words as its title). */
function dealCell(key) {
  const [r, k] = String(key).split(".").map(Number);
  return h("td", { title: w("deal_label", { r: r + 1, k: k + 1 }) }, `${r + 1}.${k + 1}`);
}

function rankingTable(rows) {
  return h("div", { class: "sheet-scroll", tabindex: "0" }, h("table", { class: "board t-ranking" },
    h("thead", {}, h("tr", {}, ["place", "player", "total", "scored"].map((k) => h("th", { scope: "col" }, w(k))))),
    h("tbody", {}, rows.map((r) => h("tr", { class: r.you ? "you" : "", dataset: { name: r.name } },
      h("td", {}, num(r.place)),
      h("td", {}, h("a", { href: `#/p/${encodeURIComponent(r.name)}` }, r.name), r.abandoned ? h("span", { class: "tag" }, w("abandoned")) : ""),
      h("td", { class: "num" }, signed(r.total)),
      h("td", { class: "num" }, num(r.deals)))))));
}

function tablesList(tables) {
  const rounds = [...new Set(tables.map((x) => x.round))];
  return rounds.map((r) => h("div", { class: "t-round" }, h("h3", {}, w("round", { n: r + 1 })),
    h("ul", { class: "t-tables" }, tables.filter((x) => x.round === r).map((x) => h("li", { dataset: { table: x.table } },
      h("strong", {}, w("table", { n: x.number + 1 })), " ",
      x.names.map((n) => n || w("robot")).join(", "), " — ", w("played", { n: x.deals_done }), x.closed ? ` (${w("closed")})` : "",
      x.game ? [" ", Array.from({ length: x.deals_done }, (_, k) => [h("a", { class: "deal-link", href: `#/g/${encodeURIComponent(x.game)}/${k + 1}` },
        w("deal", { n: k + 1 })), " "])] : "")))));
}

function scoresTable(rows, tables) {
  const numberOf = new Map(tables.map((x) => [x.table, x.number + 1]));
  return h("div", { class: "sheet-scroll", tabindex: "0" }, h("table", { class: "board t-scores" },
    h("thead", {}, h("tr", {}, ["deal_seat", "seat", "table", "player", "points", "mean", "score"].map((k) => h("th", { scope: "col" }, w(k, { n: "" }).trim())))),
    h("tbody", {}, rows.map((r) => h("tr", { dataset: { deal: r.deal, seat: String(r.seat) } },
      dealCell(r.deal), h("td", {}, String(r.seat + 1)), h("td", {}, String(numberOf.get(r.table) || "")),
      h("td", {}, r.name || w("robot")), h("td", { class: "num" }, signed(r.points)),
      h("td", { class: "num" }, r.mean === null ? "—" : signed(r.mean)),
      h("td", { class: "num" }, r.score === null ? "—" : signed(r.score)))))));
}

async function renderOne(app, main, id) {
  let x;
  try {
    x = await call(`/api/tournaments/${encodeURIComponent(id)}`);
  } catch (err) {
    replace(main, h("section", { class: "card-box" }, h("p", {}, app.errorText(err)),
      h("p", {}, h("a", { href: "#/tournaments" }, w("back")))));
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
  const parts = [h("p", {}, h("a", { href: "#/tournaments" }, w("back"))),
    h("h1", {}, x.name, " ", h("span", { class: "tag t-status" }, statusWord(x.status))),
    h("p", {}, w("summary", { deals: x.deals, rounds: x.rounds, players: x.players, level: levelLabel(app.catalogue || {}, x.level) })),
    h("p", {}, x.starts_at ? w("starts_at", { time: dateTime(x.starts_at) }) : w("starts_full", { size: x.size })),
    h("p", { class: "commitment-line" }, w("commitment"), " ", h("code", {}, x.commitment), " ", copyButton(x.commitment, t("review.copy"), app.toast))];
  if (x.seed) {
    parts.push(h("p", {}, w("seed"), " ", h("code", { class: "t-seed" }, x.seed)));
    parts.push(h("p", {}, h("a", { class: "t-download", href: `/api/tournaments/${encodeURIComponent(x.id)}/deals`,
                                   download: `atout-tournament-${x.id}.json` }, w("download"))));
  }
  if (x.your_table) {
    parts.push(h("p", { class: "t-yours" }, w("your_table"), " ",
      h("a", { class: "primary t-play", href: `#/t/${encodeURIComponent(x.your_table)}` }, w("go_table"))));
  }
  if (x.status === "open") {
    if (!app.registered) parts.push(h("p", { class: "hint" }, w("guest")));
    else if (x.registered) parts.push(h("p", {}, h("button", { type: "button", class: "t-unregister", onclick: act("unregister") }, w("unregister")), message));
    else parts.push(h("p", {}, h("button", { type: "button", class: "primary t-register", onclick: act("register") }, w("register")), message));
  }
  parts.push(h("h2", {}, w("entries", { n: x.entries })), h("p", { class: "t-entries" }, x.entries_names.join(", ") || w("none")));
  if (x.status !== "open") {
    parts.push(h("h2", {}, w("ranking"), x.status === "running" ? h("span", { class: "tag" }, w("live")) : ""), rankingTable(x.ranking));
    parts.push(h("h2", {}, w("tables")), tablesList(x.tables));
    parts.push(h("h2", {}, w("scores")), x.deals_scores.length ? scoresTable(x.deals_scores, x.tables) : h("p", { class: "hint" }, w("hidden")));
  }
  replace(main, h("section", { class: "card-box tournament", dataset: { id: x.id, status: x.status } }, parts));
  if (x.status === "running" || x.status === "open") {
    refresh = setTimeout(() => {
      if (location.hash === `#/tournaments/${encodeURIComponent(id)}` || location.hash === `#/tournaments/${id}`) renderOne(app, main, id);
    }, 3000);
  }
}

export { stopRefresh };
