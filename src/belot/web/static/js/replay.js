// Replays: a finished game stepped through action by action with all four hands open.
// The steps come from the record (hands, calls, cards, declarations, belote) and the server's
// results (who won each trick, the points); the client applies no rule of its own: the seat that
// plays each card follows from the trick winners in the results (R5.1).

import { api } from "./net.js";
import { t, esc } from "./i18n.js";
import { cardFace, cardWords, cardShort, sortHand } from "./cards.js";
import { botName, callHtml, multiplierText } from "./names.js";
import { sheetHtml, summaryHtml } from "./sheet.js";

const POSITIONS = ["bottom", "right", "top", "left"];

/** The steps of one deal of a record, given its results entry. */
export function dealSteps(deal, result) {
  const steps = [];
  const forehand = (deal.dealer + 1) % 4;
  deal.auction.forEach((call, i) => steps.push({ type: "call", seat: (forehand + i) % 4, call }));
  let leader = forehand;
  const winners = (result && result.tricks) || [];
  (deal.play || []).forEach((entry, k) => {
    const e = typeof entry === "string" ? { card: entry } : entry;
    const trick = k >> 2, place = k & 3;
    if (place === 0) leader = trick === 0 ? forehand : winners[trick - 1];
    const seat = (leader + place) % 4;
    for (const cards of e.declare || []) steps.push({ type: "declare", seat, cards });
    steps.push({ type: "card", seat, card: e.card, belote: !!e.belote, trick });
    if (place === 3 && winners[trick] !== undefined) steps.push({ type: "trick", seat: winners[trick], trick });
  });
  steps.push({ type: "end" });
  return steps;
}

/** The table after the first `upto` steps of a deal (hands, the trick on the table, calls, ...). */
export function stateAt(deal, steps, upto) {
  const played = new Set();
  let trick = [];
  let trickWinner = null;
  const calls = [];
  const announced = [[], [], [], []];
  const belotes = [];
  let auctionDone = false;
  for (let i = 0; i < upto; i++) {
    const s = steps[i];
    if (s.type === "call") calls.push(s);
    else {
      auctionDone = true;
      if (s.type === "declare") announced[s.seat].push(s.cards);
      else if (s.type === "card") {
        if (trickWinner !== null) { trick = []; trickWinner = null; }
        trick.push(s);
        played.add(s.card);
        if (s.belote) belotes.push(s);
      } else if (s.type === "trick") trickWinner = s.seat;
    }
  }
  if (calls.length === deal.auction.length && (deal.play || []).length) auctionDone = true;
  const hands = deal.hands.map((h) => (auctionDone ? h : h.slice(0, 5)));
  return { hands, played, trick, trickWinner, calls, announced, belotes };
}

export function showReplay(main, tableId) {
  let data = null;
  let dealIdx = 0;
  let step = 0;
  let steps = [];
  let alive = true;

  const names = () => (data.record.players || [null, null, null, null]);
  const label = (seat) => {
    const n = names()[seat];
    if (!n) return t("web.lobby.seat", { n: seat + 1 });
    return n.startsWith("bot") ? t("web.seat.bot", { bot: botName(n), n: seat + 1 }) : n;
  };
  const pos = (seat) => POSITIONS[seat];

  function setDeal(i, atEnd = false) {
    dealIdx = Math.max(0, Math.min(i, data.record.deals.length - 1));
    steps = dealSteps(data.record.deals[dealIdx], data.results.deals[dealIdx]);
    step = atEnd ? steps.length : 0;
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
    const deal = data.record.deals[dealIdx];
    const result = data.results.deals[dealIdx];
    const st = stateAt(deal, steps, step);
    const seats = [0, 1, 2, 3].map((seat) => {
      const hand = sortHand(st.hands[seat], result && result.contract);
      const cards = hand.map((c) => `<div class="card-slot ${st.played.has(c) ? "played" : ""}" data-card="${c}">${cardFace(c, cardWords(c, t))}</div>`).join("");
      const chips = [];
      if (deal.dealer === seat) chips.push(`<span class="chip dealer">${esc(t("term.dealer"))}</span>`);
      const lastCall = st.calls.filter((c) => c.seat === seat).pop();
      const parts = [];
      if (lastCall) parts.push(callHtml(lastCall.call));
      for (const cards of st.announced[seat]) parts.push(cards.map(cardShort).join(""));
      if (st.belotes.some((b) => b.seat === seat)) parts.push(esc(t("term.belote")));
      const next = steps[step];
      const turn = next && next.type !== "end" && next.type !== "trick" && next.seat === seat;
      return `<div class="area-${pos(seat)} seat pos-${pos(seat)} ${turn ? "turn" : ""}" data-seat="${seat}">
        <div class="nameplate"><span class="name">${esc(label(seat))}</span>${chips.join("")}</div>
        <div class="bubble">${parts.join(" · ")}</div><div class="open-hand">${cards}</div></div>`;
    }).join("");
    const trick = st.trick.map(({ seat, card }) => `<div class="tcard pos-${pos(seat)} ${st.trickWinner === seat ? "winning" : ""}" data-card="${card}">
      ${cardFace(card, cardWords(card, t))}<div class="who">${esc(label(seat))}</div></div>`).join("");
    const auctionOver = st.calls.length === deal.auction.length;
    let info = `<div>${esc(t("web.replay.deal_of", { i: dealIdx + 1, n: data.record.deals.length }))}</div>`;
    if (auctionOver && result && result.contract) {
      info += `<div class="big">${callHtml(result.contract)}</div><div>${esc(t("web.table.bid_by", { name: label(result.declarer) }))}</div>`;
      if (result.multiplier > 1) info += `<div><span class="chip kontra">${esc(multiplierText(result.multiplier))} ×${result.multiplier}</span></div>`;
    }
    const atEnd = step >= steps.length;
    const history = data.results.deals.slice(0, atEnd ? dealIdx + 1 : dealIdx);
    const potIn = dealIdx > 0 ? data.results.deals[dealIdx - 1].pot : 0;
    main.innerHTML = `<div class="replay">
      <h2 style="margin:4px 0;text-align:center">${esc(t("web.replay.title"))} · ${esc(tableId)}</h2>
      <div class="controls" role="toolbar" aria-label="${esc(t("web.replay.title"))}">
        <button data-go="prevdeal" ${dealIdx === 0 ? "disabled" : ""}>« ${esc(t("web.replay.prev_deal"))}</button>
        <button data-go="start" ${step === 0 ? "disabled" : ""}>${esc(t("web.replay.start"))}</button>
        <button data-go="prev" ${step === 0 ? "disabled" : ""}>◀ ${esc(t("web.replay.prev"))}</button>
        <span id="step-count">${esc(t("web.replay.step", { i: step, n: steps.length }))}</span>
        <button data-go="next" id="replay-next" ${atEnd ? "disabled" : ""}>${esc(t("web.replay.next"))} ▶</button>
        <button data-go="end" ${atEnd ? "disabled" : ""}>${esc(t("web.replay.end"))}</button>
        <button data-go="nextdeal" ${dealIdx >= data.record.deals.length - 1 ? "disabled" : ""}>${esc(t("web.replay.next_deal"))} »</button>
      </div>
      <div class="narration" id="narration" aria-live="polite">${narration(steps[step - 1])}</div>
      <div class="game">
        <div class="felt on-felt">
          <div class="area-info"><div class="info-panel">${info}</div></div>${seats}
          <div class="area-centre"><div class="trick">${trick}</div></div>
        </div>
        <div>${sheetHtml(history, data.record.target || 151, null, atEnd && dealIdx === data.record.deals.length - 1 ? data.results.winner : null)}
          ${atEnd && result ? `<div class="dialog" style="margin-top:8px" id="replay-summary">${summaryHtml({ declared: null, ...result }, dealIdx + 1, potIn, null, label)}</div>` : ""}</div>
      </div>
      <div class="hint">${esc(t("web.replay.keys_hint"))}</div></div>`;
    main.querySelectorAll("[data-go]").forEach((b) => b.addEventListener("click", () => go(b.dataset.go)));
  }

  function narration(s) {
    if (!s) return "";
    if (s.type === "call") return t("web.replay.called", { name: esc(label(s.seat)), call: callHtml(s.call) });
    if (s.type === "declare") return t("web.replay.declared", { name: esc(label(s.seat)), what: s.cards.map(cardShort).join(" ") });
    if (s.type === "card") {
      const text = t("web.replay.played", { name: esc(label(s.seat)), card: cardShort(s.card) });
      return s.belote ? `${text} · ${esc(t("web.replay.belote", { name: label(s.seat) }))}` : text;
    }
    if (s.type === "trick") return esc(t("web.replay.trick_won", { name: label(s.seat) }));
    return "";
  }

  function go(where) {
    if (where === "next") step = Math.min(step + 1, steps.length);
    else if (where === "prev") step = Math.max(step - 1, 0);
    else if (where === "start") step = 0;
    else if (where === "end") step = steps.length;
    else if (where === "nextdeal") setDeal(dealIdx + 1);
    else if (where === "prevdeal") setDeal(dealIdx - 1, true);
    render();
    const again = main.querySelector(`[data-go="${where}"]:not([disabled])`);
    if (again) again.focus();
  }

  function onKey(ev) {
    if (!data || data.error || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const map = { ArrowRight: "next", ArrowLeft: "prev", Home: "start", End: "end", PageDown: "nextdeal", PageUp: "prevdeal" };
    if (map[ev.key]) { ev.preventDefault(); go(map[ev.key]); }
  }
  document.addEventListener("keydown", onKey);

  (async () => {
    render();
    try {
      data = await api(`/api/tables/${tableId}/replay`);
      setDeal(0);
    } catch (e) {
      data = { error: e.message };
    }
    render();
  })();

  return { render, close() { alive = false; document.removeEventListener("keydown", onKey); } };
}
