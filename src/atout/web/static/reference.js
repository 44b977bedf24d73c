// The rules and the quick guide over a table (issue 46): a modal dialog, so the table stays where it was and
// keeps running under it (its socket, its clock, its robots); when the person's turn comes while they read,
// the dialog says so once and offers the way back. Escape or Close ends it and the focus returns where it was.
// Links that would leave the table open the other dialog instead, or a new tab.

import { h } from "./dom.js";
import { partWords, t } from "./i18n.js";
import { guideContent } from "./guide.js";
import { rulebook } from "./rulebook.js";
import { ensureStyle, rulesContent } from "./rules.js";

await partWords("rules");

export const TURN_EVENT = "atout:turn";

/** The element that had the focus, or, once the table has drawn it again, its new self (the bar's button). */
function focusBack(before) {
  if (!before || before === document.body) return;
  if (before.isConnected) {
    before.focus();
    return;
  }
  const again = before.classList.length ? `${before.tagName.toLowerCase()}.${[...before.classList].map((c) => CSS.escape(c)).join(".")}` : null;
  if (again) document.querySelector(again)?.focus();
}

function dialogShell(kind, titleId, before) {
  const notice = h("p", { class: "turn-notice", role: "status" });
  const close = () => dialog.close();
  const dialog = h("dialog", { class: `reference-dialog ${kind}-dialog`, "aria-labelledby": titleId },
    h("div", { class: "dialog-bar" },
      notice,
      h("form", { method: "dialog", class: "close-form" }, h("button", { type: "submit", class: "quiet close" }, t("close")))));
  const turn = () => {
    if (notice.textContent) return; // said once
    notice.append(t("rules.turn"), " ", h("button", { type: "button", class: "primary", onclick: close }, t("rules.turn.back")));
  };
  document.addEventListener(TURN_EVENT, turn);
  dialog.opener = before;
  dialog.addEventListener("close", () => {
    document.removeEventListener(TURN_EVENT, turn);
    dialog.remove();
    if (!dialog.replaced) focusBack(before);
  });
  return dialog;
}

async function opened(kind, titleId, fill) {
  ensureStyle();
  const f = await rulebook();
  const open = document.querySelector("dialog.reference-dialog[open]"); // one at a time: the guide gives way to the rules
  const before = open ? open.opener : document.activeElement; // and the focus goes back to what opened the first
  if (open) {
    open.replaced = true;
    open.close();
  }
  const dialog = dialogShell(kind, titleId, before);
  fill(dialog, f);
  document.body.append(dialog);
  dialog.showModal();
  dialog.querySelector(`#${titleId}`).focus();
  return dialog;
}

/** The quick guide over the table (the button in its bar, the key G), the way to the whole rules in it. */
export function openGuide(app) {
  return opened("guide", "guide-dialog-title", (dialog, f) => {
    dialog.append(guideContent(f, { titleId: "guide-dialog-title" }),
      h("p", { class: "guide-actions" },
        h("button", { type: "button", class: "quiet", onclick: () => window.print() }, t("rules.guide.print")), " ",
        h("button", { type: "button", class: "quiet", onclick: () => openRules(app) }, t("rules.guide.rules"))));
  });
}

/** The whole rules over the table, the calculator included (the guide's "All the rules", the top bar's Rules). */
export function openRules(app) {
  return opened("rules", "rules-d-title", (dialog, f) => {
    const content = rulesContent(f, app, { inPage: false, prefix: "rules-d" });
    const guide = content.querySelector("a.guide-link");
    guide.addEventListener("click", (e) => { e.preventDefault(); openGuide(app); });
    for (const a of content.querySelectorAll("a[href='#/learn']")) Object.assign(a, { target: "_blank", rel: "noopener" });
    dialog.append(content);
  });
}
