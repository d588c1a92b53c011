// Display names for seats, bots, calls and contracts, all from the translation catalog.

import { t, esc } from "./i18n.js";
import { suitIcon } from "./cards.js";

export function botName(bot) {
  const short = String(bot || "").replace(/^bot:?/, "") || "random";
  const text = t("web.bot." + short);
  return text === "web.bot." + short ? t("web.bot.other", { name: short }) : text;
}

/** The partner of a seat: the one opposite, in the same team (R1). */
export const partnerOf = (seat) => (seat + 2) % 4;

/** Whether nothing more is played at the table: its match finished, or it was closed as abandoned. */
export const ended = (table) => table.status === "finished" || table.status === "abandoned";

/** The name of a seat of a TABLE (protocol.md) as the lobby lists it: the player's name, or the bot and the seat number. */
export function plainSeatName(table, seat) {
  const s = table && table.seats && table.seats[seat];
  if (!s) return t("web.lobby.seat", { n: seat + 1 });
  if (s.kind === "bot") return t("web.seat.bot", { bot: botName(s.bot), n: seat + 1 });
  if (s.name) return s.name;
  if (s.reserved) return t("web.seat.reserved"); // a rematch keeps it for its player a while
  return s.taken ? t("web.lobby.seat", { n: seat + 1 }) : t("web.seat.empty");
}

/**
 * The name shown for a seat at the table: "You" for the viewer's own seat, "Partner (name)" for the
 * seat opposite (a bot partner by its level alone: there is only one), else the seat's own name.
 */
export function seatName(table, seat, mySeat) {
  if (seat === mySeat) return t("web.seat.you");
  if (mySeat !== null && mySeat !== undefined && seat === partnerOf(mySeat)) {
    const s = table && table.seats && table.seats[seat];
    const name = s && s.kind === "bot" ? botName(s.bot) : plainSeatName(table, seat);
    return t("web.seat.partner_named", { name });
  }
  return plainSeatName(table, seat);
}

/** "Us"/"Them" for a seat seen from `mySeat`; the team's number for a spectator. */
export function teamWord(seat, mySeat) {
  if (mySeat === null || mySeat === undefined) return t("web.sheet.team", { n: (seat & 1) + 1 });
  return (seat & 1) === (mySeat & 1) ? t("web.sheet.we") : t("web.sheet.they");
}

/** The multiplier each double makes of a deal's points (R3.3, R11.4). */
const TIMES = { kontra: 2, rekontra: 4, surkontra: 8 };

/** A call or contract as HTML: suit icon + the game's word (Kupa, Kozsuz, Kontra...). */
export function callHtml(call) {
  // the word in its own span: a phone's side seat shows the suit by its icon alone (belot.css)
  if ("CDHS".includes(call) && call.length === 1) return `${suitIcon(call)} <span class="call-word">${esc(t("call." + call))}</span>`;
  // and a double by its multiplier: "Сюрконтра" broke in two in a 76 px side seat (R3.3, R11.4)
  const times = TIMES[call];
  if (times) return `<span class="call-times" aria-hidden="true">×${times}</span><span class="call-word">${esc(t("call." + call))}</span>`;
  return esc(t("call." + call));
}

/** The double that made a deal count ``m`` times ("" for 1). */
export function multiplierText(m) {
  const call = Object.keys(TIMES).find((c) => TIMES[c] === m);
  return call ? t("call." + call) : "";
}

/**
 * The call a legal call action makes: surkontra (OPT-SURCONTRA, R3.3) is sent through the kontra
 * action, so a "kontra" offered over a rekontra (the contract at ×4) is a surkontra.
 */
export function callMade(call, multiplier) {
  return call === "kontra" && multiplier === 4 ? "surkontra" : call;
}

// The points of a declaration of each kind: a carré's depend on its rank, so it is shown alone (R7.2).
const KIND_POINTS = { tierce: 20, quarte: 50, quint: 100 };

/** A declaration's name with its points, as players say it: "Terts (20)", "Kare". */
export function declName(kind) {
  const name = t("term." + kind);
  return kind in KIND_POINTS ? t("web.declaration", { kind: name, n: KIND_POINTS[kind] }) : name;
}
