// The one WebSocket of this tab: hello, requests matched to answers by `ref`, and reconnection with
// backoff that the page lives through without a click. At a table the socket's address names the table
// (/ws?table=ID), so that a proxy in front of several server processes sends it to the one that runs
// that table (docs/deploy.md); the lobby's socket may reach any of them.

const PING_EVERY = 15000;
const PONG_WITHIN = 6000;
const TRY_AGAIN_LATER = 1013;
const BUSY_WAIT = 20000;

/** What the server could not answer now (its store away, a failure of its own) is asked again by the page itself,
 * later and later, and said once: a page that waited for a click would leave its person behind (a reload while the
 * store was away left a page with no table at all, for good). */
export const ASK_AGAIN = new Set(["unavailable", "unknown", "internal"]);

/** How long to wait before asking again, after ``tries`` refusals in a row: half a second, doubling to 8 s. */
export function againIn(tries) {
  return Math.min(8000, 500 * 2 ** tries) + Math.random() * 250;
}

export class Net {
  constructor({ hello, onMessage, onStatus, path }) {
    this.hello = hello; // () => the hello message to send on each (re)connection
    this.path = path; // () => the socket's path for where the page is: /ws, or /ws?table=ID at a table
    this.connectedPath = null;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.pending = new Map();
    this.counter = 0;
    this.attempt = 0;
    this.ws = null;
    this.lastHeard = 0;
    this.timer = null;
    this.retry = null; // the reconnection waiting for its backoff, if any
  }

  /** Open the socket for where the page is. One socket a tab: a reconnection still waiting is called off,
   * and a socket still open is closed first (a table opened during the backoff would otherwise end with
   * two, the page hearing everything twice). */
  connect() {
    clearTimeout(this.retry);
    this.retry = null;
    const old = this.ws;
    if (old && old.readyState <= WebSocket.OPEN) {
      old.onclose = null;
      old.close();
    }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.connectedPath = this.path();
    const ws = new WebSocket(`${scheme}://${location.host}${this.connectedPath}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      this.attempt = 0;
      this.lastHeard = Date.now();
      ws.send(JSON.stringify(this.hello()));
      clearInterval(this.timer);
      this.timer = setInterval(() => this.keepAlive(), PING_EVERY / 3);
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return; // a socket given up: what it still brings is not this page's
      this.lastHeard = Date.now();
      let m;
      try {
        m = JSON.parse(e.data);
      } catch {
        return;
      }
      if (m.type === "pong") return;
      if (m.ref && this.pending.has(m.ref)) {
        const { resolve, reject } = this.pending.get(m.ref);
        this.pending.delete(m.ref);
        (m.type === "error" ? reject : resolve)(m);
        if (m.type === "error") return; // the caller shows it
      }
      this.onMessage(m);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      clearInterval(this.timer);
      for (const { reject } of this.pending.values()) reject({ code: "offline", message: "connection lost" });
      this.pending.clear();
      // 1013: the server holds as many sockets from this address as it takes (a crowd behind one router,
      // or many tabs): the page says so and waits longer, rather than knock every few seconds
      const busy = e.code === TRY_AGAIN_LATER;
      this.onStatus(busy ? "busy" : "offline");
      const delay = busy ? BUSY_WAIT + Math.random() * BUSY_WAIT
        : Math.min(5000, 300 * 2 ** this.attempt++) + Math.random() * 200;
      this.retry = setTimeout(() => this.connect(), delay);
    };
  }

  /** At a table the socket must be the table's own: true if it had to open a new one (the page goes on
   * when its `welcome` comes). Leaving a table for the lobby keeps the socket. */
  follow() {
    const path = this.path();
    if (path === this.connectedPath || !path.includes("?")) return false;
    const old = this.ws;
    if (old) {
      old.onclose = null;
      old.close();
    }
    clearInterval(this.timer);
    for (const { reject } of this.pending.values()) reject({ code: "offline", message: "connection moved" });
    this.pending.clear();
    this.connect();
    return true;
  }

  keepAlive() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    const quiet = Date.now() - this.lastHeard;
    if (quiet > PING_EVERY + PONG_WITHIN) {
      this.ws.close(); // the network is gone without a word: start again
    } else if (quiet > PING_EVERY) {
      this.ws.send(JSON.stringify({ type: "ping" }));
    }
  }

  /** A reconnection now (the network came back): no waiting for the backoff. */
  nudge() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "ping" }));
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send with a `ref`; resolves with the first event it made, rejects with its error. */
  request(message) {
    const ref = `r${++this.counter}`;
    return new Promise((resolve, reject) => {
      if (!this.send({ ...message, ref })) {
        reject({ code: "offline", message: "not connected" });
        return;
      }
      this.pending.set(ref, { resolve, reject });
      setTimeout(() => {
        if (this.pending.delete(ref)) reject({ code: "timeout", message: "no answer" });
      }, 15000);
    });
  }
}
