// Building DOM nodes without markup strings: every text goes in as a text node, so a name or a chat
// line can never become HTML.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
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
