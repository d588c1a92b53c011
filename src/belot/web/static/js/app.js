// The page: language, client-side routes (/ lobby, /t/{id} table, /replay/{id} replay).
// The pages import nothing from here (navigate, toast and banner are in ui.js): no import cycle.

import { suitDefs } from "./cards.js";
import { esc, initialLanguage, language, setLanguage, t, LANGUAGES } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showReplay } from "./replay.js";
import { accountName, showAccount, showLeaderboard, showProfile, renderAccountLink, whoami } from "./account.js";
import { navigate, onNavigate } from "./ui.js";

let page = null; // the current page object: {render(), close()}

/** A name from the address (/u/NAME): a malformed escape ("%E0%A4") is taken as typed, not an error
 * that leaves the page blank. */
function nameIn(part) {
  try { return decodeURIComponent(part); } catch { return part; }
}

// The pages by address: how each is drawn, and its name in the page's language (its one h1, read by a
// screen reader, not shown, and the window's title, which a tab, the history and a screen reader name
// the page by). Anything else is no page.
const ROUTES = [
  { path: /^\/t\/([\w-]+)\/?$/, show: showTable, name: (id) => t("web.page.table", { id }) },
  { path: /^\/replay\/([\w-]+)\/?$/, show: showReplay, name: (id) => `${t("web.replay.title")} ${id}` },
  { path: /^\/u\/([^/]+)\/?$/, show: (main, name) => showProfile(main, nameIn(name)), name: nameIn },
  { path: /^\/leaderboard\/?$/, show: showLeaderboard, name: () => t("web.account.leaderboard") },
  { path: /^\/account\/?$/, show: showAccount, name: () => t("web.page.account") },
  { path: /^\/$/, show: showLobby, name: () => t("web.page.lobby") },
];
// Any other address: no such page (the server answers it with this page and a 404)
const NOT_FOUND = {
  show: (main) => {
    main.innerHTML = `<div class="lobby"><p class="box">${esc(t("web.page.not_found"))}
      <a data-link href="/">${esc(t("web.table.back_to_lobby"))}</a></p></div>`;
  },
  name: () => t("web.page.not_found"),
};

/** The route of the address shown, and the part of the path it takes (a table id, a name). */
function current() {
  for (const r of ROUTES) {
    const m = location.pathname.match(r.path);
    if (m) return [r, m[1]];
  }
  return [NOT_FOUND, undefined];
}

function route() {
  if (page && page.close) page.close();
  const main = document.getElementById("main");
  main.innerHTML = "";
  document.getElementById("topbar-extra").innerHTML = "";
  const [{ show }, part] = current();
  page = show(main, part);
  renderHeading();
}

function renderHeading() {
  const [r, part] = current();
  const name = r.name(part);
  document.getElementById("page-h").textContent = name;
  document.title = `${name} · ${t("web.title")}`;
}

function renderChrome() {
  document.getElementById("brand").textContent = t("web.title");
  const sel = document.getElementById("lang");
  // named by aria-label: axe (label-title-only) took a label hidden with display:none for none, and
  // a screen reader read the menu by its title alone
  sel.setAttribute("aria-label", t("web.language"));
  sel.setAttribute("title", t("web.language"));
  for (const opt of sel.options) opt.textContent = t("web.lang." + opt.value);
  sel.value = language();
  renderAccountLink();
  renderHeading();
}

async function start() {
  onNavigate(route);
  document.getElementById("defs").innerHTML = suitDefs();
  const sel = document.getElementById("lang");
  sel.addEventListener("change", async () => {
    if (LANGUAGES.includes(sel.value)) {
      await setLanguage(sel.value);
      renderChrome();
      if (page && page.render) page.render();
    }
  });
  document.addEventListener("click", (ev) => {
    const a = ev.target.closest("a[data-link]");
    if (a && !ev.ctrlKey && !ev.metaKey && !ev.shiftKey && ev.button === 0) {
      ev.preventDefault();
      navigate(a.getAttribute("href"));
    }
  });
  window.addEventListener("popstate", route);
  // Who is logged in is known before the first page renders: a table's seat chooser shows "playing
  // as NAME" to an account and a name field to a guest. A server that does not answer within 3 s
  // does not keep the page blank: the page renders as a guest's, and is drawn again for an account
  // when the answer comes (the top bar follows by itself).
  const me = whoami();
  const inTime = Promise.race([me.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 3000))]);
  const [, known] = await Promise.all([setLanguage(initialLanguage()), inTime]);
  renderChrome();
  route();
  if (!known) me.then(() => { if (accountName() && page && page.render) page.render(); });
}

start();
