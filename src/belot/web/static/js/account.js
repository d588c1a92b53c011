// Accounts: who is logged in (the session cookie is HttpOnly, so only the server knows: /api/me),
// the account page (register, log in, log out), a player's profile (/u/NAME: rating and games)
// and the leaderboard. Passwords go to the server in the request body only and are never kept here.

import { api } from "./net.js";
import { t, esc, language, errorText } from "./i18n.js";
import { navigate, toast } from "./ui.js";
import { botName } from "./names.js";

let current = null; // {account, tables} of /api/me, or null before the first answer

/** The logged-in account ({name, rating, games}) or null; asks the server once, then after each change. */
export async function whoami(fresh = false) {
  if (!current || fresh) {
    try { current = await api("/api/me"); } catch { current = { account: null, tables: [] }; }
    renderAccountLink();
  }
  return current;
}

/** The logged-in account's name as last heard from the server, or null (a guest, or not known yet). */
export function accountName() {
  return (current && current.account && current.account.name) || null;
}

export function renderAccountLink() {
  const el = document.getElementById("account-link");
  if (!el) return;
  const acc = current && current.account;
  el.innerHTML = acc
    ? `<a data-link href="/u/${encodeURIComponent(acc.name)}" id="me-link">${esc(acc.name)}</a> <span class="lb">· <a data-link href="/leaderboard">${esc(t("web.account.leaderboard"))}</a></span>`
    : `<a data-link href="/account" id="login-link">${esc(t("web.account.log_in"))}</a> <span class="lb">· <a data-link href="/leaderboard">${esc(t("web.account.leaderboard"))}</a></span>`;
}

function when(seconds) {
  try {
    return new Date(seconds * 1000).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
  } catch {
    return new Date(seconds * 1000).toLocaleString();
  }
}

const who = (name) => (name && name.startsWith("bot:") ? botName(name) : name);
const num = (x) => (Math.round(x * 10) / 10).toFixed(1);

/** /account: log in or register; when logged in, who you are and a log-out button. */
export function showAccount(main) {
  let alive = true;

  function render() {
    const acc = current && current.account;
    if (acc) {
      main.innerHTML = `<div class="lobby"><section class="box" aria-labelledby="acc-h">
        <h2 id="acc-h">${esc(t("web.account.logged_in_as", { name: acc.name }))}</h2>
        <p><a data-link href="/u/${encodeURIComponent(acc.name)}">${esc(t("web.account.profile"))}</a></p>
        <button class="secondary" id="logout">${esc(t("web.account.log_out"))}</button></section></div>`;
      main.querySelector("#logout").addEventListener("click", async () => {
        try { await api("/api/logout", {}); } catch (e) { toast(errorText(e)); }
        await whoami(true);
        navigate("/");
      });
      return;
    }
    main.innerHTML = `<div class="lobby"><section class="box" aria-labelledby="acc-h">
      <h2 id="acc-h">${esc(t("web.account.title"))}</h2>
      <p class="muted">${esc(t("web.account.guests_welcome"))}</p>
      <form id="account-form">
        <label for="acc-name">${esc(t("web.account.name"))}</label>
        <input id="acc-name" name="username" maxlength="32" autocomplete="username" required>
        <label for="acc-password">${esc(t("web.account.password"))}</label>
        <input id="acc-password" name="password" type="password" minlength="8" maxlength="256" autocomplete="current-password" required>
        <p class="muted">${esc(t("web.account.password_hint"))}</p>
        <div class="row"><button type="submit" class="primary" id="login-btn">${esc(t("web.account.log_in"))}</button>
          <button type="button" class="secondary" id="register-btn">${esc(t("web.account.register"))}</button></div>
        <p class="name-needed hidden" id="account-error" role="alert"></p>
      </form></section></div>`;
    const form = main.querySelector("#account-form");
    const send = async (path) => {
      const name = main.querySelector("#acc-name").value.trim();
      const password = main.querySelector("#acc-password").value;
      const err = main.querySelector("#account-error");
      try {
        await api(path, { name, password });
        await whoami(true);
        navigate("/");
      } catch (e) {
        err.textContent = errorText(e);
        err.classList.remove("hidden");
      }
    };
    form.addEventListener("submit", (ev) => { ev.preventDefault(); send("/api/login"); });
    main.querySelector("#register-btn").addEventListener("click", () => {
      if (form.reportValidity()) send("/api/accounts");
    });
  }

  // Render once who is logged in is known: a second render would wipe what was typed meanwhile.
  if (current) render();
  else {
    main.innerHTML = `<div class="lobby"><section class="box"><p class="muted">…</p></section></div>`;
    whoami().then(() => { if (alive) render(); });
  }
  return { render, close() { alive = false; } };
}

/** /u/NAME: the player's rating and finished games, newest first, each with a link to its replay. */
export function showProfile(main, name) {
  let data = null;
  let error = null;
  let alive = true;

  function gameRow(g) {
    const result = g.won ? t("web.account.won") : t("web.account.lost");
    const mine = g.seat % 2;
    const delta = g.rating_after.ordinal - g.rating_before.ordinal;
    return `<tr data-table="${esc(g.table)}"><td><time datetime="${esc(new Date(g.finished * 1000).toISOString())}">${esc(when(g.finished))}</time></td>
      <td>${esc(who(g.partner))}</td><td>${esc(g.opponents.map(who).join(" & "))}</td>
      <td class="score">${esc(`${g.score[mine]} – ${g.score[1 - mine]}`)}</td>
      <td class="${g.won ? "winner" : ""}">${esc(result)}</td>
      <td>${esc(num(g.rating_after.ordinal))} <span class="muted">(${delta >= 0 ? "+" : ""}${esc(num(delta))})</span></td>
      <td><a class="secondary" data-link href="/replay/${esc(g.table)}">${esc(t("web.lobby.replay"))}</a></td></tr>`;
  }

  function render() {
    if (error) {
      main.innerHTML = `<div class="lobby"><section class="box"><p>${esc(error)}</p></section></div>`;
      return;
    }
    if (!data) {
      main.innerHTML = `<div class="lobby"><section class="box"><p class="muted">…</p></section></div>`;
      return;
    }
    const acc = data.account;
    main.innerHTML = `<div class="lobby wide profile"><section class="box" aria-labelledby="prof-h">
      <h2 id="prof-h">${esc(acc.name)}</h2>
      <p class="rating" id="rating">${esc(t("web.account.rating", { rating: num(acc.rating.ordinal) }))}
        <span class="muted">(μ ${esc(num(acc.rating.mu))}, σ ${esc(num(acc.rating.sigma))}; ${esc(t("web.account.games", { n: acc.games }))})</span></p>
      </section>
      <section class="box" aria-labelledby="games-h"><h2 id="games-h">${esc(t("web.account.history"))}</h2>
      ${data.games.length ? `<div class="scroll"><table class="history" id="history"><thead><tr>
        <th>${esc(t("web.account.date"))}</th><th>${esc(t("web.account.partner"))}</th><th>${esc(t("web.account.opponents"))}</th>
        <th>${esc(t("web.account.score"))}</th><th>${esc(t("web.account.result"))}</th><th>${esc(t("web.account.rating_after"))}</th><th></th>
        </tr></thead><tbody>${data.games.map(gameRow).join("")}</tbody></table></div>`
        : `<p class="muted">${esc(t("web.account.no_games"))}</p>`}</section></div>`;
  }

  api(`/api/users/${encodeURIComponent(name)}`)
    .then((d) => { data = d; })
    .catch((e) => { error = e.code === "no_account" ? t("web.account.no_such", { name }) : errorText(e); })
    .finally(() => { if (alive) render(); });
  render();
  return { render, close() { alive = false; } };
}

/** /leaderboard: the accounts by rating (mu - 3 sigma), and the bots' fixed ratings for comparison. */
export function showLeaderboard(main) {
  let data = null;
  let alive = true;

  function render() {
    if (!data) {
      main.innerHTML = `<div class="lobby"><section class="box"><p class="muted">…</p></section></div>`;
      return;
    }
    const rows = data.players.map((p, i) => `<tr><td>${i + 1}</td><td><a data-link href="/u/${encodeURIComponent(p.name)}">${esc(p.name)}</a></td>
      <td>${esc(num(p.rating.ordinal))}</td><td>${esc(p.games)}</td></tr>`).join("");
    const bots = data.bots.map((b) => `<tr><td>${esc(botName(b.bot))}</td><td>${esc(num(b.mu))}</td></tr>`).join("");
    main.innerHTML = `<div class="lobby wide"><section class="box" aria-labelledby="lb-h">
      <h2 id="lb-h">${esc(t("web.account.leaderboard"))}</h2>
      ${data.players.length ? `<table class="history" id="leaderboard"><thead><tr><th>#</th><th>${esc(t("web.account.name"))}</th>
        <th>${esc(t("web.account.rating_col"))}</th><th>${esc(t("web.account.games_col"))}</th></tr></thead><tbody>${rows}</tbody></table>`
        : `<p class="muted">${esc(t("web.account.no_games"))}</p>`}
      <h3>${esc(t("web.account.bot_ratings"))}</h3>
      <table class="history" id="bot-ratings"><tbody>${bots}</tbody></table></section></div>`;
  }

  api("/api/leaderboard").then((d) => { data = d; if (alive) render(); })
    .catch((e) => toast(errorText(e)));
  render();
  return { render, close() { alive = false; } };
}
