// Replays: a finished game stepped through action by action with all four hands open.
// The steps are the server's (`steps` of /api/tables/{id}/replay, projected by belot.visibility):
// per deal the position as dealt, then the position after each action. The client applies no
// rule of its own and works out nothing: it shows each position as it comes.

import { api } from "./net.js";
import { t, esc, errorText } from "./i18n.js";
import { cardFace, cardWords, cardShort, cardsShort, sortHand } from "./cards.js";
import { botName, callHtml, multiplierText } from "./names.js";
import { optionsHtml } from "./options.js";
import { sheetHtml, summaryHtml } from "./sheet.js";
import { bestOptions, followAnalysis, panelHtml, stepOf } from "./analysis.js";

const POSITIONS = ["bottom", "right", "top", "left"];

/** The cards played so far in a position (closed tricks and the trick on the table). */
function playedIn(view) {
  const played = new Set();
  for (const tr of view.tricks) for (const c of tr.cards) played.add(c.card);
  for (const c of view.trick) played.add(c.card);
  return played;
}

/** The trick to show: the one on the table, or the one the last card closed (with its winner). */
function trickShown(view, step) {
  if (view.trick.length || !step.action || !step.action.card || !view.tricks.length) return { cards: view.trick, winner: null };
  const last = view.tricks[view.tricks.length - 1];
  return { cards: last.cards, winner: last.winner };
}

/** A selector that finds the control again once the page is drawn anew, or null. */
function focusKey(el) {
  for (const attr of ["data-go", "data-i", "data-team"]) {
    if (el.hasAttribute(attr)) return `${el.tagName.toLowerCase()}[${attr}="${CSS.escape(el.getAttribute(attr))}"]`;
  }
  return el.id ? `#${CSS.escape(el.id)}` : null;
}

/* One of the replay's step buttons: its symbol and its name (the symbol first when it points back).
   On a phone the names give way and the six buttons share one row (docs/browser.md); the name stays
   the button's accessible name and its tooltip. */
function control(go, symbol, text, disabled, back, id = "") {
  const name = esc(text);
  const sym = `<span class="sym" aria-hidden="true">${symbol}</span>`;
  const label = `<span class="lb">${name}</span>`;
  return `<button data-go="${go}"${id ? ` id="${id}"` : ""} aria-label="${name}" title="${name}" ${disabled ? "disabled" : ""}>${back ? `${sym} ${label}` : `${label} ${sym}`}</button>`;
}

export function showReplay(main, tableId) {
  let data = null;
  let dealIdx = 0;
  let step = 0;      // the actions shown of the deal: its position is steps[step]
  let steps = [];     // the deal's positions: as dealt, then after each action
  let alive = true;
  // analysis mode (issue 22): /replay/ID?analysis, the panel under the table
  let analysisOn = new URLSearchParams(location.search).has("analysis");
  let job = null;
  let team = 0;
  let picked = -1;   // the decision last picked in the analysis list or chart (its index in the deal)
  let unfollow = null;

  const names = () => (data.record.players || [null, null, null, null]);
  const label = (seat) => {
    const n = names()[seat];
    if (!n) return t("web.lobby.seat", { n: seat + 1 });
    return n.startsWith("bot") ? t("web.seat.bot", { bot: botName(n), n: seat + 1 }) : n;
  };
  const pos = (seat) => POSITIONS[seat];

  function setDeal(i, atEnd = false) {
    dealIdx = Math.max(0, Math.min(i, data.record.deals.length - 1));
    steps = data.steps[dealIdx];
    step = atEnd ? steps.length - 1 : 0;
    picked = -1;
  }

  function render() {
    if (!alive) return;
    document.getElementById("topbar-extra").innerHTML =
      `<a class="round-btn" data-link href="/">${esc(t("web.table.back_to_lobby"))}</a>`;
    if (!data) {
      main.innerHTML = `<p style="padding:16px">${esc(t("web.loading"))}</p>`;
      return;
    }
    if (data.error) {
      main.innerHTML = `<div class="lobby"><p class="box">${esc(t("web.replay.not_found"))} ${esc(data.error)}</p></div>`;
      return;
    }
    const result = data.results.deals[dealIdx];
    const doc = job && job.status === "done" ? job.result : null;
    const dealAnalysis = doc ? doc.deals.find((d) => d.deal === dealIdx) : undefined;
    const decisions = dealAnalysis ? dealAnalysis.decisions : [];
    const recordDeal = data.record.deals[dealIdx];
    // The decision of this step whose best cards are shown: its call, declaration or card, not the
    // belote that came with the card. The one marked current is the one picked, where it is of this step
    // (a belote, or a belote without a card decision: its card was forced), else that one.
    const made = analysisOn ? decisions.findIndex((d) => stepOf(d, recordDeal) === step && d.kind !== "belote") : -1;
    const current = analysisOn && picked >= 0 && picked < decisions.length && stepOf(decisions[picked], recordDeal) === step ? picked : made;
    const bestCards = made >= 0 && decisions[made].kind === "card" ? new Set(bestOptions(decisions[made])) : new Set();
    const now = steps[step];
    const v = now.view;
    const played = playedIn(v);
    const shownTrick = trickShown(v, now);
    const seats = [0, 1, 2, 3].map((seat) => {
      const hand = sortHand(v.hands[seat], result && result.contract);
      const best = made >= 0 && decisions[made].seat === seat ? bestCards : new Set();
      const cards = hand.map((c) => `<div class="card-slot ${played.has(c) ? "played" : ""} ${best.has(c) ? "best-card" : ""}" data-card="${c}">${cardFace(c, cardWords(c, t))}</div>`).join("");
      const chips = [];
      if (v.dealer === seat) chips.push(`<span class="chip dealer">${esc(t("term.dealer"))}</span>`);
      const lastCall = v.calls.filter((c) => c.seat === seat).pop();
      const parts = [];
      if (lastCall) parts.push(callHtml(lastCall.call));
      for (const cards of v.declared[seat]) parts.push(cards.map(cardShort).join(" "));
      if (v.belotes.some((b) => b.seat === seat)) parts.push(esc(t("term.belote")));
      const turn = v.to_move === seat;
      return `<div class="area-${pos(seat)} seat pos-${pos(seat)} ${turn ? "turn" : ""}" data-seat="${seat}">
        <div class="nameplate"><span class="name">${esc(label(seat))}</span>${chips.join("")}</div>
        <div class="bubble">${parts.join(" · ")}</div><div class="open-hand">${cards}</div></div>`;
    }).join("");
    const trick = shownTrick.cards.map(({ seat, card }) => `<div class="tcard pos-${pos(seat)} ${shownTrick.winner === seat ? "winning" : ""}" data-card="${card}">
      ${cardFace(card, cardWords(card, t))}<div class="who">${esc(label(seat))}</div></div>`).join("");
    const auctionOver = v.phase !== "auction";
    let info = `<div>${esc(t("web.replay.deal_of", { i: dealIdx + 1, n: data.record.deals.length }))}</div>`;
    info += optionsHtml(data.record.options, `rules-replay-${tableId}`);
    if (auctionOver && result && result.contract) {
      info += `<div class="big">${callHtml(result.contract)}</div><div>${esc(t("web.table.bid_by", { name: label(result.declarer) }))}</div>`;
      if (result.multiplier > 1) info += `<div><span class="chip kontra">${esc(multiplierText(result.multiplier))} ×${result.multiplier}</span></div>`;
    }
    const atEnd = step >= steps.length - 1;
    const history = data.results.deals.slice(0, atEnd ? dealIdx + 1 : dealIdx);
    // The page is drawn anew on each step, each pick of a decision or a team, and each second while
    // the analysis runs: the keyboard's focus stays on the control it was on (it went to the page's
    // start), and the list of decisions keeps its scroll (it went back to its top).
    const focused = main.contains(document.activeElement) ? focusKey(document.activeElement) : null;
    const listTop = main.querySelector("#analysis-decisions")?.scrollTop ?? 0;
    const potIn = dealIdx > 0 ? data.results.deals[dealIdx - 1].pot : 0;
    main.innerHTML = `<div class="replay">
      <h2 style="margin:4px 0;text-align:center">${esc(t("web.replay.title"))} · ${esc(tableId)}</h2>
      <div class="controls" role="toolbar" aria-label="${esc(t("web.replay.title"))}">
        ${control("prevdeal", "«", t("web.replay.prev_deal"), dealIdx === 0, true)}
        ${control("start", "⇤", t("web.replay.start"), step === 0, true)}
        ${control("prev", "◀", t("web.replay.prev"), step === 0, true)}
        <span id="step-count">${esc(t("web.replay.step", { i: step, n: steps.length - 1 }))}</span>
        ${control("next", "▶", t("web.replay.next"), atEnd, false, "replay-next")}
        ${control("end", "⇥", t("web.replay.end"), atEnd, false)}
        ${control("nextdeal", "»", t("web.replay.next_deal"), dealIdx >= data.record.deals.length - 1, false)}
        <button data-go="analysis" id="analysis-toggle" aria-pressed="${analysisOn}">${esc(t("web.analysis.title"))}</button>
      </div>
      <div class="narration" id="narration" aria-live="polite">${narration(now)}</div>
      <div class="game">
        <div class="felt on-felt">
          <div class="area-info"><div class="info-panel">${info}</div></div>${seats}
          <div class="area-centre"><div class="trick">${trick}</div></div>
        </div>
        <div>${sheetHtml(history, data.record.target || 151, null, atEnd && dealIdx === data.record.deals.length - 1 ? data.results.winner : null)}
          ${atEnd && result ? `<div class="dialog" style="margin-top:8px" id="replay-summary">${summaryHtml({ declared: null, ...result }, dealIdx + 1, potIn, null, label)}</div>` : ""}</div>
      </div>
      ${analysisOn ? panelHtml(job, dealAnalysis, doc, { team, current, label }) : ""}
      <div class="hint">${esc(t("web.replay.keys_hint"))}</div></div>`;
    const list = main.querySelector("#analysis-decisions");
    if (list) list.scrollTop = listTop;
    const again = focused && main.querySelector(focused);
    if (again) again.focus({ preventScroll: true });
    main.querySelectorAll("[data-go]").forEach((b) => b.addEventListener("click", () => go(b.dataset.go)));
    const jump = (i) => { picked = i; step = stepOf(decisions[i], recordDeal); render(); };
    main.querySelectorAll("#analysis .pt, #analysis .decision").forEach((el) => {
      el.addEventListener("click", () => jump(Number(el.dataset.i)));
      el.addEventListener("keydown", (ev) => {  // a decision is a button: Enter or Space picks it
        if (ev.key !== "Enter" && ev.key !== " ") return;
        ev.preventDefault();  // Space would scroll the page
        jump(Number(el.dataset.i));
      });
    });
    main.querySelectorAll("#analysis [data-team]").forEach((b) => b.addEventListener("click", () => { team = Number(b.dataset.team); render(); }));
  }

  function narration(s) {
    const a = s.action;
    if (!a) return "";
    const who = esc(label(s.actor));
    if (a.call) {
      // The auction names the call made (a surkontra goes through the kontra action, R3.3).
      const made = s.view.calls.length ? s.view.calls[s.view.calls.length - 1].call : a.call;
      return t("web.replay.called", { name: who, call: callHtml(made) });
    }
    if (a.declare) return t("web.replay.declared", { name: who, what: cardsShort(a.declare) });
    let text = t("web.replay.played", { name: who, card: cardShort(a.card) });
    if (a.belote) text += ` · ${esc(t("web.replay.belote", { name: label(s.actor) }))}`;
    const shown = trickShown(s.view, s);
    if (shown.winner !== null) text += ` · ${esc(t("web.replay.trick_won", { name: label(shown.winner) }))}`;
    return text;
  }

  function go(where) {
    picked = -1;  // a step by the controls or the keys: the step's own decision is current
    if (where === "next") step = Math.min(step + 1, steps.length - 1);
    else if (where === "prev") step = Math.max(step - 1, 0);
    else if (where === "start") step = 0;
    else if (where === "end") step = steps.length - 1;
    else if (where === "nextdeal") setDeal(dealIdx + 1);
    else if (where === "prevdeal") setDeal(dealIdx - 1, true);
    else if (where === "analysis") setAnalysis(!analysisOn);
    render();
    const again = main.querySelector(`[data-go="${where}"]:not([disabled])`);
    if (again) again.focus();
  }

  function setAnalysis(on) {
    analysisOn = on;
    history.replaceState(history.state, "", `/replay/${tableId}${on ? "?analysis" : ""}`);
    if (on && !unfollow) unfollow = followAnalysis(tableId, (j) => { job = j; render(); });
  }

  function onKey(ev) {
    if (!data || data.error || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const map = { ArrowRight: "next", ArrowLeft: "prev", Home: "start", End: "end", PageDown: "nextdeal", PageUp: "prevdeal" };
    if (map[ev.key]) { ev.preventDefault(); go(map[ev.key]); }
  }
  document.addEventListener("keydown", onKey);
  // the analysis chart is drawn for the page's width (analysis.js): again when that changes
  let resizing = null;
  const onResize = () => { clearTimeout(resizing); resizing = setTimeout(() => { if (analysisOn && data && !data.error) render(); }, 150); };
  window.addEventListener("resize", onResize);

  (async () => {
    render();
    try {
      data = await api(`/api/tables/${tableId}/replay`);
      setDeal(0);
      if (analysisOn) setAnalysis(true);
    } catch (e) {
      data = { error: errorText(e) };
    }
    render();
  })();

  return { render, close() { alive = false; if (unfollow) unfollow(); document.removeEventListener("keydown", onKey); window.removeEventListener("resize", onResize); } };
}
