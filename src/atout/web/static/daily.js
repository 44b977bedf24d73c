// The daily deal (docs/daily.md): today's set (its commitment, one click to copy), the person's one play
// of it (a button that starts it at a table of its own), the day's ranking (a second account's play from
// one address or browser shown unranked, and why), and once the day is over everyone's play of the same
// deals, each deal a link to its review (where one's own play is analysed). Past days stay browsable (#/daily/DAY), with their revealed seed and the whole set to
// download for `atout verify`. Its words are the catalogues' daily.*, loaded with it (partWords).

import { h, replace } from "./dom.js";
import { num, partWords, t } from "./i18n.js";
import { levelLabel } from "./options.js";
import { signed } from "./result.js";
import { copyButton } from "./review.js";

await partWords("daily");

async function get(path) {
  const answer = await fetch(path, { credentials: "same-origin" });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw data.error || { code: String(answer.status), message: answer.statusText };
  return data;
}

function rankingTable(rows, me) {
  if (!rows.length) return h("p", { class: "hint" }, t("daily.none"));
  return h("table", { class: "board daily-ranking" },
    h("thead", {}, h("tr", {}, ["daily.place", "daily.name", "daily.total", "daily.status"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, rows.map((r) => h("tr", { class: me && r.name === me ? "you" : "", dataset: { name: r.name, status: r.status } },
      h("td", {}, r.place === null ? "—" : num(r.place)),
      h("td", {}, h("a", { href: `#/p/${encodeURIComponent(r.name)}` }, r.name)),
      h("td", { class: "num" }, r.total === null ? "—" : signed(r.total)),
      h("td", {}, r.status === "finished" ? "" : t(`daily.status.${r.status}`),
        r.unranked ? h("span", { class: "tag daily-unranked", dataset: { unranked: r.unranked } }, t(`daily.unranked.${r.unranked}`)) : "")))));
}

function playsList(plays, me) {
  return h("ol", { class: "daily-plays" }, plays.map((p) => h("li", { dataset: { name: p.name } },
    h("strong", {}, p.name), me && p.name === me ? ` ${t("daily.yours")}` : "", ` — ${signed(p.total)} `,
    p.status === "abandoned" ? h("span", { class: "tag" }, t("daily.status.abandoned")) : "", " ",
    p.game ? p.records.map((_, k) => [h("a", { href: `#/g/${encodeURIComponent(p.game)}/${k + 1}`, class: "deal-link" },
      t("daily.deal", { n: k + 1 })), " "]) : "")));
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
  const parts = [h("h1", {}, t(isToday ? "daily.title" : "daily.past_title", { day: shown.day })),
    h("p", {}, t("daily.what", { n: shown.deals, deals: shown.deals, level: levelLabel(app.catalogue || {}, shown.level) }))];
  parts.push(h("p", { class: "commitment-line" }, t("daily.commitment"), " ", h("code", { class: "commitment-full" }, shown.commitment), " ",
    copyButton(shown.commitment, t("review.copy"), app.toast)));
  if (shown.seed) {
    parts.push(h("p", {}, t("daily.revealed"), " ", h("code", { class: "daily-seed" }, shown.seed), " ",
      h("a", { href: `/api/daily/${encodeURIComponent(shown.day)}/deals`, download: `atout-daily-${shown.day}.json` }, t("daily.download"))));
  } else {
    parts.push(h("p", { class: "hint" }, t("daily.hidden")));
  }
  if (isToday) {
    const played = today.played;
    if (!today.registered) {
      parts.push(h("p", { class: "daily-status" }, t("daily.guest")));
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
      } }, t("daily.play"));
      parts.push(h("p", { class: "daily-status" }, button), message);
      if (today.unranked_if_played) parts.push(h("p", { class: "hint daily-unranked-if" }, t("daily.unranked_if")));
    } else if (played.status === "playing") {
      parts.push(h("p", { class: "daily-status" }, t("daily.playing"), " ", h("a", { href: `#/t/${encodeURIComponent(played.table)}` }, t("daily.back"))));
    } else {
      parts.push(h("p", { class: "daily-status", dataset: { status: played.status } }, t(played.status === "abandoned" ? "daily.abandoned" : "daily.finished", { total: signed(played.total) })));
    }
    if (played && played.unranked) {
      parts.push(h("p", { class: "daily-status daily-unranked", dataset: { unranked: played.unranked } }, t(`daily.you_unranked.${played.unranked}`)));
    }
    parts.push(h("p", { class: "hint" }, t("daily.next"), " ", h("code", {}, today.next.commitment)));
  } else {
    parts.push(h("p", {}, h("a", { href: "#/daily" }, t("daily.today_link"))));
  }
  parts.push(h("h2", {}, t("daily.ranking")), rankingTable(shown.ranking, me));
  const playsBox = h("section", { class: "daily-plays-box" }, h("h2", {}, t("daily.plays")));
  parts.push(playsBox);
  const pastBox = h("section", { class: "daily-past" }, h("h2", {}, t("daily.past")));
  parts.push(pastBox);
  replace(main, h("section", { class: "card-box daily", dataset: { day: shown.day } }, parts));
  if (!shown.over && shown.ranking.length) {
    playsBox.append(h("p", { class: "hint" }, t("daily.plays_locked")));
  } else if (shown.ranking.some((r) => r.status !== "playing")) {
    get(`/api/daily/${encodeURIComponent(shown.day)}/plays`)
      .then((p) => playsBox.append(playsList(p.plays, me)))
      .catch(() => playsBox.append(h("p", { class: "hint" }, t("daily.plays_locked"))));
  } else {
    playsBox.hidden = true;
  }
  get("/api/daily/days").then((d) => pastBox.append(d.days.length
    ? h("ul", {}, d.days.map((x) => h("li", {}, h("a", { href: `#/daily/${x.day}` }, x.day), " — ", t("daily.played_by", { n: x.plays }))))
    : h("p", { class: "hint" }, t("daily.no_past")))).catch(() => {});
}
