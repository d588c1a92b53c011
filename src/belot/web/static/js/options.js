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

/** The table's options as a line of chips (each explained on hover), or "" under the default rules. */
export function optionsHtml(options, id = "house-rules") {
  if (!options || !options.length) return "";
  const chips = options.map((o) => `<span class="chip rule" data-option="${esc(o)}" title="${esc(optionHelp(o))}">${esc(optionName(o))}</span>`);
  return `<div class="house-rules" id="${esc(id)}"><span class="label">${esc(t("web.options.line"))}</span> ${chips.join(" ")}</div>`;
}

/** The new-table form's house-rules section: a checkbox, the name and the explanation of each option. */
export function houseRulesFieldset(chosen) {
  const rows = HOUSE_RULES.map((o) => `<label class="house-rule" for="opt-${esc(o)}">
      <input type="checkbox" id="opt-${esc(o)}" data-option="${esc(o)}"${chosen.has(o) ? " checked" : ""}>
      <span><span class="name">${esc(optionName(o))}</span><small class="help">${esc(optionHelp(o))}</small></span></label>`);
  return `<fieldset class="house-rules-form" id="house-rules-form"><legend>${esc(t("web.options.title"))}</legend>
    ${rows.join("")}</fieldset>`;
}
