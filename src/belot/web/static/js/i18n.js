// Translations: every text on the page comes from GET /api/i18n/{lang} (src/belot/i18n/<lang>/*.json).

import { cardWords } from "./cards.js";
import { load, save } from "./store.js";

export const LANGUAGES = ["tr", "bg", "en"];
const STORE = "belot.lang";
let catalog = {};
let current = "en";
const listeners = new Set();

/** The language to start in: the one chosen before, else the browser's, else English. */
export function initialLanguage() {
  const saved = load(STORE);
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

export async function setLanguage(lang) {
  const res = await fetch(`/api/i18n/${lang}`);
  if (!res.ok) throw new Error(`no catalog for ${lang}`);
  catalog = await res.json();
  current = lang;
  save(STORE, lang);
  document.documentElement.lang = lang;
  for (const fn of listeners) fn(lang);
}

export function language() {
  return current;
}

export function onLanguage(fn) {
  listeners.add(fn);
}

/** The text of `key` with `{field}`s filled in; the key itself if the catalog lacks it. */
export function t(key, fields = {}) {
  const text = catalog[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in fields ? String(fields[name]) : m));
}

/** Escape text for HTML. */
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/** When to try again, `retry_after` seconds from now: "in 45 seconds", "in 5 minutes"; "a little later" unknown. */
export function waitText(seconds) {
  const s = Number(seconds);
  if (!Number.isFinite(s) || s <= 0) return t("web.wait.later");
  if (s < 90) return s <= 1 ? t("web.wait.second") : t("web.wait.seconds", { n: Math.ceil(s) });
  return t("web.wait.minutes", { n: Math.ceil(s / 60) });
}

/** A field of a request body (detail.field) as the page labels it; the field itself if it has no label. */
function fieldLabel(field) {
  const f = String(field).replace(/\[\d+\]$/, "");
  if (f === "name" || f === "names") return t("web.lobby.your_name");
  if (f === "target") return t("web.lobby.target");
  if (f === "turn_timer") return t("web.lobby.turn_timer");
  if (f === "options") return t("web.options.title");
  if (f === "password") return t("web.account.password");
  return String(field);
}

/** A refused action (detail.action) in words: "Kupa Papazı", "Kontra", "Terts". */
function actionWords(action) {
  if (!action || typeof action !== "object") return "";
  if (typeof action.card === "string" && /^[789TJQKA][CDHS]$/.test(action.card)) return cardWords(action.card, t);
  if (typeof action.call === "string") return t("call." + action.call);
  if (action.declare) return action.kind ? t("term." + action.kind) : t("term.declarations");
  return "";
}

/**
 * The text to show for a refusal of the server: an ApiError of net.js or a websocket
 * {"type": "error"} message, both with a `code` of docs/protocol.md, an English `message` and the
 * particulars as fields (`detail`: retry_after, limit, field, reason, char, action; `rule`).
 * The catalog's words for the code (web.errors.<code>), filled from those fields, so the wait, the
 * refused character or the rule is said in the page's language; a code the pages cannot meet gets
 * the server's message after web.error's, so nothing is left unsaid.
 */
export function errorText(e) {
  const code = String((e && e.code) || "");
  const message = String((e && e.message) || "");
  const d = (e && e.detail && typeof e.detail === "object") ? e.detail : {};
  const wait = waitText(d.retry_after);
  if (code.startsWith("http_")) return t("web.errors.http", { status: code.slice(5) });
  switch (code) {
    case "seat_reserved": return t("web.errors.seat_reserved", { wait });
    case "too_many_logins": return t("web.errors.too_many_logins", { wait });
    case "too_many_accounts": return t("web.errors.too_many_accounts", { wait });
    case "too_many_tables":
      if (d.reason === "waiting" && d.limit) return t("web.errors.tables_waiting", { limit: d.limit });
      if (d.reason === "created" && d.limit) return t("web.errors.tables_per_minute", { limit: d.limit, wait });
      return t("web.errors.too_many_tables");
    case "match_over":
      if (d.reason === "abandoned") return t("web.errors.match_abandoned");
      return t("web.errors.match_over");
    case "too_many_analyses":
      if (d.reason === "address" && d.limit) return t("web.errors.analyses_per_address", { limit: d.limit });
      return t("web.errors.too_many_analyses");
    case "bad_password":
      if (d.reason === "too_long" && d.limit) return t("web.errors.password_too_long", { limit: d.limit });
      if (d.reason === "too_short" && d.limit) return t("web.errors.password_too_short", { limit: d.limit });
      return t("web.errors.bad_password");
    case "bad_request":
      if (d.reason === "character" && d.char) return t("web.errors.name_character", { char: d.char });
      if (d.reason === "nothing_visible") return t("web.errors.name_invisible");
      if (d.reason === "too_long" && d.limit) return t("web.errors.name_too_long", { limit: d.limit });
      if (d.field) return t("web.errors.bad_field", { field: fieldLabel(d.field) });
      return t("web.errors.bad_request");
    case "illegal": {
      const what = actionWords(d.action);
      if (what && e.rule) return t("web.errors.illegal_action", { action: what, rule: e.rule });
      return t("web.errors.illegal");
    }
    default:
      if (`web.errors.${code}` in catalog) return t("web.errors." + code);
      return t("web.error", { message });
  }
}
