// Learn tarot (#/learn, issue 46): the course's page, each lesson's (#/learn/ID, learn-lesson.js), the lessons'
// words and the learner's progress. No name is needed: a guest's progress stays in this browser (localStorage),
// an account's is kept by the server (GET /api/learn); a guest who registers or logs in sends its runs, which
// the server replays before it keeps them. The lessons and their words are the server's (src/atout/learn), the
// same the terminal's `atout learn` plays; this page's own words are the catalogues' learn.*, loaded with the lessons.

import { h, replace } from "./dom.js";
import { lang, partWords, t } from "./i18n.js";
import { keepGuestProgress, lessonWords, loadCourse, paragraphs, progress, say } from "./learn-course.js";

await partWords("learn");

export { keepGuestProgress } from "./learn-course.js"; // main.js's: a guest's lessons, once logged in

let shown = null; // what the page shows now: "course" or a lesson's view, so that a second show() keeps it

let styled = false;
/** The pages' own style sheet, added once (the site allows no inline style). */
function ensureStyle() {
  if (styled || document.querySelector("link[data-learn]")) return;
  styled = true;
  document.head.append(h("link", { rel: "stylesheet", href: import.meta.resolve("/static/learn.css"), dataset: { learn: "1" } }));
}

/** #/learn (the course) or #/learn/ID (a lesson); drawn again only when what it shows changed. */
export async function renderLearn(app, main, arg) {
  ensureStyle();
  const key = `${arg}|${lang()}`;
  if (shown && shown.key === key && main.contains(shown.root)) return;
  if (shown && shown.view) shown.view.close();
  shown = null;
  try {
    if (app.registered) await keepGuestProgress(app);
    const [data, words] = [await loadCourse(app.registered), await lessonWords()];
    const index = data.lessons.findIndex((x) => x.id === arg);
    if (arg && index >= 0) {
      const { LessonView } = await import("./learn-lesson.js");
      const view = new LessonView(app, main, data, index, words);
      shown = { key, view, root: view.root };
      await view.open();
      return;
    }
    const root = coursePage(app, data, words);
    replace(main, root);
    shown = { key, root };
  } catch (err) {
    replace(main, h("section", { class: "card-box learn-page", role: "alert" }, h("p", {}, t("learn.failed", { why: String(err.message || err) }))));
  }
}

/** Where a lesson stands for this learner: done, at step N, or not begun. */
function status(app, lesson) {
  const p = progress(app)[lesson.id];
  if (p && p.done) return { kind: "done", text: t("learn.status_done") };
  if (p && p.answers && p.answers.length) return { kind: "going", text: t("learn.status_step", { n: p.answers.length + 1, of: lesson.steps }) };
  return { kind: "new", text: t("learn.status_new") };
}

/** The course: what tarot is in a few words, where the learner stands, and every lesson. */
function coursePage(app, data, words) {
  const states = data.lessons.map((lesson) => status(app, lesson));
  const done = states.filter((s) => s.kind === "done").length;
  const nextIndex = states.findIndex((s) => s.kind !== "done");
  const next = nextIndex >= 0 ? data.lessons[nextIndex] : null;
  const lead = next
    ? h("a", { class: "button primary big", href: `#/learn/${next.id}` },
      nextIndex === 0 && states[0].kind === "new" ? t("learn.first") : t("learn.resume", { title: say(words, `${next.id}.title`) }))
    : h("p", { class: "all-done" }, t("learn.all_done"), " ", h("a", { class: "button primary", href: "#/" }, t("learn.play")));
  const kept = app.registered ? h("p", { class: "hint" }, t("learn.kept_account"))
    : h("p", { class: "hint" }, t("learn.kept_here"), " ",
      h("button", { type: "button", class: "linklike", onclick: () => import("./account.js").then((m) => m.accountDialog(app)) }, t("learn.keep_it")));
  const items = data.lessons.map((lesson, i) => h("li", { class: `lesson-item ${states[i].kind}`, dataset: { lesson: lesson.id } },
    h("span", { class: "lesson-number", "aria-hidden": "true" }, states[i].kind === "done" ? "✓" : String(i + 1)),
    h("div", { class: "lesson-what" },
      h("h2", {}, h("a", { href: `#/learn/${lesson.id}` }, say(words, `${lesson.id}.title`))),
      h("p", {}, say(words, `${lesson.id}.summary`)),
      h("p", { class: "lesson-status" }, states[i].text))));
  return h("section", { class: "learn-page course" },
    h("h1", {}, say(words, "course.title")),
    paragraphs(say(words, "course.intro")),
    h("p", { class: "course-progress" }, t("learn.progress", { n: done, of: data.lessons.length })),
    h("div", { class: "row" }, lead, " ", h("a", { class: "button quiet", href: "#/rules" }, t("learn.rules"))),
    kept,
    h("ol", { class: "lessons" }, items));
}

/** Leaving #/learn: the lesson's keys and timers go with it. */
export function leaveLearn() {
  if (shown && shown.view) shown.view.close();
  shown = null;
}
