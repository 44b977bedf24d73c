// One click of a person who plays quickly and legally, through the page's own controls (never the
// protocol): the tests' way to move a game on. Returns what it clicked, or null when there is nothing
// to do on this page now.
() => {
  const v = window.atout && window.atout.view;
  if (!v || !v.state || !v.isMyTurn()) return null;
  const q = (s) => document.querySelector(s);
  const bids = [...document.querySelectorAll(".actions [data-bid]")].filter((b) => !b.disabled);
  if (bids.length) {
    const pick = bids.find((b) => b.dataset.bid === "prise") || bids.find((b) => b.dataset.bid === "pass");
    pick.click();
    return `bid ${pick.dataset.bid}`;
  }
  const call = q(".actions [data-call]");
  if (call) { call.click(); return `call ${call.dataset.call}`; }
  const confirm = q(".actions [data-confirm=ecart]");
  if (confirm) {
    if (!confirm.disabled) { confirm.click(); return "ecart"; }
    const from = new Set(v.legal("discard_from")[0].discard_from);
    const free = [...document.querySelectorAll(".hand-cards .card")].filter((c) => from.has(c.dataset.card) && !c.classList.contains("selected"));
    const pick = free.find((c) => !c.dataset.card.startsWith("T")) || free[0];
    pick.click();
    return `pick ${pick.dataset.card}`;
  }
  const chelem = q(".actions [data-chelem=false]");
  if (chelem) { chelem.click(); return "chelem no"; }
  const petit = q(".actions [data-petit=play]") || q(".actions [data-petit]");
  if (petit) { petit.click(); return `petit_sec ${petit.dataset.petit}`; }
  const card = q(".hand-cards .card.playable");
  if (card) {
    (window.__clicked = window.__clicked || {})[card.dataset.card] = performance.timeOrigin + performance.now();
    card.click();
    return `play ${card.dataset.card}`;
  }
  return null;
}
