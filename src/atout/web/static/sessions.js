// Your account (#/account): where you are logged in — each session's browser, when it logged in and from
// where, when it was last used, which is this one — ending one session or all of them, a new password,
// and deleting the account (docs/protocol.md, "Who you are").

import { h, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import { api } from "./account.js";

/** A refusal in the words of these forms: ``wrong`` here is the password alone (no name was typed). */
function refusalText(app, err) {
  return err && err.code === "wrong" ? t("password.wrong") : app.errorText(err);
}

/** "Firefox on Linux" from a User-Agent: the browser and the system, no version (enough to recognise it). */
export function browserOf(agent) {
  if (!agent) return t("sessions.unknown");
  const browser = /Edg\//.test(agent) ? "Edge" : /OPR\//.test(agent) ? "Opera" : /Firefox\//.test(agent) ? "Firefox"
    : /Chrom(e|ium)\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : null;
  const system = /Android/.test(agent) ? "Android" : /iPhone|iPad|iPod/.test(agent) ? "iOS"
    : /Windows/.test(agent) ? "Windows" : /Mac OS X|Macintosh/.test(agent) ? "macOS" : /CrOS/.test(agent) ? "ChromeOS"
      : /Linux/.test(agent) ? "Linux" : null;
  if (browser && system) return t("sessions.browser_on", { browser, system });
  return browser || system || agent.slice(0, 60);
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
}

/** How long ago a session was used: the server records it to the hour, so nothing finer. */
function ago(seconds) {
  const past = Date.now() / 1000 - seconds;
  if (past < 3600) return t("sessions.within_hour");
  const words = new Intl.RelativeTimeFormat(lang(), { numeric: "auto" });
  return past < 86400 ? words.format(-Math.floor(past / 3600), "hour") : words.format(-Math.floor(past / 86400), "day");
}

export async function renderAccount(app, main) {
  if (!app.registered) {
    replace(main, h("section", { class: "card-box" }, h("h1", {}, t("account_page.title")), h("p", {}, t("account_page.guest"))));
    return;
  }
  replace(main, h("p", { class: "hint" }, t("loading")));
  let sessions;
  let robots;
  try {
    [sessions, robots] = await Promise.all([api("/api/sessions").then((a) => a.sessions), api("/api/robots").then((a) => a.robots)]);
  } catch (err) {
    replace(main, h("section", { class: "card-box" }, h("p", {}, app.errorText(err))));
    return;
  }
  replace(main, h("section", { class: "card-box account-page" },
    h("h1", {}, t("account_page.title"), " — ", app.me ? app.me.name : ""),
    sessionsPart(app, main, sessions), robotsPart(app, main, robots, made), passwordPart(app, main), deletePart(app)));
  made = null; // a new robot's token is shown once
}

let made = null; // {name, token}: the robot account just made, its token to show this once

/** Your robot accounts (docs/robot-accounts.md): each with its token in force or revoked, a form to make one
 * (its token shown once, here), and revoking a token (its program's connections close at once). */
function robotsPart(app, main, robots, shown) {
  const revoke = async (name, button) => {
    button.disabled = true;
    try {
      await api("/api/robots/revoke", { name });
      app.toast(t("account.robot_revoked_toast", { name }));
    } catch (err) {
      app.toast(app.errorText(err), "error");
    }
    renderAccount(app, main);
  };
  const items = robots.map((r) => {
    const button = r.active ? h("button", { type: "button", class: "quiet" }, t("account.robot_revoke")) : "";
    if (button) button.addEventListener("click", () => revoke(r.name, button));
    return h("li", { class: "robot-account", dataset: { robot: r.name } },
      h("a", { href: `#/p/${encodeURIComponent(r.name)}` }, r.name), " ", h("span", { class: "tag robot" }, t("robot.tag")),
      r.active ? "" : [" ", h("span", { class: "tag bad" }, t("account.robot_revoked"))], " ", button);
  });
  const message = h("p", { class: "refusal", role: "alert" });
  const form = h("form", { class: "robot-form", id: "robot-form" },
    h("label", { for: "robot-name" }, t("account.robot_name")),
    h("input", { id: "robot-name", required: true, minlength: 3, maxlength: 20, autocomplete: "off" }),
    message,
    h("div", { class: "row" }, h("button", { type: "submit" }, t("account.robot_make"))));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const answer = await api("/api/robots", { name: form.querySelector("#robot-name").value });
      made = { name: answer.name, token: answer.token };
      renderAccount(app, main);
    } catch (err) {
      message.textContent = app.errorText(err);
    }
  });
  return h("section", { class: "robots-part", "aria-labelledby": "robots-title" },
    h("h2", { id: "robots-title" }, t("account.robots")), h("p", { class: "hint" }, t("account.robots_hint")),
    shown ? h("div", { class: "robot-token", role: "status" }, h("p", {}, t("account.robot_token", { name: shown.name })),
      h("code", { class: "token" }, shown.token)) : "",
    items.length ? h("ul", { class: "robot-accounts" }, items) : h("p", { class: "hint" }, t("account.robots_none")),
    form);
}

function sessionsPart(app, main, sessions) {
  const end = async (session, button) => {
    button.disabled = true;
    if (session.current) app.ending("logout_here");
    try {
      const answer = await api("/api/sessions/end", { id: session.id });
      if (answer.current) return app.sessionOver("logout_here");
      app.toast(t("sessions.ended"));
    } catch (err) {
      app.ending(null);
      app.toast(app.errorText(err), "error");
    }
    renderAccount(app, main);
  };
  const ordered = [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)]; // this one first
  const items = ordered.map((s) => {
    const button = h("button", { type: "button", class: s.current ? "quiet" : "" }, s.current ? t("sessions.end_this") : t("sessions.end"));
    button.addEventListener("click", () => end(s, button));
    return h("li", { class: s.current ? "session current" : "session", dataset: { session: s.id } },
      h("div", { class: "session-what" }, h("strong", {}, browserOf(s.agent)),
        s.current ? h("span", { class: "tag this-one" }, t("sessions.this_one")) : ""),
      h("div", { class: "hint" }, t("sessions.began", { when: when(s.created_at), where: s.address || "?" })),
      h("div", { class: "hint" }, t("sessions.used", { ago: ago(s.last_seen_at) })),
      button);
  });
  const everywhere = async () => {
    if (!window.confirm(t("sessions.everywhere_confirm"))) return;
    app.ending("logout_everywhere");
    try {
      await api("/api/logout", { everywhere: true });
      app.sessionOver("logout_everywhere");
    } catch (err) {
      app.ending(null);
      app.toast(app.errorText(err), "error");
    }
  };
  return h("section", { class: "sessions-part", "aria-labelledby": "sessions-title" },
    h("h2", { id: "sessions-title" }, t("sessions.title")),
    h("p", { class: "hint" }, t("sessions.why")),
    h("ul", { class: "sessions" }, items),
    h("button", { type: "button", class: "quiet", id: "logout-everywhere", onclick: everywhere }, t("sessions.everywhere")));
}

function passwordPart(app, main) {
  const field = (id, key, autocomplete) => [
    h("label", { for: id }, t(key)),
    h("input", { id, type: "password", required: true, minlength: id === "password-old" ? 1 : 12, maxlength: 200, autocomplete }),
  ];
  const message = h("p", { class: "refusal", role: "alert" });
  const form = h("form", { class: "password-form", id: "password-form" },
    field("password-old", "password.old", "current-password"),
    field("password-new", "password.new", "new-password"),
    field("password-repeat", "password.repeat", "new-password"),
    message,
    h("div", { class: "row" }, h("button", { type: "submit", class: "primary" }, t("password.submit"))));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const [old, fresh, again] = ["#password-old", "#password-new", "#password-repeat"].map((s) => form.querySelector(s));
    if (fresh.value !== again.value) {
      message.textContent = t("password.mismatch");
      return;
    }
    try {
      const answer = await api("/api/password", { old: old.value, new: fresh.value });
      app.toast(t("password.changed", { n: answer.sessions_ended }));
      renderAccount(app, main);
    } catch (err) {
      message.textContent = refusalText(app, err);
    }
  });
  return h("section", { class: "password-part", "aria-labelledby": "password-title" },
    h("h2", { id: "password-title" }, t("password.title")), h("p", { class: "hint" }, t("password.why")), form);
}

function deletePart(app) {
  return h("section", { class: "delete-part", "aria-labelledby": "delete-title" },
    h("h2", { id: "delete-title" }, t("delete.title")),
    h("p", { class: "hint" }, t("delete.why")),
    h("button", { type: "button", class: "danger", id: "delete-open", onclick: () => deleteDialog(app) }, t("delete.open")));
}

/** The last step, in a dialog: the password, and the name typed out, before the button does anything. */
function deleteDialog(app) {
  const name = app.me.name;
  const password = h("input", { id: "delete-password", type: "password", required: true, maxlength: 200, autocomplete: "current-password" });
  const typed = h("input", { id: "delete-name", required: true, maxlength: 20, autocomplete: "off", spellcheck: "false" });
  const submit = h("button", { type: "submit", class: "danger", disabled: true }, t("delete.submit"));
  const message = h("p", { class: "refusal", role: "alert" });
  typed.addEventListener("input", () => { submit.disabled = typed.value.trim() !== name; });
  const form = h("form", { method: "dialog" },
    h("h2", { id: "delete-dialog-title" }, t("delete.title")),
    h("p", {}, t("delete.why")),
    h("label", { for: "delete-password" }, t("delete.password")), password,
    h("label", { for: "delete-name" }, t("delete.confirm_name", { name })), typed,
    message,
    h("div", { class: "row" }, submit,
      h("button", { type: "button", class: "quiet", onclick: () => dialog.close() }, t("delete.cancel"))));
  const dialog = h("dialog", { class: "account delete-dialog", "aria-labelledby": "delete-dialog-title" }, form);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (typed.value.trim() !== name || !password.reportValidity()) return;
    submit.disabled = true;
    app.ending("account_deleted");
    try {
      await api("/api/account/delete", { password: password.value });
      app.sessionOver("account_deleted");
    } catch (err) {
      app.ending(null);
      message.textContent = refusalText(app, err);
      submit.disabled = false;
    }
  });
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  password.focus();
}
