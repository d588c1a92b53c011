// The lobby: your name, a new table (a bot level or a person for each other seat, the target),
// open tables to join with a shareable link each, and finished games to replay.

import { api, saveToken, savedTokens, forgetToken } from "./net.js";
import { t, esc, language, errorText } from "./i18n.js";
import { navigate, oneAtATime, toast } from "./ui.js";
import { botName, ended, seatName } from "./names.js";
import { whoami } from "./account.js";
import { EXCLUSIVE, HOUSE_RULES, houseRulesFieldset, optionsHtml } from "./options.js";
import { load, save } from "./store.js";

const NAME_KEY = "belot.name";
/** The longest name the server takes (server/names.py MAX_NAME): a longer one typed was refused. */
export const MAX_NAME = 32;
/** The largest match target a new game takes (game.py MAX_TARGET). */
export const MAX_TARGET = 10000;
const TARGET_RE = /^[1-9][0-9]*$/;

/** The target field says in the page's language when it holds no whole number from 1 to MAX_TARGET
 * (the browser then keeps the form from being sent; "0" was sent as 151). */
function checkTarget(input) {
  const ok = TARGET_RE.test(input.value) && +input.value <= MAX_TARGET;
  input.setCustomValidity(ok ? "" : t("web.lobby.target_range", { n: MAX_TARGET }));
}

export function myName() {
  return load(NAME_KEY) || "";
}

/** The name a guest typed, offered again next time. */
export function rememberName(name) {
  save(NAME_KEY, name);
}

export function showLobby(main) {
  let bots = { bots: ["bot:random"], default: "bot:random" };
  let open = [];
  let finished = [];
  let mine = []; // running tables this browser holds a seat at (its tokens in localStorage)
  let choice = null; // the seat settings, kept across re-renders
  let touched = false; // the user changed them: keep them when the bot list arrives
  let target = 151;
  let timer = 0; // seconds for each move, 0: no turn timer
  const chosen = new Set(); // the house rules picked (docs/rules.md section 6)
  let alive = true;
  let account = null; // the logged-in account, if any: it plays under its own name

  async function refresh() {
    try {
      const [b, o, all] = await Promise.all([api("/api/bots"), api("/api/tables"), api("/api/tables?all=1")]);
      bots = b;
      if (!touched) choice = [null, b.default, b.default, b.default];
      open = o.tables || [];
      finished = (all.tables || []).filter((x) => x.status === "finished");
      const me = await whoami(true);
      account = me.account;
      mine = await myTables();
      // With an account the server knows its running tables, also those this browser has no token for.
      for (const { table, seat } of me.tables || []) {
        if (!mine.some((x) => x.table.id === table.id)) mine.push({ table, seat, resume: true });
      }
    } catch (e) {
      toast(errorText(e));
    }
    if (alive) render();
  }

  function seatOptions(selected) {
    const opts = bots.bots.map((b) => `<option value="${esc(b)}"${b === selected ? " selected" : ""}>${esc(botName(b))}</option>`);
    opts.push(`<option value="human"${selected === "human" ? " selected" : ""}>${esc(t("web.lobby.seat_human"))}</option>`);
    return opts.join("");
  }

  function link(table) {
    return location.origin + ((table.links && table.links.table) || `/t/${table.id}`);
  }

  /** The running tables whose seat tokens this browser keeps; tables gone from the server are forgotten. */
  async function myTables() {
    const held = savedTokens();
    const found = await Promise.all(held.map(async ({ tableId, token }) => {
      try {
        const state = await api(`/api/tables/${tableId}/state?token=${encodeURIComponent(token)}`);
        return state.table && !ended(state.table) ? { table: state.table, seat: state.you && state.you.seat } : null;
      } catch (e) {
        // gone, not this table's token, or closed as abandoned: nothing to go back to
        if (e.code === "no_table" || e.code === "bad_token" || e.code === "match_over") forgetToken(tableId);
        return null;
      }
    }));
    return found.filter(Boolean).sort((a, b) => b.table.created - a.table.created);
  }

  function when(seconds) {
    try {
      return new Date(seconds * 1000).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
    } catch {
      return new Date(seconds * 1000).toLocaleString();
    }
  }

  function myItem({ table, seat, resume }) {
    const score = `${table.score[0]} – ${table.score[1]} / ${table.target}`;
    const partner = seat === null || seat === undefined ? "" : seatName(table, (seat + 2) % 4, null);
    return `<li data-table="${esc(table.id)}"><div class="row"><strong>${esc(table.id)}</strong>
      <span class="muted">${esc(score)}</span></div>
      ${partner ? `<div class="muted">${esc(t("web.seat.partner_named", { name: partner }))}</div>` : ""}
      <div class="row">${resume
        ? `<button class="primary" data-resume="${esc(table.id)}">${esc(t("web.lobby.continue"))}</button>`
        : `<a class="primary" data-link href="/t/${esc(table.id)}">${esc(t("web.lobby.continue"))}</a>`}</div></li>`;
  }

  /** A finished game: when, who played in which team, and who won. */
  function finishedItem(table) {
    const names = (team) => [team, team + 2].map((s) => seatName(table, s, null)).join(" & ");
    const won = table.winner === null || table.winner === undefined ? "" : t("web.lobby.won_by", { names: names(table.winner) });
    return `<li data-table="${esc(table.id)}"><div class="row"><strong>${esc(names(0))}</strong> <span class="muted">–</span> <strong>${esc(names(1))}</strong></div>
      <div class="row"><span class="score">${esc(`${table.score[0]} – ${table.score[1]}`)}</span>
        ${won ? `<span class="winner">${esc(won)}</span>` : ""}</div>
      <div class="row"><time class="muted" datetime="${esc(new Date(table.created * 1000).toISOString())}">${esc(when(table.created))}</time>
        <a class="secondary" data-link href="/replay/${esc(table.id)}">${esc(t("web.lobby.replay"))}</a>
        <a class="secondary analysis-link" data-link href="/replay/${esc(table.id)}?analysis">${esc(t("web.lobby.analysis"))}</a></div></li>`;
  }

  function tableItem(table) {
    const seats = table.seats.map((s) => {
      const free = s.kind === "human" && !s.taken && !s.reserved;
      const label = free ? t("web.lobby.free_seat") : seatName(table, s.seat, null);
      return `<span class="${free ? "free" : ""}">${s.seat + 1}: ${esc(label)}</span>`;
    }).join("");
    const score = `${table.score[0]} – ${table.score[1]} / ${table.target}`;
    return `<li data-table="${esc(table.id)}"><div class="row"><strong>${esc(table.id)}</strong>
      <span class="muted">${esc(score)}</span></div><div class="seats">${seats}</div>
      ${optionsHtml(table.options, `rules-${table.id}`)}
      <div class="row"><button class="secondary" data-join="${esc(table.id)}">${esc(t("web.lobby.join"))}</button>
         <a class="secondary" data-link href="/t/${esc(table.id)}">${esc(t("web.lobby.open"))}</a>
         <button class="secondary" data-copy="${esc(link(table))}">${esc(t("web.lobby.copy_link"))}</button></div>
      <div class="muted">${esc(t("web.lobby.link"))}: <a data-link href="/t/${esc(table.id)}">${esc(link(table))}</a></div></li>`;
  }

  function render() {
    if (!choice) choice = [null, bots.default, bots.default, bots.default];
    // The lobby renders again when its lists arrive: whoever is typing in the form keeps the focus
    // and the caret or selection (else the next keys went nowhere, or "1" typed over a selected "151"
    // made "1151"). So the target is a text field with a numeric keyboard: a number field hides its
    // selection from the page.
    const active = document.activeElement;
    const typing = active && active.id && main.contains(active) ? active.id : null;
    let caret = null;
    try { caret = typing ? [active.selectionStart, active.selectionEnd] : null; } catch (e) { caret = null; }
    main.innerHTML = `<div class="lobby">
      ${mine.length ? `<section class="box" aria-labelledby="mine-h">
        <h2 id="mine-h">${esc(t("web.lobby.my_tables"))}</h2>
        <ul class="table-list" id="my-tables">${mine.map(myItem).join("")}</ul></section>` : ""}
      <section class="box" aria-labelledby="new-h">
        <h2 id="new-h">${esc(t("web.lobby.new_table"))}</h2>
        <form id="create">
          ${account ? `<p id="playing-as">${esc(t("web.account.playing_as", { name: account.name }))}</p>`
          : `<label for="name">${esc(t("web.lobby.your_name"))}</label>
          <input id="name" name="name" maxlength="${MAX_NAME}" autocomplete="nickname" placeholder="${esc(t("web.lobby.name_placeholder"))}" value="${esc(myName())}">`}
          <label>${esc(t("web.lobby.seat", { n: 1 }))}</label>
          <div>${esc(t("web.lobby.seat_you"))}</div>
          ${[1, 2, 3].map((s) => `<label for="seat${s}">${esc(t("web.lobby.seat", { n: s + 1 }))}</label>
            <select id="seat${s}" data-seat="${s}">${seatOptions(choice[s])}</select>`).join("")}
          <label for="target">${esc(t("web.lobby.target"))}</label>
          <input id="target" type="text" inputmode="numeric" maxlength="5" value="${esc(target)}">
          <label for="timer">${esc(t("web.lobby.turn_timer"))}</label>
          <select id="timer">${[0, 15, 30, 60, 120].map((n) => `<option value="${n}"${n === timer ? " selected" : ""}>${
            esc(n ? t("web.lobby.seconds", { n }) : t("web.lobby.no_timer"))}</option>`).join("")}</select>
          ${houseRulesFieldset(chosen)}
          <button type="submit" class="primary" id="create-btn">${esc(t("web.lobby.create"))}</button>
        </form>
      </section>
      <section class="box" aria-labelledby="open-h">
        <h2 id="open-h">${esc(t("web.lobby.open_tables"))}</h2>
        ${open.length ? `<ul class="table-list" id="open-tables">${open.map((x) => tableItem(x)).join("")}</ul>`
                      : `<p class="muted">${esc(t("web.lobby.no_tables"))}</p>`}
        <button class="secondary" id="refresh" style="margin-top:8px">${esc(t("web.lobby.refresh"))}</button>
      </section>
      <section class="box" aria-labelledby="fin-h">
        <h2 id="fin-h">${esc(t("web.lobby.finished"))}</h2>
        ${finished.length ? `<ul class="table-list" id="finished-tables">${finished.map(finishedItem).join("")}</ul>`
                          : `<p class="muted">${esc(t("web.lobby.no_finished"))}</p>`}
      </section></div>`;

    const again = typing ? main.querySelector(`#${CSS.escape(typing)}`) : null;
    if (again) {
      again.focus();
      try { if (caret && caret[0] !== null) again.setSelectionRange(caret[0], caret[1]); } catch (e) { /* no caret */ }
    }
    const nameInput = main.querySelector("#name");
    // "input", not only "change": the lobby renders again when its lists arrive, and keeps what was typed.
    if (nameInput) nameInput.addEventListener("input", () => rememberName(nameInput.value.trim()));
    main.querySelectorAll("select[data-seat]").forEach((sel) =>
      sel.addEventListener("change", () => { choice[+sel.dataset.seat] = sel.value; touched = true; }));
    const targetInput = main.querySelector("#target");
    checkTarget(targetInput);
    targetInput.addEventListener("input", () => { target = targetInput.value; checkTarget(targetInput); });
    main.querySelector("#timer").addEventListener("change", (e) => { timer = +e.target.value; });
    main.querySelectorAll("input[data-option]").forEach((box) => box.addEventListener("change", () => {
      const opt = box.dataset.option;
      if (!box.checked) { chosen.delete(opt); return; }
      chosen.add(opt);
      const other = EXCLUSIVE[opt]; // OPT-CAPOT-NI and OPT-CAPOT-EN exclude each other (R12)
      if (other && chosen.delete(other)) main.querySelector(`input[data-option="${other}"]`).checked = false;
    }));
    main.querySelector("#refresh").addEventListener("click", refresh);
    main.querySelector("#create").addEventListener("submit", (ev) => { ev.preventDefault(); create(); });
    main.querySelectorAll("[data-join]").forEach((b) => b.addEventListener("click", () => joinTable(b.dataset.join)));
    main.querySelectorAll("[data-resume]").forEach((b) => b.addEventListener("click", () => resume(b.dataset.resume)));
    main.querySelectorAll("[data-copy]").forEach((b) => b.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(b.dataset.copy); toast(t("web.lobby.copied")); }
      catch { toast(b.dataset.copy); }
    }));
  }

  const create = oneAtATime(async () => {
    const nameInput = main.querySelector("#name");
    const name = nameInput ? nameInput.value.trim() : "";
    if (nameInput) rememberName(name);
    const seats = ["human", ...[1, 2, 3].map((s) => main.querySelector(`#seat${s}`).value)];
    const tgt = Number(main.querySelector("#target").value);  // checkTarget let only 1..MAX_TARGET through
    try {
      const turnTimer = +main.querySelector("#timer").value || null;
      const options = HOUSE_RULES.filter((o) => chosen.has(o));
      const res = await api("/api/tables", { target: tgt, seats, seat: 0, name: name || null, turn_timer: turnTimer, options });
      saveToken(res.table.id, res.token);
      navigate(`/t/${res.table.id}`);
    } catch (e) {
      toast(errorText(e));
    }
  });

  const resume = oneAtATime(async (tableId) => {
    try {
      const res = await api(`/api/tables/${tableId}/resume`, {});
      saveToken(res.table.id, res.token);
      navigate(`/t/${res.table.id}`);
    } catch (e) {
      toast(errorText(e));
    }
  });

  render();
  refresh();
  return { render, close() { alive = false; } };
}

export const joinTable = oneAtATime(async (tableId, seat) => {
  try {
    const body = { name: myName() || null };
    if (seat !== undefined) body.seat = seat;
    const res = await api(`/api/tables/${tableId}/join`, body);
    saveToken(tableId, res.token);
    navigate(`/t/${tableId}`); // (re)opens the table with the new seat's token
  } catch (e) {
    toast(errorText(e));
  }
});
