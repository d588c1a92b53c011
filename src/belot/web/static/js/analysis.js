// The replay's analysis mode (issue 22): the server's belot-analysis/1 document of a finished game
// (GET /api/tables/{id}/analysis, started by POST and polled while it runs), drawn for one deal:
// a chart of one team's expected margin decision by decision (inline SVG), each decision's
// best option(s), loss and class, and each player's summary. The figures are the server's; the
// page only draws them.

import { api } from "./net.js";
import { t, esc, errorText } from "./i18n.js";
import { cardShort } from "./cards.js";
import { callHtml } from "./names.js";

const CLASSES = ["best", "inaccuracy", "mistake", "blunder"];
const POLL_MS = 1000;
const EPS = 1e-6;

/** The job of a table's analysis: started if it never was, then polled until done or failed. */
export function followAnalysis(tableId, onChange) {
  let stopped = false;
  let timer = null;
  const path = `/api/tables/${tableId}/analysis`;
  async function poll(first) {
    if (stopped) return;
    let job;
    try {
      job = await api(path);
      if (first && (job.status === "none" || job.status === "failed")) job = await api(path, {});
    } catch (e) {
      job = { status: "error", error: errorText(e) };
    }
    if (stopped) return;
    onChange(job);
    if (job.status === "queued" || job.status === "running") timer = setTimeout(() => poll(false), POLL_MS);
  }
  poll(true);
  return () => { stopped = true; if (timer) clearTimeout(timer); };
}

/** The step of the replay at which a decision was made (the position before its action). */
export function stepOf(decision, recordDeal) {
  return decision.auction !== null ? decision.auction : recordDeal.auction.length + decision.play;
}

/** The option(s) of a decision with the largest expected margin (ties: all of them). */
export function bestOptions(d) {
  if (!d.options.length) return [d.best];
  const top = d.options[0].expected;
  return d.options.filter((o) => o.expected >= top - EPS).map((o) => o.action);
}

/** An option as players read it: a card with its suit, a call in the game's words, a declaration. */
function optionHtml(kind, name) {
  if (kind === "card") return cardShort(name);
  if (kind === "call") return callHtml(name);
  if (kind === "belote") return esc(name === "belote" ? t("web.analysis.belote_yes") : t("web.analysis.belote_no"));
  if (name === "none") return esc(t("web.analysis.declare_none"));
  return esc(name.split(" + ").map((part) => {
    const [kind2, ...cards] = part.split(" ");
    return `${t("term." + kind2)} ${cards.join(" ")}`;
  }).join(" + "));
}

const fmt = (x) => (Math.round(x * 10) / 10).toLocaleString(document.documentElement.lang || "en", { maximumFractionDigits: 1 });

/** The chosen and the best option's expected margin of each decision, for ``team`` (0 or 1). */
function series(decisions, team) {
  let last = 0;
  return decisions.map((d) => {
    const sign = (d.seat & 1) === team ? 1 : -1;
    const opt = (name) => d.options.find((o) => o.action === name);
    const chosen = opt(d.chosen);
    const best = d.options[0];
    // a decision settled without search (belote, the best declarations) keeps the last figure
    const y = chosen ? sign * chosen.expected : last;
    const yb = best ? sign * best.expected : y;
    last = y;
    return { y, yb };
  });
}

/** The chart: one point a decision (coloured by class), the best option's figure where it differs. */
export function chartSvg(decisions, team, current) {
  // drawn at about its size on screen (a phone's chart is narrower, not squeezed): round points, legible text
  const W = Math.round(Math.min(600, Math.max(280, window.innerWidth - 48))), H = 200, L = 34, R = 8, T = 10, B = 20;
  const pts = series(decisions, team);
  const ys = pts.flatMap((p) => [p.y, p.yb]).concat([0]);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 10) { const mid = (hi + lo) / 2; lo = mid - 5; hi = mid + 5; }
  const n = decisions.length;
  const x = (i) => L + (n <= 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (n - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const line = pts.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.y).toFixed(1)}`).join(" ");
  const bests = pts.map((p, i) => (p.yb - p.y > EPS || p.y - p.yb > EPS
    ? `<path class="best-mark" d="M${x(i).toFixed(1)},${(y(p.yb) - 5).toFixed(1)} l5,5 l-5,5 l-5,-5 z"><title>${esc(t("web.analysis.best"))}</title></path>` : "")).join("");
  const dots = pts.map((p, i) => {
    const d = decisions[i];
    return `<circle class="pt ${d.class}${i === current ? " current" : ""}" data-i="${i}" cx="${x(i).toFixed(1)}" cy="${y(p.y).toFixed(1)}" r="${i === current ? 6 : 4}">
      <title>${esc(t("web.analysis.point", { i: i + 1, loss: fmt(d.expected_loss), cls: t("web.analysis.class." + d.class) }))}</title></circle>`;
  }).join("");
  return `<svg id="analysis-chart" viewBox="0 0 ${W} ${H}" role="img"
      aria-label="${esc(t("web.analysis.chart", { n: team + 1 }))}">
    <line class="zero" x1="${L}" x2="${W - R}" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}"/>
    <text x="2" y="${(y(hi) + 4).toFixed(1)}">${esc(fmt(hi))}</text><text x="2" y="${(y(0) + 4).toFixed(1)}">0</text>
    <text x="2" y="${(y(lo) + 4).toFixed(1)}">${esc(fmt(lo))}</text>
    <path class="margin" d="${line}"/>${bests}${dots}</svg>`;
}

/** Each player's figures: decisions, losses (sum and mean), classes, accuracy. */
export function summaryHtml(summary, label, id) {
  return `<div class="analysis-summary" id="${id}">${summary.map((s) => `
    <div class="player" data-seat="${s.seat}"><strong>${esc(label(s.seat))}</strong>
      <div>${esc(t("web.analysis.accuracy"))}: <b class="accuracy">${s.accuracy === null ? "–" : esc(fmt(s.accuracy)) + "%"}</b>
        · ${esc(t("web.analysis.decisions", { n: s.decisions }))}</div>
      <div>${esc(t("web.analysis.loss_sum_mean", { sum: fmt(s.loss_sum), mean: fmt(s.loss_mean) }))}</div>
      <div class="classes">${CLASSES.map((c) => `<span class="cls ${c}" data-class="${c}">${esc(t("web.analysis.class." + c))}: ${s.classes[c]}</span>`).join(" ")}</div>
    </div>`).join("")}</div>`;
}

/** The analysis panel of one deal. ``deal``: the document's deal, or undefined (not analysed). */
export function panelHtml(job, deal, doc, { team, current, label }) {
  if (!job) return `<section class="analysis" id="analysis"><p>${esc(t("web.loading"))}</p></section>`;
  if (job.status === "queued" || job.status === "running") {
    const p = job.progress || { done: 0, total: 0 };
    const pct = p.total ? Math.round((100 * p.done) / p.total) : 0;
    return `<section class="analysis" id="analysis"><p id="analysis-progress">${esc(job.status === "queued" ? t("web.analysis.queued") : t("web.analysis.running", { done: p.done, total: p.total }))}</p>
      <progress max="100" value="${pct}" aria-label="${esc(t("web.analysis.title"))}"></progress></section>`;
  }
  if (job.status !== "done") {
    return `<section class="analysis" id="analysis"><p id="analysis-failed">${esc(t("web.analysis.failed"))} ${esc(job.error || "")}</p></section>`;
  }
  if (!deal) return `<section class="analysis" id="analysis"><p>${esc(t("web.analysis.no_deal"))}</p></section>`;
  const ds = deal.decisions;
  const rows = ds.map((d, i) => {
    const best = bestOptions(d);
    // the button inside the item: a list's items may be nothing but items (axe: list, aria-allowed-role)
    return `<li><div class="decision ${d.class}${i === current ? " current" : ""}" data-i="${i}" tabindex="0" role="button">
      <span class="who">${esc(label(d.seat))}</span>
      <span>${esc(t("web.analysis.played"))} ${optionHtml(d.kind, d.chosen)}</span>
      <span class="best">${esc(t("web.analysis.best"))} ${best.map((b) => `<span class="best-option" data-option="${esc(b)}">${optionHtml(d.kind, b)}</span>`).join(", ")}</span>
      <span class="loss">${esc(t("web.analysis.loss", { loss: fmt(d.expected_loss) }))}</span>
      <span class="cls ${d.class}">${esc(t("web.analysis.class." + d.class))}</span></div></li>`;
  }).join("");
  return `<section class="analysis" id="analysis">
    <h3>${esc(t("web.analysis.title"))}</h3>
    <div class="team-pick" role="group">${[0, 1].map((k) => `<button data-team="${k}" aria-pressed="${k === team}">${esc(t("web.analysis.team", { names: label(k) + " & " + label(k + 2) }))}</button>`).join("")}</div>
    <p class="muted">${esc(t("web.analysis.explain"))}</p>
    ${ds.length ? chartSvg(ds, team, current) : `<p>${esc(t("web.analysis.no_decisions"))}</p>`}
    <ol class="decisions" id="analysis-decisions">${rows}</ol>
    <h4>${esc(t("web.analysis.deal_summary"))}</h4>${summaryHtml(deal.summary, label, "analysis-deal-summary")}
    <h4>${esc(t("web.analysis.game_summary"))}</h4>${summaryHtml(doc.summary, label, "analysis-game-summary")}
  </section>`;
}
