// Translations: every text on the page comes from GET /api/i18n/{lang} (src/belot/i18n/<lang>/*.json).

export const LANGUAGES = ["tr", "bg", "en"];
const STORE = "belot.lang";
let catalog = {};
let current = "en";
const listeners = new Set();

/** The language to start in: the one chosen before, else the browser's, else English. */
export function initialLanguage() {
  const saved = localStorage.getItem(STORE);
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
  localStorage.setItem(STORE, lang);
  document.documentElement.lang = lang;
  document.title = t("web.title");
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

/**
 * The text to show for a refusal of the server: an ApiError of net.js or a websocket
 * {"type": "error"} message, both with a `code` of docs/protocol.md and an English `message`.
 * The catalog's words for the code (web.errors.<code>) where it has them; the codes whose message
 * carries the detail (illegal, bad_request) put it after a lead-in of their own; any other code
 * gets the server's message after web.error's, so nothing is left unsaid.
 */
export function errorText(e) {
  const code = String((e && e.code) || "");
  const message = String((e && e.message) || "");
  // A name refused for a character (server/names.py): the code point says which, in any language.
  const char = code === "bad_request" && /\((U\+[0-9A-F]{4,6})\)/.exec(message);
  if (char) return t("web.errors.name_character", { char: char[1] });
  if (code.startsWith("http_")) return t("web.errors.http", { status: code.slice(5) });
  if (`web.errors.${code}` in catalog) return t("web.errors." + code, { message });
  return t("web.error", { message });
}
