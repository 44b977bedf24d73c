// The daily deal (docs/daily.md): today's set (its commitment, one click to copy), the person's one play
// of it (a button that starts it at a table of its own), the day's ranking (a second account's play from
// one address or browser shown unranked, and why), and once the day is over everyone's play of the same
// deals, each deal a link to its review (where one's own play is analysed). Past days stay browsable (#/daily/DAY), with their revealed seed and the whole set to
// download for `atout verify`. Its words are its own (both languages), looked up as i18n.js looks up its own (wordsFrom).

import { h, replace } from "./dom.js";
import { num, t, wordsFrom } from "./i18n.js";
import { levelLabel } from "./options.js";
import { signed } from "./result.js";
import { copyButton } from "./review.js";

const WORDS = {
  en: {
    nav: "Daily deal", title: "Daily deal of {day}", past_title: "Daily deal of {day}",
    what: "{deals} deals at four, against robots ({level}), the same for everyone today: play them once, and compare.",
    "what.one": "One deal at four, against robots ({level}), the same for everyone today: play it once, and compare.",
    commitment: "Today's deals come from a seed whose SHA-256 is", revealed: "The day's seed, revealed:",
    hidden: "The seed is revealed when the day is over (UTC).", play: "Play today's deal",
    guest: "Log in (or register) to play the daily deal.", playing: "Your play of today's deal goes on:",
    back: "back to your table", finished: "You played today's deal: {total} points.",
    abandoned: "You left today's deal: {total} points, ranked after those who played it to the end.",
    ranking: "The day's ranking", none: "Nobody has played this day yet.", place: "Place", name: "Player",
    total: "Points", status: "", "status.abandoned": "abandoned", "status.playing": "playing",
    plays: "Everyone's play of the same deals", plays_locked: "Everyone's play of the day, and its cards, are shown once the day is over (UTC): to nobody before, you included.",
    "unranked.same_address": "unranked: same address", "unranked.same_browser": "unranked: same browser",
    "you_unranked.same_address": "Your play is not ranked: another account played this day from the same address before you (one ranked play a person).",
    "you_unranked.same_browser": "Your play is not ranked: another account played this day from the same browser before you (one ranked play a person).",
    unranked_if: "One ranked play a person: another account has played today from this address or browser, so a play from here will be shown unranked.",
    deal: "deal {n}", yours: "(you)", past: "Past days", no_past: "No past day yet.",
    played_by: "{n} played", "played_by.one": "{n} played", download: "Download the whole day for atout verify",
    next: "Tomorrow's commitment:", today_link: "Today's deal",
  },
  fr: {
    nav: "Donne du jour", title: "Donne du jour du {day}", past_title: "Donne du jour du {day}",
    what: "{deals} donnes à quatre, contre des robots ({level}), les mêmes pour tous aujourd'hui : jouez-les une fois, et comparez.",
    "what.one": "Une donne à quatre, contre des robots ({level}), la même pour tous aujourd'hui : jouez-la une fois, et comparez.",
    commitment: "Les donnes du jour viennent d'une graine dont le SHA-256 est", revealed: "La graine du jour, révélée :",
    hidden: "La graine est révélée à la fin de la journée (UTC).", play: "Jouer la donne du jour",
    guest: "Connectez-vous (ou inscrivez-vous) pour jouer la donne du jour.", playing: "Votre partie du jour est en cours :",
    back: "retour à votre table", finished: "Vous avez joué la donne du jour : {total} points.",
    abandoned: "Vous avez quitté la donne du jour : {total} points, classé après ceux qui l'ont finie.",
    ranking: "Le classement du jour", none: "Personne n'a encore joué ce jour-là.", place: "Place", name: "Joueur",
    total: "Points", status: "", "status.abandoned": "abandon", "status.playing": "en cours",
    plays: "Le jeu de chacun sur les mêmes donnes", plays_locked: "Le jeu de chacun et ses cartes s'affichent à la fin de la journée (UTC) : à personne avant, vous compris.",
    "unranked.same_address": "non classé : même adresse", "unranked.same_browser": "non classé : même navigateur",
    "you_unranked.same_address": "Votre partie n'est pas classée : un autre compte a joué ce jour-là depuis la même adresse avant vous (une partie classée par personne).",
    "you_unranked.same_browser": "Votre partie n'est pas classée : un autre compte a joué ce jour-là depuis le même navigateur avant vous (une partie classée par personne).",
    unranked_if: "Une partie classée par personne : un autre compte a joué aujourd'hui depuis cette adresse ou ce navigateur, une partie jouée d'ici sera donc non classée.",
    deal: "donne {n}", yours: "(vous)", past: "Jours passés", no_past: "Pas encore de jour passé.",
    played_by: "{n} joueurs", "played_by.one": "{n} joueur", download: "Télécharger toute la journée pour atout verify",
    next: "Engagement de demain :", today_link: "La donne du jour",
  },
  es: {
    nav: "Ronda del día", title: "Ronda del día {day}", past_title: "Ronda del día {day}",
    what: "{deals} rondas a cuatro, contra robots ({level}), las mismas para todos hoy: juégalas una vez y compara.",
    "what.one": "Una ronda a cuatro, contra robots ({level}), la misma para todos hoy: júgala una vez y compara.",
    commitment: "Las rondas de hoy salen de una semilla cuyo SHA-256 es", revealed: "La semilla del día, revelada:",
    hidden: "La semilla se revela cuando termina el día (UTC).", play: "Jugar la ronda del día",
    guest: "Inicia sesión (o regístrate) para jugar la ronda del día.", playing: "Tu partida del día sigue:",
    back: "volver a tu mesa", finished: "Has jugado la ronda del día: {total} puntos.",
    abandoned: "Dejaste la ronda del día: {total} puntos, clasificado detrás de quienes la terminaron.",
    ranking: "La clasificación del día", none: "Nadie ha jugado todavía este día.", place: "Puesto", name: "Jugador",
    total: "Puntos", status: "", "status.abandoned": "abandono", "status.playing": "jugando",
    plays: "El juego de cada uno en las mismas rondas", plays_locked: "El juego de cada uno y sus cartas se muestran cuando termina el día (UTC): a nadie antes, tampoco a ti.",
    "unranked.same_address": "sin clasificar: misma dirección", "unranked.same_browser": "sin clasificar: mismo navegador",
    "you_unranked.same_address": "Tu partida no está clasificada: otra cuenta jugó ese día desde la misma dirección antes que tú (una partida clasificada por persona).",
    "you_unranked.same_browser": "Tu partida no está clasificada: otra cuenta jugó ese día desde el mismo navegador antes que tú (una partida clasificada por persona).",
    unranked_if: "Una partida clasificada por persona: otra cuenta ya jugó hoy desde esta dirección o este navegador, así que una partida jugada desde aquí saldrá sin clasificar.",
    deal: "ronda {n}", yours: "(tú)", past: "Días anteriores", no_past: "Todavía no hay días anteriores.",
    played_by: "{n} han jugado", "played_by.one": "{n} ha jugado", download: "Descargar todo el día para atout verify",
    next: "Compromiso de mañana:", today_link: "La ronda del día",
  },
};
export const KEYS = WORDS; // the tests check every language has the same keys

const w = wordsFrom(WORDS);

async function get(path) {
  const answer = await fetch(path, { credentials: "same-origin" });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw data.error || { code: String(answer.status), message: answer.statusText };
  return data;
}

function rankingTable(rows, me) {
  if (!rows.length) return h("p", { class: "hint" }, w("none"));
  return h("table", { class: "board daily-ranking" },
    h("thead", {}, h("tr", {}, ["place", "name", "total", "status"].map((k) => h("th", { scope: "col" }, w(k))))),
    h("tbody", {}, rows.map((r) => h("tr", { class: me && r.name === me ? "you" : "", dataset: { name: r.name, status: r.status } },
      h("td", {}, r.place === null ? "—" : num(r.place)),
      h("td", {}, h("a", { href: `#/p/${encodeURIComponent(r.name)}` }, r.name)),
      h("td", { class: "num" }, r.total === null ? "—" : signed(r.total)),
      h("td", {}, r.status === "finished" ? "" : w(`status.${r.status}`),
        r.unranked ? h("span", { class: "tag daily-unranked", dataset: { unranked: r.unranked } }, w(`unranked.${r.unranked}`)) : "")))));
}

function playsList(plays, me) {
  return h("ol", { class: "daily-plays" }, plays.map((p) => h("li", { dataset: { name: p.name } },
    h("strong", {}, p.name), me && p.name === me ? ` ${w("yours")}` : "", ` — ${signed(p.total)} `,
    p.status === "abandoned" ? h("span", { class: "tag" }, w("status.abandoned")) : "", " ",
    p.game ? p.records.map((_, k) => [h("a", { href: `#/g/${encodeURIComponent(p.game)}/${k + 1}`, class: "deal-link" },
      w("deal", { n: k + 1 })), " "]) : "")));
}

let styled = false;
/** The page's own style sheet, added once (the site allows no inline style). */
function ensureStyle() {
  if (styled || document.querySelector("link[data-daily]")) return;
  styled = true;
  document.head.append(h("link", { rel: "stylesheet", href: import.meta.resolve("/static/daily.css"), dataset: { daily: "1" } }));
}

/** The daily page: today's (no `day`), or a past day's (#/daily/DAY). */
export async function renderDaily(app, main, day = "") {
  ensureStyle();
  replace(main, h("p", { class: "hint" }, "…"));
  const me = app.me && app.me.registered ? app.me.name : null;
  let today;
  let shown;
  try {
    today = await get("/api/daily");
    shown = await get(`/api/daily/${encodeURIComponent(day || today.day)}`);
  } catch (err) {
    replace(main, h("section", { class: "card-box" }, h("p", {}, app.errorText(err))));
    return;
  }
  const isToday = shown.day === today.day;
  const message = h("p", { class: "refusal", role: "status" });
  const parts = [h("h1", {}, w(isToday ? "title" : "past_title", { day: shown.day })),
    h("p", {}, w("what", { n: shown.deals, deals: shown.deals, level: levelLabel(app.catalogue || {}, shown.level) }))];
  parts.push(h("p", { class: "commitment-line" }, w("commitment"), " ", h("code", { class: "commitment-full" }, shown.commitment), " ",
    copyButton(shown.commitment, t("review.copy"), app.toast)));
  if (shown.seed) {
    parts.push(h("p", {}, w("revealed"), " ", h("code", { class: "daily-seed" }, shown.seed), " ",
      h("a", { href: `/api/daily/${encodeURIComponent(shown.day)}/deals`, download: `atout-daily-${shown.day}.json` }, w("download"))));
  } else {
    parts.push(h("p", { class: "hint" }, w("hidden")));
  }
  if (isToday) {
    const played = today.played;
    if (!today.registered) {
      parts.push(h("p", { class: "daily-status" }, w("guest")));
    } else if (!played) {
      const button = h("button", { type: "button", class: "primary daily-play", onclick: async () => {
        button.disabled = true;
        message.textContent = "";
        try {
          const answer = await app.net.request({ type: "daily" });
          app.go(`t/${answer.table}`);
        } catch (err) {
          message.textContent = app.errorText(err);
          button.disabled = false;
        }
      } }, w("play"));
      parts.push(h("p", { class: "daily-status" }, button), message);
      if (today.unranked_if_played) parts.push(h("p", { class: "hint daily-unranked-if" }, w("unranked_if")));
    } else if (played.status === "playing") {
      parts.push(h("p", { class: "daily-status" }, w("playing"), " ", h("a", { href: `#/t/${encodeURIComponent(played.table)}` }, w("back"))));
    } else {
      parts.push(h("p", { class: "daily-status", dataset: { status: played.status } }, w(played.status, { total: signed(played.total) })));
    }
    if (played && played.unranked) {
      parts.push(h("p", { class: "daily-status daily-unranked", dataset: { unranked: played.unranked } }, w(`you_unranked.${played.unranked}`)));
    }
    parts.push(h("p", { class: "hint" }, w("next"), " ", h("code", {}, today.next.commitment)));
  } else {
    parts.push(h("p", {}, h("a", { href: "#/daily" }, w("today_link"))));
  }
  parts.push(h("h2", {}, w("ranking")), rankingTable(shown.ranking, me));
  const playsBox = h("section", { class: "daily-plays-box" }, h("h2", {}, w("plays")));
  parts.push(playsBox);
  const pastBox = h("section", { class: "daily-past" }, h("h2", {}, w("past")));
  parts.push(pastBox);
  replace(main, h("section", { class: "card-box daily", dataset: { day: shown.day } }, parts));
  if (!shown.over && shown.ranking.length) {
    playsBox.append(h("p", { class: "hint" }, w("plays_locked")));
  } else if (shown.ranking.some((r) => r.status !== "playing")) {
    get(`/api/daily/${encodeURIComponent(shown.day)}/plays`)
      .then((p) => playsBox.append(playsList(p.plays, me)))
      .catch(() => playsBox.append(h("p", { class: "hint" }, w("plays_locked"))));
  } else {
    playsBox.hidden = true;
  }
  get("/api/daily/days").then((d) => pastBox.append(d.days.length
    ? h("ul", {}, d.days.map((x) => h("li", {}, h("a", { href: `#/daily/${x.day}` }, x.day), " — ", w("played_by", { n: x.plays }))))
    : h("p", { class: "hint" }, w("no_past")))).catch(() => {});
}
