// Display names for seats, bots, calls and contracts, all from the translation catalog.

import { t, esc } from "./i18n.js";
import { suitIcon } from "./cards.js";

export function botName(bot) {
  const short = String(bot || "").replace(/^bot:?/, "") || "random";
  const text = t("web.bot." + short);
  return text === "web.bot." + short ? t("web.bot.other", { name: short }) : text;
}

/** The name shown for a seat of a TABLE (protocol.md), "You" for the viewer's own seat. */
export function seatName(table, seat, mySeat) {
  if (seat === mySeat) return t("web.seat.you");
  const s = table && table.seats && table.seats[seat];
  if (!s) return t("web.lobby.seat", { n: seat + 1 });
  if (s.kind === "bot") return t("web.seat.bot", { bot: botName(s.bot), n: seat + 1 });
  if (s.name) return s.name;
  return s.taken ? t("web.lobby.seat", { n: seat + 1 }) : t("web.seat.empty");
}

/** A call or contract as HTML: suit icon + the game's word (Kupa, Kozsuz, Kontra...). */
export function callHtml(call) {
  if ("CDHS".includes(call) && call.length === 1) return `${suitIcon(call)} ${esc(t("call." + call))}`;
  return esc(t("call." + call));
}

export function multiplierText(m) {
  return m === 4 ? t("call.rekontra") : m === 2 ? t("call.kontra") : "";
}
