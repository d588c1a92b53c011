// House rules (docs/rules.md section 6): the options a new table may pick, their names (the
// terminal's wording, tui.option.*) and one-line explanations, and the compact line that shows a
// table's options at the table, in the lobby and in the replay.  The server checks them
// (Rules.from_options); this list is only what the form offers.

import { t, esc } from "./i18n.js";

/** The options offered, in the order of docs/rules.md (OPT-LATE-DECLARE is not supported). */
export const HOUSE_RULES = [
  "OPT-NO-SHUFFLE", "OPT-SURCONTRA", "OPT-EIGHT-SPLIT", "OPT-CARRE-FIRST", "OPT-LENGTH-FIRST", "OPT-CARRE-RANK",
  "OPT-SINGLE-CONTEST", "OPT-NONZERO", "OPT-VALAT-NO-DOUBLE", "OPT-CAPOT-NI", "OPT-CAPOT-EN",
];

/** Options that exclude each other (R12): picking one clears the other. */
export const EXCLUSIVE = { "OPT-CAPOT-NI": "OPT-CAPOT-EN", "OPT-CAPOT-EN": "OPT-CAPOT-NI" };

export const optionName = (opt) => t("tui.option." + opt);
export const optionHelp = (opt) => t("web.options.help." + opt);

/**
 * The lines whose explanations are open, by the line's id: the pages draw themselves anew (each
 * state at a table, each step of a replay, each refresh of the lobby), and an explanation opened
 * stays open until it is closed.
 */
const openLines = new Set();
const remember = (line, open) => { if (open) openLines.add(line.id); else openLines.delete(line.id); };
// A tap, a click, Enter or Space on the line's summary is a click that toggles it once the click is
// over: noted at once, since the page may be drawn anew before the "toggle" event comes.
document.addEventListener("click", (ev) => {
  const summary = ev.target instanceof Element ? ev.target.closest("details.house-rules > summary") : null;
  if (summary) remember(summary.parentElement, !summary.parentElement.open);
});
document.addEventListener("toggle", (ev) => { // (it does not bubble)
  if (ev.target instanceof HTMLDetailsElement && ev.target.classList.contains("house-rules") && ev.target.isConnected) remember(ev.target, ev.target.open);
}, true);

/**
 * The table's options as a line of chips, or "" under the default rules.  The line is a disclosure
 * that a tap, a click, Enter or Space opens and closes: it lists each option's explanation (a hover
 * tooltip was all there was, which a phone never shows).  ``id`` names the line of one page (a
 * table's, its replay's, a lobby entry's): one id for all left a line opened at a table open in the
 * next table and in the replays.
 */
export function optionsHtml(options, id) {
  if (!options || !options.length) return "";
  const chips = options.map((o) => `<span class="chip rule" data-option="${esc(o)}">${esc(optionName(o))}</span>`);
  const help = options.map((o) => `<li data-option="${esc(o)}"><b>${esc(optionName(o))}</b>: ${esc(optionHelp(o))}</li>`);
  // On a phone more than two chips take a line each (ten pushed the hand and the calls below the
  // fold at 320 px): there the shut line says how many, and opening it lists each by name.
  const many = options.length > 2;
  const count = many ? ` <span class="rule-count">${options.length}</span>` : "";
  return `<details class="house-rules${many ? " many" : ""}" id="${esc(id)}"${openLines.has(id) ? " open" : ""}>
    <summary><span class="label">${esc(t("web.options.line"))}</span> ${chips.join(" ")}${count} <span class="more" aria-hidden="true">▶</span></summary>
    <ul class="rule-help">${help.join("")}</ul></details>`;
}

/** The new-table form's house-rules section: a checkbox, the name and the explanation of each option. */
export function houseRulesFieldset(chosen) {
  const rows = HOUSE_RULES.map((o) => `<label class="house-rule" for="opt-${esc(o)}">
      <input type="checkbox" id="opt-${esc(o)}" data-option="${esc(o)}"${chosen.has(o) ? " checked" : ""}>
      <span><span class="name">${esc(optionName(o))}</span><small class="help">${esc(optionHelp(o))}</small></span></label>`);
  return `<fieldset class="house-rules-form" id="house-rules-form"><legend>${esc(t("web.options.title"))}</legend>
    ${rows.join("")}</fieldset>`;
}
