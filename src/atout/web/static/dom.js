// Building DOM nodes without markup strings: every text goes in as a text node, so a name or a chat
// line can never become HTML.

const listened = new WeakSet(); // the elements h() gave a listener: morph() keeps one only when it is drawn the same

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
      listened.add(el);
    }
    else if (key === "value") el.value = value;
    else if (key === "checked") el.checked = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replace(el, ...children) {
  clear(el);
  return append(el, children);
}

/** ``el``'s children made to show ``children`` (as ``replace`` would), keeping each node already there that
 * shows the same: an element of the same tag has its attributes and children brought up to date in place. What
 * did not change is neither laid out, painted nor rastered again, keeps its focus, and takes a click that falls
 * across a redraw. An element with a listener, or a form control, is kept only when drawn the same (its listener
 * is then the same action: the words and data a control shows say what it does), else replaced. */
export function morph(el, ...children) {
  morphChildren(el, [...append(document.createDocumentFragment(), children).childNodes]);
  return el;
}

function morphChildren(el, fresh) {
  fresh.forEach((next, i) => {
    const old = el.childNodes[i];
    if (!old) el.append(next);
    else if (!patch(old, next)) el.replaceChild(next, old);
  });
  while (el.childNodes.length > fresh.length) el.lastChild.remove();
}

const CONTROLS = new Set(["INPUT", "SELECT", "TEXTAREA", "OPTION", "DETAILS", "DIALOG"]);

/** Whether ``old`` now shows what ``next`` shows (brought up to date where it can be). */
function patch(old, next) {
  if (old.nodeType !== next.nodeType || old.nodeName !== next.nodeName) return false;
  if (old.nodeType === Node.TEXT_NODE) {
    if (old.data !== next.data) old.data = next.data;
    return true;
  }
  if (old.nodeType !== Node.ELEMENT_NODE) return old.isEqualNode(next);
  if (listened.has(old) || listened.has(next) || CONTROLS.has(old.nodeName)) {
    return old.isEqualNode(next) && old.value === next.value && old.checked === next.checked;
  }
  for (const name of old.getAttributeNames()) if (!next.hasAttribute(name)) old.removeAttribute(name);
  for (const name of next.getAttributeNames()) {
    const value = next.getAttribute(name);
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  morphChildren(old, [...next.childNodes]);
  return true;
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** Words whose `command` parts (between backticks) are code: text nodes and <code> elements, never markup. */
export function withCode(text) {
  return String(text).split("`").map((part, i) => (i % 2 ? h("code", {}, part) : part));
}

const measures = new Map();

/** ``measure()`` once before the next frame, however often asked: a size read after a change lays the page out
 * there and then, and a table gets several events a frame. */
export function beforeNextFrame(key, measure) {
  if (measures.has(key)) return;
  measures.set(key, measure);
  if (measures.size === 1) {
    requestAnimationFrame(() => {
      const due = [...measures.values()];
      measures.clear();
      for (const run of due) run();
    });
  }
}

/** A list scrolled to its end (a log, a chat). */
export function scrollToEnd(list) {
  beforeNextFrame(list, () => { list.scrollTop = list.scrollHeight; });
}
