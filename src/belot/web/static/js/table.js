// A table: the four seats in playing order (you at the bottom, the next seat on your right, your
// partner at the top), your hand, the auction, declarations and belote, the trick, the score sheet,
// the end-of-deal summary and the match end. Everything shown comes from the server's `state`
// messages (docs/protocol.md); the legal actions are the server's `legal` list, sent back unchanged.

import { api, savedToken, saveToken, forgetToken, TableSocket, ApiError } from "./net.js";
import { t, esc, errorText } from "./i18n.js";
import { cardFace, cardBack, cardWords, cardsShort, sortHand } from "./cards.js";
import { optionsHtml } from "./options.js";
import { callHtml, callMade, multiplierText, seatName, plainSeatName, botName, partnerOf, teamWord, declName, ended } from "./names.js";
import { sheetHtml, summaryHtml } from "./sheet.js";
import { banner, navigate, oneAtATime, toast } from "./ui.js";
import { joinTable, myName, rememberName, MAX_NAME } from "./lobby.js";
import { accountName } from "./account.js";

const POSITIONS = ["bottom", "right", "top", "left"];

export function showTable(main, tableId) {
  let token = savedToken(tableId);
  let socket = null;
  let msg = null;          // the last state message
  let busy = false;        // an action was sent and its state has not come back yet
  let focusCard = null;    // keyboard focus in the hand
  let beloteFor = null;    // the K/Q waiting for the belote question
  let dialog = null;       // "last", "sheet" or null
  let ackDeal = null;      // the last deal whose summary was seen
  let summary = null;      // {dealNo, result, potIn} shown until acknowledged
  let matchEndSeen = false;
  let wasDown = false;
  let alive = true;
  let joinName = null;     // the name typed to take a seat (kept across re-renders)
  let deadlineAt = null;   // when the turn timer of the seat to move runs out (page clock)
  const ticker = setInterval(() => tick(), 1000);

  const me = () => (msg && msg.you && msg.you.seat !== null && msg.you.seat !== undefined ? msg.you.seat : null);
  const viewer = () => (me() === null ? 0 : me());
  const pos = (seat) => POSITIONS[(seat - viewer() + 4) % 4];
  const label = (seat) => seatName(msg && msg.table, seat, me());
  const myTeam = () => (me() === null ? null : me() & 1);
  /** A seat's side for the summary: "Them" for an opponent, nothing for us ("You", "Partner" say it). */
  const team = (seat) => (me() !== null && (seat & 1) === myTeam() ? "" : teamWord(seat, me()));
  /** The nameplate's name: the partner's own name (the "partner" chip says the rest), else the label. */
  const plateName = (seat) => {
    if (me() === null || seat !== partnerOf(me())) return label(seat);
    const s = msg.table.seats[seat];
    return s && s.kind === "bot" ? botName(s.bot) : plainSeatName(msg.table, seat);
  };
  const teamClass = (seat) => (me() === null ? `team${seat & 1}` : (seat & 1) === myTeam() ? "us" : "them");

  function connect() {
    if (socket) socket.close();
    socket = new TableSocket(tableId, token, onMessage, onStatus);
  }

  function onStatus(up) {
    if (!alive) return;
    if (!up) {
      wasDown = true;
      banner(t("web.reconnecting"));
    } else if (wasDown) {
      banner(t("web.reconnected"), true);
      setTimeout(() => { if (socket && socket.up) banner(""); }, 1500);
    }
  }

  function onMessage(m) {
    if (!alive) return;
    if (m.type === "state") {
      timedOut(msg, m);
      msg = m;
      deadlineAt = m.deadline === null || m.deadline === undefined ? null : Date.now() + m.deadline * 1000;
      busy = false;
      noteDealChanges();
      announce();
      render();
    } else if (m.type === "error") {
      busy = false;
      if (m.code === "bad_token") {
        forgetToken(tableId);
        token = null;
        connect();
        return;
      }
      if (m.code === "no_table") {
        main.innerHTML = `<div class="lobby"><p class="box">${esc(t("web.table.not_found"))}</p></div>`;
        return;
      }
      if (m.code === "stale") socket.send({ type: "sync" });
      else toast(errorText(m));
      render();
    }
  }

  /** The turn timer ran out on this seat's turn and its substitute acted (the state after it says the
   * action was a bot's, on this seat): say so, or the call or card seemed to play itself. */
  function timedOut(before, after) {
    const mine = me();
    const last = after.last_action;
    if (mine === null || !before || before.deadline === null || before.deadline === undefined || !before.view
        || before.view.to_move !== mine || after.seq !== before.seq + 1 || !last || last.seat !== mine || !last.bot) return;
    toast(t("web.table.timed_out"));
  }

  function noteDealChanges() {
    const v = msg.view;
    if (!v) return;
    if (ackDeal === null) ackDeal = v.deal_index - (msg.previous_deal ? 2 : 1);
    const prev = msg.previous_deal;
    if (!summary && v.deal_index - 1 > ackDeal) {
      const d = v.deal_index - 1;
      const fromPrev = prev && prev.deal_index === d && prev.result;
      const result = fromPrev ? prev.result : v.history[d];
      const potIn = fromPrev ? prev.pot : d > 0 && v.history[d - 1] ? v.history[d - 1].pot : 0;
      if (result) summary = { dealNo: d + 1, result, potIn, index: d };
    }
    if (beloteFor && !legalFor(beloteFor).belote) beloteFor = null;
  }

  /**
   * What the state brought, in words, for a screen reader: the other seats' calls, cards,
   * declarations and belotes since the last state, who took a closed trick, and whose turn it is
   * now. The table is drawn anew on every state (no live region of it survives a redraw), so this
   * is said through #announce, which stays. Of the state the page opens with, only whose turn it is.
   */
  let heard = null; // {deal, calls, cards, said, turn}: how much of the deal was already said
  function announce() {
    const el = document.getElementById("announce");
    const v = msg.view;
    if (!el || !v) return;
    const played = [...v.tricks.flatMap((tr) => tr.cards), ...v.trick];
    // each seat's declarations then its belote, as words: a seat's list only grows during a deal
    const said = [0, 1, 2, 3].map((seat) => [...(v.announced[seat] || []).map((k) => declName(k)),
      ...v.belotes.filter((b) => b.seat === seat).map(() => t("term.belote"))]);
    const now = { deal: v.deal_index, calls: v.calls.length, cards: played.length, said, turn: v.to_move };
    const was = heard && heard.deal === now.deal ? heard : heard && { calls: 0, cards: 0, said: [[], [], [], []], turn: null };
    heard = now;
    const turnLine = () => {
      if (now.turn === me() && me() !== null && msg.table.status === "playing") return t(v.phase === "auction" ? "web.table.your_call" : "web.table.your_turn");
      if (now.turn !== null && now.turn !== undefined && now.turn !== me()) return t("web.table.waiting_for", { name: label(now.turn) });
      return "";
    };
    if (!was) {  // the page opens: no history read out, but whose turn it is (a person arriving at their call)
      const turn = turnLine();
      if (turn) el.textContent = turn;
      return;
    }
    const lines = [];
    const by = (seat, what) => { if (seat !== me()) lines.push(`${label(seat)}: ${what}`); };
    for (const c of v.calls.slice(was.calls)) by(c.seat, t("call." + c.call));
    said.forEach((words, seat) => words.slice(was.said[seat].length).forEach((w) => by(seat, w)));
    played.slice(was.cards).forEach(({ seat, card }, i) => {
      by(seat, cardWords(card, t));
      const closed = Math.floor((was.cards + i) / 4); // the trick this card closed, if it was its fourth
      if ((was.cards + i) % 4 === 3 && v.tricks[closed]) lines.push(wonBy(v.tricks[closed].winner));
    });
    if (now.turn !== was.turn || lines.length) {
      const turn = turnLine();
      if (turn) lines.push(turn);
    }
    if (lines.length) el.textContent = lines.join(". ");
  }

  // -- actions ----------------------------------------------------------------------------

  /** The seat's legal actions, none while the table waits for players (the server would refuse). */
  function legalList() {
    // Nothing more to choose while an action is on its way (no double plays, no stale clicks).
    if (busy || !msg || !msg.view || msg.table.status !== "playing") return [];
    return msg.view.legal || [];
  }

  function legalFor(card) {
    const legal = legalList();
    return {
      plain: legal.some((a) => a.card === card && !a.belote),
      belote: legal.some((a) => a.card === card && a.belote),
    };
  }

  async function send(action) {
    if (busy || !msg) return;
    busy = true;
    beloteFor = null;
    render();
    if (socket && socket.send({ type: "action", action, seq: msg.seq })) return;
    // The socket is down: the same action over HTTP; the state comes back in the answer.
    try {
      const state = await api(`/api/tables/${tableId}/action`, { token, action, seq: msg.seq });
      onMessage(state.type ? state : { type: "state", ...state });
    } catch (e) {
      busy = false;
      toast(errorText(e));
    }
  }

  function playCard(card) {
    const l = legalFor(card);
    if (!l.plain && !l.belote) return;
    if (l.belote && l.plain) {
      beloteFor = card;
      render();
      const yes = main.querySelector("#belote-yes");
      if (yes) yes.focus();
      return;
    }
    send(l.belote ? { card, belote: true } : { card });
  }

  // -- rendering --------------------------------------------------------------------------

  let focusJoin = null; // caret position in the name box when the page is redrawn under the typing
  let returnTo = null;   // where the focus goes when the dialog it was in closes (its opener)

  /**
   * Where the keyboard's focus is, as a way to find the same control in the page drawn anew: every
   * state redraws the table, which replaced the control the person had (the Score sheet button, a
   * call, the match end's Rematch) and left the focus nowhere, or on the dialog's first button.
   */
  function focusSpot() {
    const el = document.activeElement;
    const extra = document.getElementById("topbar-extra");
    if (!el || el === document.body || !(main.contains(el) || extra.contains(el))) return null;
    if (el.id) return { scope: null, sel: `#${CSS.escape(el.id)}`, index: 0 };
    const scope = el.parentElement.closest("[id]");
    let sel = el.tagName.toLowerCase();
    const key = ["data-call", "data-card", "data-declare", "data-belote", "data-sit", "data-close", "data-close-end", "href"]
      .find((a) => el.hasAttribute(a));
    if (key) sel += `[${key}="${CSS.escape(el.getAttribute(key))}"]`;
    const root = scope || document;
    return { scope: scope && scope.id, sel, index: [...root.querySelectorAll(sel)].indexOf(el) };
  }

  /** What else a redraw lost: the open <details> and how far the dialog or the phone's sheet was scrolled. */
  function viewSpot() {
    return {
      open: [...main.querySelectorAll("details")].map((d) => d.open),
      scroll: ["#match-end .dialog-body", "#summary-dialog .dialog-body", "#last-dialog .dialog-body", "#sheet"]
        .map((sel) => [sel, main.querySelector(sel)]).filter(([, el]) => el && el.scrollTop).map(([sel, el]) => [sel, el.scrollTop]),
    };
  }

  function render() {
    if (!alive) return;
    const spot = focusSpot();
    const view = viewSpot();
    draw();
    const details = [...main.querySelectorAll("details")];
    if (details.length === view.open.length) details.forEach((d, i) => { d.open = view.open[i]; });
    for (const [sel, top] of view.scroll) {
      const el = main.querySelector(sel);
      if (el) el.scrollTop = top;
    }
    placeFocus(spot);
  }

  /**
   * The focus after a redraw: the control the person had; in a dialog that has just opened, its
   * main button; when the control is gone (a call made, a dialog closed), the dialog's opener or
   * the calls' area, so that the next Tab goes on from there rather than from the page's start.
   */
  function placeFocus(spot) {
    const overlay = main.querySelector(".overlay");
    const back = returnTo;
    returnTo = null;
    if (spot) {
      const root = spot.scope ? document.getElementById(spot.scope) : document;
      const found = root ? root.querySelectorAll(spot.sel) : [];
      const el = found[spot.index] || found[0];
      if (el && !el.closest("[inert]")) el.focus({ preventScroll: true });
    }
    const active = document.activeElement;
    if (overlay) {
      if (!overlay.contains(active)) {
        // Not scrolled to: a tall dialog opens at its heading, its buttons in view at its foot (overlayHtml).
        const primary = overlay.querySelector(".primary");
        if (primary) primary.focus({ preventScroll: true });
      }
      return;
    }
    if (active && active !== document.body) return;
    const card = focusCard && main.querySelector(`#hand .card.legal[data-card="${focusCard}"]`);
    const el = (back && main.querySelector(back)) || (card && !beloteFor ? card : null) || (spot ? main.querySelector("#actions") : null);
    if (el) el.focus({ preventScroll: true });
  }

  function draw() {
    const typing = document.activeElement && document.activeElement.id === "join-name" ? document.activeElement : null;
    focusJoin = typing ? typing.selectionStart ?? typing.value.length : null;
    if (!msg) {
      main.innerHTML = `<p style="padding:16px">${esc(t("web.loading"))}</p>`;
      return;
    }
    const v = msg.view;
    const table = msg.table;
    document.getElementById("topbar-extra").innerHTML =
      `<a class="round-btn" data-link href="/">${esc(t("web.table.back_to_lobby"))}</a>` +
      (token && !ended(table) ? ` <button class="round-btn" id="btn-leave">${esc(t("web.table.leave"))}</button>` : "");
    const leave = document.getElementById("btn-leave");
    if (leave) leave.addEventListener("click", leaveSeat);
    if (!v) {
      main.innerHTML = `<div class="lobby"><div class="box"><p>${esc(t("web.table.waiting_players"))}</p>${optionsHtml(table.options, `rules-table-${tableId}`)}${seatListHtml(table)}</div></div>`;
      bindSeatList();
      return;
    }
    const seats = [0, 1, 2, 3].map((s) => seatHtml(s)).join("");
    main.innerHTML = `<div class="game">
      <div class="felt on-felt" data-phase="${esc(v.phase)}">
        <div class="area-info">${infoHtml()}</div>
        ${seats}
        <div class="area-sheetbtn">
          <button class="round-btn" id="btn-last" aria-keyshortcuts="L">${esc(t("web.table.last_trick"))}</button>
          <button class="round-btn" id="btn-sheet" aria-keyshortcuts="S">${esc(t("web.table.score_sheet"))}</button>
        </div>
        <div class="area-centre">${centreHtml()}</div>
        <div class="area-bottom hand-area">${myAreaHtml()}</div>
      </div>
      <div class="sheet-wrap ${dialog === "sheet" ? "open" : ""}" id="sheet">
        <button class="sheet-close round-btn" id="sheet-close" aria-label="${esc(t("web.table.hide"))}">✕ ${esc(t("web.table.hide"))}</button>
        ${sheetHtml(v.history, v.target, myTeam(), v.winner)}</div>
    </div>${dialogHtml()}`;
    bind();
  }

  function seatChips(seat) {
    const v = msg.view;
    const chips = [];
    if (v.dealer === seat) chips.push(`<span class="chip dealer" title="${esc(t("term.dealer"))}">${esc(t("term.dealer"))}</span>`);
    if (v.contract && v.declarer === seat) chips.push(`<span class="chip contract">${callHtml(v.contract)}</span>`);
    const doubler = doublerSeat();
    if (doubler && doubler.seat === seat) chips.push(`<span class="chip kontra">${esc(t("call." + doubler.call))}</span>`);
    const st = msg.table.seats[seat];
    if (me() !== null && seat === partnerOf(me())) chips.push(`<span class="chip partner">${esc(t("web.seat.partner"))}</span>`);
    if (st && st.kind === "human" && st.taken && !st.connected && seat !== me()) chips.push(`<span class="chip offline">${esc(t("web.seat.offline"))}</span>`);
    return chips.join("");
  }

  function seatHtml(seat) {
    const v = msg.view;
    const p = pos(seat);
    const turn = v.to_move === seat;
    const plate = `<div class="nameplate ${teamClass(seat)}"><span class="name" title="${esc(label(seat))}">${esc(plateName(seat))}</span>${seatChips(seat)}</div>`;
    if (p === "bottom") return ""; // my own seat is drawn with my hand
    const n = v.hand_sizes[seat];
    const backs = Array.from({ length: n }, () => `<div class="mini">${cardBack()}</div>`).join("");
    return `<div class="area-${p} seat pos-${p} ${turn ? "turn" : ""}" data-seat="${seat}" aria-label="${esc(label(seat))}">
      ${plate}<div class="bubble">${bubbleHtml(seat)}</div>
      <div class="backs" title="${esc(t("web.table.cards_left", { n }))}">${backs}</div></div>`;
  }

  function doublerSeat() {
    const v = msg.view;
    if (!v.contract || v.multiplier === 1) return null;
    for (let i = v.calls.length - 1; i >= 0; i--) {
      const c = v.calls[i];
      if (c.call === "kontra" || c.call === "rekontra" || c.call === "surkontra") return c;
    }
    return null;
  }

  function bubbleHtml(seat) {
    const v = msg.view;
    if (v.phase === "auction") {
      const mine = v.calls.filter((c) => c.seat === seat);
      return mine.length ? callHtml(mine[mine.length - 1].call) : "";
    }
    const parts = (v.announced[seat] || []).map((k) => esc(declName(k)));
    for (const b of v.belotes) if (b.seat === seat) parts.push(esc(t("term.belote")));
    return parts.join(" · ");
  }

  function infoHtml() {
    const v = msg.view;
    const lines = [`<div>${esc(t("term.deal"))} ${v.deal_index + 1}</div>`];
    if (v.contract) {
      let c = `<div class="big" id="contract">${callHtml(v.contract)}</div>`;
      c += `<div id="bid-by">${esc(bidBy(v.declarer))}</div>`;
      if (v.multiplier > 1) c += `<div><span class="chip kontra">${esc(multiplierText(v.multiplier))} ×${v.multiplier}</span></div>`;
      lines.push(c);
    } else {
      lines.push(`<div>${esc(t("web.table.no_contract"))}</div>`);
    }
    if (v.pot) lines.push(`<div>${esc(t("web.table.pot_in", { n: v.pot }))}</div>`);
    if (msg.table.options && msg.table.options.length) lines.push(optionsHtml(msg.table.options, `rules-table-${tableId}`));
    const order = myTeam() === 1 ? [1, 0] : [0, 1];
    const [a, b] = order.map((k) => (me() === null ? t("web.sheet.team", { n: k + 1 }) : k === myTeam() ? t("web.sheet.we") : t("web.sheet.they")));
    // a spectator's figures of the two teams: "Team 1: 0 · Team 2: 32", no "Team 1 0", each team whole
    const eachTeam = (pair) => `<span class="us">${esc(a)}: ${pair[0]}</span> · <span class="them">${esc(b)}: ${pair[1]}</span>`;
    const score = me() === null
      ? eachTeam(v.score)
      : `<span class="us">${esc(a)} ${v.score[order[0]]}</span> – <span class="them">${v.score[order[1]]} ${esc(b)}</span>`;
    lines.push(`<div class="big" id="score-line">${score} <small>/ ${v.target}</small></div>`);
    if (v.phase === "play" || v.tricks.length) {
      // Tricks taken so far by each team, as players count them on the table.
      const won = [0, 0];
      for (const tr of v.tricks) won[tr.winner & 1] += 1;
      const n = Math.min(8, v.tricks.length + (v.trick.length ? 1 : 0)) || 1;
      // a player's tricks in one line: "Ние 1 – / 0 Те" broke at 1280 px.  A spectator's as the score
      // line above them, each team whole: "Team 1 5 – 3 Team 2" in one line ran 25 px out of the panel
      // in a tablet's 132 px column
      const tie = (s) => s.replace(/ /g, "\u00a0");
      const tricks = me() === null
        ? `${esc(t("web.table.tricks"))} ${eachTeam(won)}`
        : esc(t("web.table.tricks_won", { a: tie(a), b: tie(b), us: won[order[0]], them: won[order[1]] }));
      lines.push(`<div id="trick-count">${esc(t("web.table.trick_no", { n }))} · ${tricks}</div>`);
    }
    return `<div class="info-panel">${lines.join("")}</div>`;
  }

  /** "bid by NAME", or "your bid": your own seat's name does not fit every language's sentence. */
  function bidBy(seat) {
    return seat === me() ? t("web.table.bid_by_you") : t("web.table.bid_by", { name: label(seat) });
  }

  function wonBy(seat) {
    return seat === me() ? t("web.table.won_by_you") : t("web.table.won_by", { name: label(seat) });
  }

  function trickCards(cards, winner) {
    return cards.map(({ seat, card }) => `<div class="tcard pos-${pos(seat)} ${winner === seat ? "winning" : ""}" data-card="${card}" data-seat="${seat}">
      ${cardFace(card, cardWords(card, t))}<div class="who">${esc(shortLabel(seat))}</div></div>`).join("");
  }

  /** The trick's short labels: "You", "Partner", or the seat's name. */
  function shortLabel(seat) {
    if (me() !== null && seat === partnerOf(me())) return t("web.seat.partner");
    return label(seat);
  }

  function centreHtml() {
    const v = msg.view;
    if (v.phase === "auction") {
      const log = v.calls.map((c) => `<span>${esc(shortLabel(c.seat))}: ${callHtml(c.call)}</span>`).join("");
      return `<div class="trick"></div><div class="centre-note">${esc(t("term.auction"))}</div>
        <div class="auction-log" role="group" aria-label="${esc(t("term.auction"))}">${log}</div>`;
    }
    if (v.trick.length) return `<div class="trick" id="trick">${trickCards(v.trick, null)}</div><div class="centre-note"></div>`;
    const last = v.tricks[v.tricks.length - 1];
    if (last) {
      return `<div class="trick closed" id="trick">${trickCards(last.cards, last.winner)}</div>
        <div class="centre-note">${esc(wonBy(last.winner))}</div>`;
    }
    return `<div class="trick" id="trick"></div>`;
  }

  function myAreaHtml() {
    const v = msg.view;
    const mine = me();
    if (mine === null) {
      // A spectator sees seat 0 at the bottom like the others: its name, calls and card backs.
      const n = v.hand_sizes[0];
      return `<div class="seat pos-bottom ${v.to_move === 0 ? "turn" : ""}" data-seat="0">
          <div class="nameplate team0"><span class="name">${esc(label(0))}</span>${seatChips(0)}</div>
          <div class="bubble">${bubbleHtml(0)}</div>
          <div class="backs">${Array.from({ length: n }, () => `<div class="mini">${cardBack()}</div>`).join("")}</div></div>
        ${msg.table.status === "abandoned"
          ? `<div class="prompt" id="watching">${esc(t("web.table.abandoned"))}
              <a class="secondary" data-link href="/replay/${esc(tableId)}">${esc(t("web.match.replay"))}</a></div>`
          : `<div class="prompt" id="watching">${esc(t("web.table.watching"))}</div>`}${seatListHtml(msg.table)}`;
    }
    const myTurn = v.to_move === mine;
    const hand = sortHand(v.hand, v.contract);
    const choosing = myTurn && v.phase === "play"; // dim the cards only when one must be chosen
    const cards = hand.map((card, i) => {
      const l = legalFor(card);
      const ok = l.plain || l.belote;
      return `<button class="card ${ok ? "legal" : choosing ? "dim" : "idle"} ${focusCard === card ? "focus" : ""}" data-card="${card}" data-index="${i + 1}"
        aria-label="${esc(cardWords(card, t))}" ${ok ? "" : 'aria-disabled="true" tabindex="-1"'}><span class="key">${i + 1}</span>${cardFace(card, cardWords(card, t))}</button>`;
    }).join("");
    return `<div class="seat pos-bottom ${myTurn ? "turn" : ""}" data-seat="${mine}">
        <div class="nameplate us"><span class="name">${esc(msg.you.name || t("web.seat.you"))}</span>${seatChips(mine)}</div>
        <div class="bubble">${bubbleHtml(mine)}</div></div>
      <div class="actions" id="actions" tabindex="-1">${actionsHtml()}${myTurn ? deadlineHtml() : ""}</div>
      <div class="hand" id="hand" role="group" aria-label="${esc(t("web.seat.you"))}">${cards}</div>
      <div class="hint">${esc(t("web.table.keys_hint"))}</div>`;
  }

  function actionsHtml() {
    const v = msg.view;
    const legal = legalList();
    if (v.winner !== null && v.winner !== undefined) return "";
    if (msg.table.status === "waiting") {
      // Nothing is played until every human seat is taken: show the link to share.
      const link = location.origin + ((msg.table.links && msg.table.links.table) || `/t/${tableId}`);
      return `<div class="prompt" id="waiting">${esc(t("web.table.waiting_players"))}</div>
        <div class="prompt">${esc(t("web.lobby.link"))}: <a href="${esc(link)}">${esc(link)}</a></div>`;
    }
    if (beloteFor) {
      return `<div class="prompt">${esc(t("web.table.belote_prompt", { card: cardWords(beloteFor, t) }))}</div>
        <button class="call" id="belote-yes" data-belote="yes">${esc(t("web.table.belote_yes"))}</button>
        <button class="call pass" id="belote-no" data-belote="no">${esc(t("web.table.belote_no"))}</button>`;
    }
    if (v.phase === "auction" && legal.length) {
      return `<div class="prompt">${esc(t("web.table.your_call"))}</div>` + legal.map((a, i) =>
        `<button class="call ${esc(callMade(a.call, v.multiplier))}" data-call="${esc(a.call)}" aria-keyshortcuts="${i + 1}"><span class="kbd">${i + 1}</span>${callHtml(callMade(a.call, v.multiplier))}</button>`).join("");
    }
    const declares = legal.filter((a) => a.declare);
    let out = "";
    if (declares.length) {
      out += `<div class="prompt">${esc(t("web.table.declare_prompt"))}</div>` + declares.map((a, i) => {
        return `<button class="call declare" data-declare="${esc(a.declare.join(" "))}">${esc(t("web.table.declare", { kind: declName(a.kind) }))} ${cardsShort(a.declare)}</button>`;
      }).join("");
    }
    const own = v.own_declarations || [];
    if (own.length) {
      out += `<div class="prompt">${esc(t("web.table.announced"))}: ${own.map((d) => `${esc(declName(d.kind))} ${cardsShort(d.declare)}`).join(" · ")}</div>`;
    }
    if (!out) {
      const turn = v.to_move;
      if (turn === me()) out = `<div class="prompt">${esc(t("web.table.your_turn"))}</div>`;
      else if (turn !== null && turn !== undefined) out = `<div class="prompt">${esc(t("web.table.waiting_for", { name: label(turn) }))}</div>`;
    }
    return out;
  }

  /** The turn timer of the seat to move, counted down on the page between states. */
  function deadlineHtml(id = "deadline") {
    if (!msg || msg.deadline === null || msg.deadline === undefined || deadlineAt === null) return "";
    const n = Math.max(0, Math.ceil((deadlineAt - Date.now()) / 1000));
    return `<div class="prompt deadline" id="${id}" role="timer">${esc(t("web.table.time_left", { n }))}</div>`;
  }

  function tick() {
    if (deadlineAt === null) return;
    const n = Math.max(0, Math.ceil((deadlineAt - Date.now()) / 1000));
    for (const el of main.querySelectorAll(".deadline")) el.textContent = t("web.table.time_left", { n });
  }

  const leaveSeat = oneAtATime(async () => {
    try {
      await api(`/api/tables/${tableId}/leave`, { token });
    } catch (e) {
      toast(errorText(e));
      return;
    }
    forgetToken(tableId);
    token = null;
    connect();
  });

  /** The turn timer, in the summary that covers the calls when this seat is first to call in the next
   * deal: its time ran down unseen under the dialog. */
  function summaryDeadlineHtml() {
    return msg.view.to_move === me() ? deadlineHtml("summary-deadline") : "";
  }

  function dialogHtml() {
    const v = msg.view;
    if (v.winner !== null && v.winner !== undefined && !matchEndSeen) return matchEndHtml();
    if (summary) {
      return overlayHtml("summary-dialog", "summary-h",
        summaryHtml(summary.result, summary.dealNo, summary.potIn, myTeam(), label, team).replace("<h2>", '<h2 id="summary-h">'),
        `${summaryDeadlineHtml()}<button class="primary" id="summary-ok">${esc(t("web.summary.ok"))}</button>`);
    }
    if (dialog === "last") {
      const tricks = v.tricks.length ? v.tricks : (msg.previous_deal ? msg.previous_deal.tricks : []);
      const last = tricks[tricks.length - 1];
      const body = last
        ? `<div class="trick-row">${last.cards.map(({ seat, card }) => `<figure data-card="${card}">${cardFace(card, cardWords(card, t))}<figcaption>${esc(label(seat))}</figcaption></figure>`).join("")}</div>
           <p>${esc(wonBy(last.winner))}</p>`
        : `<p>${esc(t("web.table.no_last_trick"))}</p>`;
      return overlayHtml("last-dialog", "last-h", `<h2 id="last-h">${esc(t("web.table.last_trick"))}</h2>${body}`,
        `<button class="primary" data-close>${esc(t("web.table.hide"))}</button>`);
    }
    return "";
  }

  /**
   * A modal dialog over the table: its content scrolls (a match's whole score sheet is taller than a
   * screen) between its heading and its buttons, which stay in view at its foot, so it opens at its
   * heading with its focused button in reach (placeFocus).
   */
  function overlayHtml(id, headingId, content, buttons, kind = "") {
    return `<div class="overlay" id="${id}"><div class="dialog ${kind}" role="dialog" aria-modal="true" aria-labelledby="${headingId}">
      <div class="dialog-body">${content}</div><div class="buttons">${buttons}</div></div></div>`;
  }

  /** The same four again: the first to ask creates the new table, each other player gets their seat there. */
  const rematch = oneAtATime(async () => {
    try {
      const res = await api(`/api/tables/${tableId}/rematch`, { token });
      saveToken(res.table.id, res.token);
      navigate(`/t/${res.table.id}`);
    } catch (e) {
      // asked again after going back: this browser holds the seat already, so it goes there
      if (e.code === "rematch_taken" && e.detail.table && savedToken(e.detail.table)) navigate(`/t/${e.detail.table}`);
      else toast(errorText(e));
    }
  });

  function matchEndHtml() {
    const v = msg.view;
    const team = myTeam();
    const headline = team === null
      ? t("web.match.team_won", { team: t("web.sheet.team", { n: v.winner + 1 }) })
      : v.winner === team ? t("web.match.we_won") : t("web.match.they_won");
    const order = team === 1 ? [1, 0] : [0, 1];
    const lastResult = v.result ? `<details><summary>${esc(t("web.summary.title", { n: v.deal_index + 1 }))}</summary>${summaryHtml(v.result, v.deal_index + 1, v.pot, team, label, (seat) => (me() !== null && (seat & 1) === myTeam() ? "" : teamWord(seat, me())))}</details>` : "";
    return overlayHtml("match-end", "end-h", `<h2 id="end-h">${esc(t("web.match.over"))}</h2>
      <p class="outcome" style="text-align:center">${esc(headline)}</p>
      <p class="final">${esc(t("web.match.final", finalScore(v, team, order)))}</p>
      ${sheetHtml(v.history, v.target, team, v.winner)}${lastResult}`,
      `<a class="secondary" data-link href="/replay/${esc(tableId)}">${esc(t("web.match.replay"))}</a>
        ${token ? `<button class="secondary" id="btn-rematch">${esc(t("web.match.rematch"))}</button>` : ""}
        <a class="secondary" data-link href="/">${esc(t("web.table.back_to_lobby"))}</a>
        <button class="primary" data-close-end>${esc(t("web.summary.ok"))}</button>`, "match-end");
  }

  /** The final score with whose it is: "Us 0 – 18 Them" (a spectator: the bare numbers, team 1 first),
   *  tied by no-break spaces (and a word joiner after the catalog's dash) into one line: "Ние 8 – 0 Те"
   *  wrapped before "Те" at 360 px. */
  function finalScore(v, team, order) {
    if (team === null) return { a: v.score[0], b: v.score[1] };
    return { a: `${t("web.sheet.we")}\u00a0${v.score[order[0]]}`, b: `${v.score[order[1]]}\u00a0${t("web.sheet.they")}` };
  }

  function seatListHtml(table) {
    if (token || !table) return "";
    const free = table.seats.filter((s) => s.kind === "human" && !s.taken && !s.reserved);
    if (!free.length || ended(table)) return "";
    // Someone who came by the link is asked for a name, so the table does not call them "Seat 3".
    const name = joinName ?? myName();
    const account = accountName(); // logged in: the server seats the account's name, nothing to type
    return `<div class="seat-chooser"><p>${esc(t("web.table.choose_seat"))}</p>
      ${account ? `<p id="playing-as">${esc(t("web.account.playing_as", { name: account }))}</p>`
      : `<label for="join-name">${esc(t("web.lobby.your_name"))}</label>
      <input id="join-name" maxlength="${MAX_NAME}" autocomplete="nickname" placeholder="${esc(t("web.lobby.name_placeholder"))}" value="${esc(name)}">`}
      <div class="sit-buttons">${free.map((s) =>
      `<button class="call" data-sit="${s.seat}">${esc(t("web.lobby.sit"))}: ${esc(t("web.lobby.seat", { n: s.seat + 1 }))}</button>`).join(" ")}</div>
      <p class="name-needed hidden" id="name-needed" role="alert">${esc(t("web.table.name_needed"))}</p></div>`;
  }

  function bindSeatList() {
    const input = main.querySelector("#join-name");
    if (input) {
      input.addEventListener("input", () => { joinName = input.value; });
      if (focusJoin !== null) {
        input.focus();
        input.setSelectionRange(focusJoin, focusJoin);
      }
    }
    main.querySelectorAll("[data-sit]").forEach((b) => b.addEventListener("click", () => {
      const name = (input ? input.value : accountName() || myName()).trim();
      if (!name) {
        main.querySelector("#name-needed").classList.remove("hidden");
        if (input) input.focus();
        return;
      }
      if (input) rememberName(name);
      joinTable(tableId, +b.dataset.sit);
    }));
  }

  function bind() {
    bindSeatList();
    // A dialog is modal: the table under it takes no focus and no click (Tab went on from the
    // summary's button to the calls and cards behind it, and Enter made a call nobody could see).
    // (Tab, which went on from the dialog's last button to the top bar, goes round it: keepTabInDialog.)
    const overlay = main.querySelector(".overlay");
    const game = main.querySelector(".game");
    if (game) game.inert = !!overlay;
    main.querySelectorAll("#hand .card").forEach((b) => b.addEventListener("click", () => {
      focusCard = b.dataset.card;
      playCard(b.dataset.card);
    }));
    main.querySelectorAll("[data-call]").forEach((b) => b.addEventListener("click", () => send({ call: b.dataset.call })));
    main.querySelectorAll("[data-declare]").forEach((b) => b.addEventListener("click", () => send({ declare: b.dataset.declare.split(" ") })));
    main.querySelectorAll("[data-belote]").forEach((b) => b.addEventListener("click", () => {
      const card = beloteFor;
      if (b.dataset.belote === "yes") send({ card, belote: true });
      else send({ card });
    }));
    const last = main.querySelector("#btn-last");
    if (last) last.addEventListener("click", () => { dialog = dialog === "last" ? null : "last"; render(); });
    const sheet = main.querySelector("#btn-sheet");
    if (sheet) sheet.addEventListener("click", () => { dialog = dialog === "sheet" ? null : "sheet"; render(); });
    const closeSheet = main.querySelector("#sheet-close");
    if (closeSheet) closeSheet.addEventListener("click", () => { dialog = null; render(); main.querySelector("#btn-sheet").focus(); });
    main.querySelectorAll("[data-close]").forEach((b) => b.addEventListener("click", () => { closeLast(); render(); }));
    const ok = main.querySelector("#summary-ok");
    if (ok) ok.addEventListener("click", closeSummary);
    const end = main.querySelector("[data-close-end]");
    if (end) end.addEventListener("click", () => { matchEndSeen = true; render(); });
    const again = main.querySelector("#btn-rematch");
    if (again) again.addEventListener("click", rematch);
  }

  /** The last trick's dialog closes, and the focus goes back to the button that opens it. */
  function closeLast() {
    if (dialog === "last") returnTo = "#btn-last";
    dialog = null;
  }

  /** Tab and Shift+Tab go round the open dialog's controls instead of leaving it. */
  function keepTabInDialog(ev) {
    const overlay = main.querySelector(".overlay");
    if (!overlay) return;
    const stops = [...overlay.querySelectorAll("a[href], button, summary, select, input")].filter((e) => e.getClientRects().length);
    if (!stops.length) return;
    const i = stops.indexOf(document.activeElement);
    if (i < 0 || (!ev.shiftKey && i === stops.length - 1) || (ev.shiftKey && i === 0)) {
      ev.preventDefault();
      stops[ev.shiftKey ? stops.length - 1 : 0].focus();
    }
  }

  function closeSummary() {
    if (summary) ackDeal = Math.max(summary.index, msg.view.deal_index - 1);
    summary = null;
    noteDealChanges();
    render();
  }

  // -- keyboard -------------------------------------------------------------------------------

  function onKey(ev) {
    if (ev.key === "Tab") {
      keepTabInDialog(ev);
      return;
    }
    if (!msg || !msg.view || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
    const key = ev.key;
    if (summary) {
      if (key === "Escape") { ev.preventDefault(); closeSummary(); }
      return;
    }
    if (key === "Escape") {
      if (beloteFor) beloteFor = null;
      closeLast();
      render();
      return;
    }
    if (key === "l" || key === "L") {
      if (dialog === "last") closeLast();
      else dialog = "last";
      render();
      return;
    }
    if (key === "s" || key === "S") { dialog = dialog === "sheet" ? null : "sheet"; render(); return; }
    // An open dialog (the last trick, the match's end) is modal for keys too, as for clicks and Tab.
    if (main.querySelector(".overlay")) return;
    if (beloteFor) {
      if (key === "b" || key === "B" || key === "y" || key === "Y") send({ card: beloteFor, belote: true });
      else if (key === "n" || key === "N") send({ card: beloteFor });
      return;
    }
    const v = msg.view;
    if (/^[1-9]$/.test(key)) {
      const n = +key;
      if (v.phase === "auction") {
        const a = legalList()[n - 1];
        if (a) send(a);
      } else {
        const b = main.querySelector(`#hand .card[data-index="${n}"]`);
        if (b && b.classList.contains("legal")) { focusCard = b.dataset.card; playCard(b.dataset.card); }
      }
      ev.preventDefault();
      return;
    }
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const legal = [...main.querySelectorAll("#hand .card.legal")];
      if (!legal.length) return;
      let i = legal.findIndex((b) => b.dataset.card === focusCard);
      i = i < 0 ? 0 : (i + (key === "ArrowRight" ? 1 : -1) + legal.length) % legal.length;
      focusCard = legal[i].dataset.card;
      main.querySelectorAll("#hand .card").forEach((b) => b.classList.toggle("focus", b.dataset.card === focusCard));
      legal[i].focus();
      ev.preventDefault();
    }
  }
  document.addEventListener("keydown", onKey);

  // -- start ----------------------------------------------------------------------------------

  async function start() {
    render();
    if (!token) {
      // No seat yet: look at the table, offer its free seats, and watch meanwhile.
      try {
        await api(`/api/tables/${tableId}`);
      } catch (e) {
        if (e instanceof ApiError && e.code === "no_table") {
          main.innerHTML = `<div class="lobby"><p class="box">${esc(t("web.table.not_found"))}</p></div>`;
          return;
        }
      }
    }
    connect();
  }
  start();

  return {
    render,
    close() {
      alive = false;
      const said = document.getElementById("announce");
      if (said) said.textContent = "";
      clearInterval(ticker);
      document.removeEventListener("keydown", onKey);
      if (socket) socket.close();
      banner("");
    },
  };
}
