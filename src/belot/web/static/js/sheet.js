// The score sheet as players keep it on paper (one line per deal, hanging pots, running totals,
// the target line), and the end-of-deal breakdown. Numbers come from the server's results;
// nothing is computed here but sums for display.

import { t, esc } from "./i18n.js";
import { callHtml, multiplierText } from "./names.js";
import { cardsShort } from "./cards.js";

/** Column titles: "We"/"They" for a seated player (its team first), else the two teams. */
export function teamTitles(myTeam) {
  if (myTeam === null) return [t("web.sheet.team", { n: 1 }), t("web.sheet.team", { n: 2 })];
  return [t("web.sheet.we"), t("web.sheet.they")];
}

/** "We"/"They" for a seat's team seen from `myTeam`, the team's number for a spectator. */
function teamOfSeat(seat, myTeam) {
  if (myTeam === null) return t("web.sheet.team", { n: (seat & 1) + 1 });
  return (seat & 1) === myTeam ? t("web.sheet.we") : t("web.sheet.they");
}

export function sheetHtml(history, target, myTeam, winner = null) {
  const order = myTeam === 1 ? [1, 0] : [0, 1];
  const [a, b] = teamTitles(myTeam);
  const rows = history.map((r, i) => {
    const redeal = r.outcome === "redeal" || !r.contract;
    // the contract (a suit's sign kept with its name), then its multiplier and whose bid it was, kept
    // together: a narrow sheet wraps between words ("All Trumps ×4 ↓" with three-digit scores ran past
    // the paper's edge)
    let contract = redeal ? esc(t("call.pass"))
      : r.contract.length === 1 ? `<span class="nowrap">${callHtml(r.contract)}</span>` : callHtml(r.contract);
    if (!redeal) {
      // ↑ our team bid it, ↓ theirs (as players mark it on paper)
      const ours = order[0] === (r.declarer & 1);
      const times = r.multiplier > 1 ? `<b>×${r.multiplier}</b> ` : "";
      contract += ` <span class="nowrap">${times}<small title="${esc(t("web.table.bid_by", { name: teamTitles(myTeam)[ours ? 0 : 1] }))}">${ours ? "↑" : "↓"}</small></span>`;
    }
    const hanging = r.pot > 0; // points left hanging after this deal (R11)
    const cell = (team) => {
      const p = r.points[team];
      const running = r.score ? r.score[team] : null;
      return `<td class="pts ${order[0] === team ? "we" : ""} ${p === 0 ? "zero" : ""}" data-team="${team}">${redeal ? "–" : p}` +
        (running !== null && !redeal ? ` <small class="running">(${running})</small>` : "") + "</td>";
    };
    const pot = hanging && r.pot > 0 ? `<span class="pot">${esc(t("web.sheet.hanging_note", { n: r.pot }))}</span>` : "";
    return `<tr class="deal ${hanging ? "hang" : ""}" data-deal="${i}"><td class="n">${i + 1}</td><td class="c">${contract}${pot}</td>${cell(order[0])}${cell(order[1])}</tr>`;
  }).join("");
  const last = history.length ? history[history.length - 1].score : [0, 0];
  const total = (team) => `<td class="${order[0] === team ? "we" : ""} ${winner === team ? "win" : ""}" data-total="${team}">${last[team]}</td>`;
  return `<div class="sheet" role="region" aria-label="${esc(t("web.table.score_sheet"))}">
    <h3>${esc(t("web.table.score_sheet"))}</h3>
    <table><thead><tr><th class="n">${esc(t("web.sheet.deal"))}</th><th class="c">${esc(t("web.sheet.game"))}</th>
      <th class="we">${esc(a)}</th><th>${esc(b)}</th></tr></thead>
    <tbody>${rows || `<tr><td colspan="4" class="empty">${esc(t("web.sheet.empty"))}</td></tr>`}</tbody>
    <tfoot><tr class="totals"><td class="n"></td><td class="c">${esc(t("web.sheet.total"))}</td>${total(order[0])}${total(order[1])}</tr>
      <tr class="target"><td colspan="4">${esc(t("web.sheet.target", { n: target }))}</td></tr></tfoot></table></div>`;
}

/**
 * The rounding to game points (R10) as the server computed it: each team's raw total → its game
 * points, or, for a deal scored whole (inside, kontra), both totals → the whole pot.
 */
function roundingRow(result, order) {
  const r = result.rounding;
  if (!r) return "";
  const label = `<td>${esc(t("web.summary.rounding"))}</td>`;
  if (r.whole !== undefined) {
    // Scored whole: one sum for both teams, said in words under the numbers; the text wraps
    // inside the dialog (a phone's dialog is 300 px wide), only "raw → whole" keeps together.
    const raw = result.totals[0] + result.totals[1];
    return `<tr class="rounding whole">${label}<td colspan="2"><span class="nowrap">${raw} → ${r.whole}</span>
      <span class="why">${esc(t("web.summary.rounding_whole_why"))}</span></td></tr>`;
  }
  const cell = (k) => `<td class="nowrap">${result.totals[k]} → ${r.teams[k]}</td>`;
  return `<tr class="rounding">${label}${cell(order[0])}${cell(order[1])}</tr>`;
}

/**
 * The breakdown of one finished deal: card points, declarations, belote, valat, raw totals,
 * the game points written (raw ÷ 10, rounded by the rules, times kontra), the outcome and the pot.
 */
export function summaryHtml(result, dealNo, potIn, myTeam, seatLabel, teamOf = (seat) => teamOfSeat(seat, myTeam)) {
  const order = myTeam === 1 ? [1, 0] : [0, 1];
  const [a, b] = teamTitles(myTeam);
  const head = `<h2>${esc(t("web.summary.title", { n: dealNo }))}</h2>`;
  if (!result.contract || result.outcome === "redeal") {
    return `${head}<p>${esc(t("web.summary.no_contract"))}</p>` +
      (result.pot ? `<p>${esc(t("web.table.pot_in", { n: result.pot }))}</p>` : "");
  }
  const row = (label, values, cls = "") =>
    `<tr class="${cls}"><td>${esc(label)}</td><td>${values[order[0]]}</td><td>${values[order[1]]}</td></tr>`;
  // The valat bonus is what the raw total holds beyond cards, declarations and belote (R8, R9.1).
  const valat = [0, 1].map((k) => result.totals[k] - result.card_points[k] - result.declarations[k] - result.belote[k]);
  const side = teamOf(result.declarer); // "" when the label says it already ("You", "Partner")
  let contract = `${callHtml(result.contract)} — ${esc(seatLabel(result.declarer))}${side ? ` <span class="team-word">(${esc(side)})</span>` : ""}`;
  if (result.multiplier > 1) contract += ` · ${esc(multiplierText(result.multiplier))}`;
  const declared = declaredHtml(result, seatLabel);
  const outcomeWord = t("term." + result.outcome);
  const collected = potIn > 0 && result.outcome !== "hanging" && result.pot === 0;
  const carried = result.pot > 0;
  return `${head}
    <p>${esc(t("web.summary.declarer"))}: ${contract}</p>
    <table><thead><tr><td></td><th>${esc(a)}</th><th>${esc(b)}</th></tr></thead><tbody>
      ${row(t("term.card_points"), result.card_points)}
      ${row(t("term.declarations"), result.declarations)}
      ${row(t("term.belote"), result.belote)}
      ${row(t("term.valat"), valat)}
      ${row(t("web.summary.raw"), result.totals, "strong")}
      ${roundingRow(result, order)}
      ${row(t("web.summary.points"), result.points, "strong points")}
    </tbody></table>
    ${declared ? `<ul class="declared">${declared}</ul>` : ""}
    <p class="outcome" data-outcome="${esc(result.outcome)}">${esc(t("web.summary.outcome"))}: ${esc(outcomeWord)}${result.multiplier > 1 ? ` (×${result.multiplier})` : ""}</p>
    ${collected ? `<p>${esc(t("web.summary.pot_collected", { n: potIn }))}</p>` : ""}
    ${carried ? `<p>${esc(t("web.summary.pot_carried", { n: result.pot }))}</p>` : ""}`;
}

/**
 * Each announced declaration: who, which (with its points), its cards, and whether it counted
 * (R7.6: the server says so in `declared_detail`; an older server's `declared` lists cards only).
 */
function declaredHtml(result, seatLabel) {
  const detail = result.declared_detail;
  if (detail) {
    return detail.map((list, seat) => list.map((d) => `<li class="${d.counted ? "counted" : "cancelled"}" data-counted="${d.counted}">
      ${esc(seatLabel(seat))}: <b>${esc(t("web.declaration", { kind: t("term." + d.kind), n: d.value }))}</b> ${cardsShort(d.cards)}
      — <span class="verdict">${esc(d.counted ? t("web.summary.counted") : t("web.summary.cancelled"))}</span></li>`).join("")).join("");
  }
  return (result.declared || []).map((list, seat) => list.length
    ? `<li>${esc(seatLabel(seat))}: ${list.map(cardsShort).join(" · ")}</li>` : "").join("");
}
