// Focus kept across redraws: a keyboard player goes on from where they were.

/** A control known again once drawn anew: its tag, data, label and words. */
function controlKey(el) {
  return [el.tagName, JSON.stringify({ ...el.dataset }), el.getAttribute("aria-label") || "", el.textContent].join("|");
}

/** What has the focus in this table's page, to find it again once a redraw has replaced it. */
export function focusBefore(view) {
  const el = document.activeElement;
  if (!el || el === document.body || !view.root.contains(el)) return { key: null };
  const card = el.closest(".hand-cards .card");
  if (card) return { key: { card: card.dataset.card, index: Number(card.dataset.index) } };
  const part = [view.actions, view.hand, view.bar, view.felt, view.side, view.resultBox, view.overlayBox].find((x) => x.contains(el));
  const typed = el.tagName === "INPUT" && el.type === "text" && view.actions.contains(el); // an invitation being typed
  return { key: { part, match: controlKey(el), input: typed ? [el.value, el.selectionStart, el.selectionEnd] : null } };
}

/** After a redraw: a result that just opened takes the focus from the play (it goes back on closing); focus
 * lost with its control goes to the same control drawn again, else the next card, else the first control of
 * what this person may do now, else the actions' box (from where a prompt that appears takes it). */
export function focusAfter(view, { key }) {
  const now = document.activeElement;
  const lost = !now || now === document.body || !now.isConnected;
  const opened = view.resultOpened;
  view.resultOpened = false;
  if (opened && (lost || now === view.actions || now.closest(".play-area"))) {
    const button = view.resultBox.querySelector("[data-dismiss]") || view.resultBox.querySelector(".close");
    if (button) {
      view.beforeResult = key;
      button.focus({ preventScroll: true });
      return;
    }
  }
  const arrived = view.arrived; // opened from another page of the site: focus into the table
  view.arrived = false;
  if (now === view.actions || (lost && (key || arrived))) refocus(view, key);
}

/** The focus to the control ``key`` names, drawn anew, else to the first thing this person may do now. */
export function refocus(view, key) {
  const cards = [...view.hand.querySelectorAll("button.card")];
  let target = null;
  if (key && key.card) target = cards.find((c) => c.dataset.card === key.card) || cards[Math.min(key.index, cards.length - 1)] || null;
  if (!target && key && key.part && key.part.isConnected && !key.part.hidden) {
    target = [...key.part.querySelectorAll("button, input, select, summary, a[href]")].find((c) => !c.disabled && controlKey(c) === key.match) || null;
    if (target && key.input) {
      [target.value] = key.input;
      target.setSelectionRange(key.input[1], key.input[2]);
    }
  }
  if (target) {
    focusOn(target);
    return;
  }
  const control = [...view.actions.querySelectorAll("button, input, select")].find((c) => !c.disabled)
    || (view.isMyTurn() ? view.hand.querySelector("button.card.playable") || view.hand.querySelector("button.card") : null)
    || view.felt.querySelector("button"); // a seat to take, a robot to add
  focusOn(control || view.actions);
}

/** The focus to ``el``, the page left where the person put it; none asked when it has it (a focus() lays out). */
function focusOn(el) {
  if (el !== document.activeElement) el.focus({ preventScroll: true });
}
