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
