// Talking to `belot serve` (docs/protocol.md): JSON over HTTP, and a table websocket that
// reconnects by itself (backing off) and asks for a fresh state each time it is back.

import { keys, load, remove, save } from "./store.js";

export class ApiError extends Error {
  /** A refusal: its `code`, English `message` and HTTP `status`, and the `detail` and `rule` of docs/protocol.md. */
  constructor(code, message, status, detail = {}, rule = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.detail = detail;
    this.rule = rule;
  }
}

export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    // No answer at all (offline, the server down): a code of its own, for errorText to word.
    throw new ApiError("network", "the server cannot be reached", 0);
  }
  let data = null;
  try { data = await res.json(); } catch { /* no body */ }
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(err.code || "http_" + res.status, err.message || res.statusText, res.status,
      (err.detail && typeof err.detail === "object") ? err.detail : {}, err.rule || null);
  }
  return data;
}

const tokenKey = (tableId) => `belot.token.${tableId}`;
export const savedToken = (tableId) => load(tokenKey(tableId));
export const saveToken = (tableId, token) => save(tokenKey(tableId), token);
export const forgetToken = (tableId) => remove(tokenKey(tableId));

/** Every seat this browser holds: [{tableId, token}], from the keys saveToken wrote. */
export function savedTokens() {
  return keys().filter((key) => key.startsWith("belot.token."))
    .map((key) => ({ tableId: key.slice("belot.token.".length), token: load(key) }))
    .filter((seat) => seat.token !== null);
}

/**
 * One table's websocket. `onMessage(msg)` gets every server message; `onStatus(up)` tells when
 * the connection is lost (false) and back (true). Reconnects after 0.5 s, 1 s, 2 s ... 5 s.
 */
export class TableSocket {
  constructor(tableId, token, onMessage, onStatus) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/tables/${tableId}/ws` +
      (token ? `?token=${encodeURIComponent(token)}` : "");
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.delay = 500;
    this.closed = false;
    this.ws = null;
    this.up = false;
    this.timer = null;
    this.heartbeat = null;
    this.lastHeard = 0;
    this.online = () => this.retryNow();
    window.addEventListener("online", this.online);
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.lastHeard = Date.now();
      this.setUp(true);
      ws.send(JSON.stringify({ type: "sync" }));
      clearInterval(this.heartbeat);
      // A dropped network may never close the socket: ping, and give up on silence.
      this.heartbeat = setInterval(() => {
        if (Date.now() - this.lastHeard > 20000) ws.close();
        else if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
      }, 8000);
    };
    ws.onmessage = (ev) => {
      this.lastHeard = Date.now();
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type !== "pong") this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.heartbeat);
      if (this.ws !== ws) return;
      this.ws = null;
      this.setUp(false);
      if (this.closed) return;
      if (ev.code === 4001 || ev.code === 4004) { this.closed = true; return; } // bad token / no table: final
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  setUp(up) {
    if (up !== this.up) {
      this.up = up;
      this.onStatus(up);
    }
  }

  retryNow() {
    if (this.closed || this.ws) return;
    clearTimeout(this.timer);
    this.connect();
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    window.removeEventListener("online", this.online);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
