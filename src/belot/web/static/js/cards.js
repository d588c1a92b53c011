// Cards as SVG: faces with corner indices and pip layouts, backs, suit symbols.
// A card is its two-letter name from docs/record-format.md ("JH", "TS"); nothing here knows the rules.

export const SUITS = "CDHS";
export const RANKS = "789TJQKA";
const RED = new Set(["D", "H"]);
const INDEX = { "7": "7", "8": "8", "9": "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };

// Suit shapes in a 100x100 box, drawn once in index.html's <defs> (ids suit-C ... suit-S).
export const SUIT_PATHS = {
  H: "M50 92C22 68 2 50 2 29 2 13 14 2 28 2c10 0 18 6 22 15 4-9 12-15 22-15 14 0 26 11 26 27 0 21-20 39-48 63z",
  D: "M50 2 88 50 50 98 12 50z",
  S: "M50 2C38 22 2 40 2 62c0 14 11 24 24 24 10 0 17-5 21-12-1 10-5 18-13 24h32c-8-6-12-14-13-24 4 7 11 12 21 12 13 0 24-10 24-24C98 40 62 22 50 2z",
  C: "M50 4a21 21 0 0 0-17 33A21 21 0 1 0 45 70c-1 11-5 20-13 28h36c-8-8-12-17-13-28a21 21 0 1 0 12-33A21 21 0 0 0 50 4z",
};

export function suitDefs() {
  return `<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>${
    Object.entries(SUIT_PATHS).map(([s, d]) =>
      `<symbol id="suit-${s}" viewBox="0 0 100 100"><path d="${d}"/></symbol>`).join("")
  }<pattern id="card-back-pattern" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
    <rect width="8" height="8" fill="#1f4e8c"/><rect width="4" height="8" fill="#2c64ad"/></pattern></defs></svg>`;
}

export function suitClass(suit) {
  return RED.has(suit) ? "red" : "black";
}

/** A small inline suit symbol (for text: contracts, calls, summaries). */
export function suitIcon(suit, extra = "") {
  return `<svg class="suit-icon ${suitClass(suit)} ${extra}" viewBox="0 0 100 100" aria-hidden="true"><use href="#suit-${suit}"/></svg>`;
}

// Pip positions (x, y) on a 100x140 face, for the number cards; lower-half pips are turned round.
const L = 30, R = 70, C = 50;
const PIPS = {
  "7": [[L, 30], [R, 30], [C, 50], [L, 70], [R, 70], [L, 110], [R, 110]],
  "8": [[L, 30], [R, 30], [C, 50], [L, 70], [R, 70], [C, 90], [L, 110], [R, 110]],
  "9": [[L, 28], [R, 28], [L, 56], [R, 56], [C, 70], [L, 84], [R, 84], [L, 112], [R, 112]],
  T: [[L, 28], [R, 28], [C, 43], [L, 56], [R, 56], [L, 84], [R, 84], [C, 97], [L, 112], [R, 112]],
};

function pip(suit, x, y, size) {
  const flip = y > 72 ? ` transform="rotate(180 ${x} ${y})"` : "";
  const h = size / 2;
  return `<use href="#suit-${suit}" x="${x - h}" y="${y - h}" width="${size}" height="${size}"${flip}/>`;
}

function corner(rank, suit) {
  const label = INDEX[rank];
  const fs = label.length > 1 ? 19 : 22;
  return `<text x="11" y="24" font-size="${fs}" text-anchor="middle" class="idx">${label}</text>` +
    `<use href="#suit-${suit}" x="3" y="29" width="16" height="16"/>`;
}

function centre(rank, suit) {
  if (PIPS[rank]) return PIPS[rank].map(([x, y]) => pip(suit, x, y, 20)).join("");
  if (rank === "A") return pip(suit, 50, 70, 46);
  // Court cards: a framed panel with the letter and two pips, in the suit's colour.
  return `<rect x="22" y="20" width="56" height="100" rx="4" class="court"/>` +
    pip(suit, 50, 38, 20) +
    `<text x="50" y="84" font-size="38" text-anchor="middle" class="court-letter">${INDEX[rank]}</text>` +
    `<use href="#suit-${suit}" x="40" y="92" width="20" height="20" transform="rotate(180 50 102)"/>`;
}

/** The SVG markup of a card face. `label` is the accessible name (translated by the caller). */
export function cardFace(card, label = card) {
  const rank = card[0], suit = card[1];
  return `<svg class="card-svg ${suitClass(suit)}" viewBox="0 0 100 140" role="img" aria-label="${label}">` +
    `<rect x="1" y="1" width="98" height="138" rx="8" class="face"/>` +
    `<g class="ink">${corner(rank, suit)}<g transform="rotate(180 50 70)">${corner(rank, suit)}</g>` +
    `${centre(rank, suit)}</g></svg>`;
}

/** The SVG markup of a card back. */
export function cardBack() {
  return `<svg class="card-svg back" viewBox="0 0 100 140" aria-hidden="true">` +
    `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#9aa"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="5" fill="url(#card-back-pattern)"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="5" fill="none" stroke="#fff" stroke-width="2"/></svg>`;
}

/** A card in words, as the language names it: "Queen of Spades", "Maça Kızı", "Дама пика". */
export function cardWords(card, t) {
  return t("card.name", { rank: t("card.rank." + card[0]), suit: t("card.suit." + card[1]) });
}

export function cardIndex(name) {
  return SUITS.indexOf(name[1]) * 8 + RANKS.indexOf(name[0]);
}

export function cardName(index) {
  return RANKS[index & 7] + SUITS[index >> 3];
}

/** Short text form with a suit icon: "K♥". */
export function cardShort(card) {
  return `<span class="card-short ${suitClass(card[1])}">${INDEX[card[0]]}${suitIcon(card[1])}</span>`;
}

/** A declaration's cards, "J♥ Q♥ K♥ A♥", as one piece that a line does not break. */
export function cardsShort(cards) {
  return `<span class="cards-short">${cards.map(cardShort).join(" ")}</span>`;
}

// Display order (not a rule: the rules decide which cards are legal; this only arranges the hand).
const TRUMP_ORDER = "J9ATKQ87"; // high first (R4.1)
const PLAIN_ORDER = "ATKQJ987";

/** Sort a hand for display: suits alternate colour, trumps first, each suit high to low for the contract. */
export function sortHand(cards, contract) {
  const present = [...new Set(cards.map((c) => c[1]))];
  // Alternate red and black where possible: S H C D, with the trump suit moved to the front.
  let order = ["S", "H", "C", "D"].filter((s) => present.includes(s));
  if (contract && "CDHS".includes(contract) && order.includes(contract)) {
    order = [contract, ...order.filter((s) => s !== contract)];
    // Restore alternation after moving the trump suit.
    for (let i = 1; i < order.length - 1; i++) {
      if (RED.has(order[i]) === RED.has(order[i - 1])) {
        const j = order.findIndex((s, k) => k > i && RED.has(s) !== RED.has(order[i - 1]));
        if (j > 0) [order[i], order[j]] = [order[j], order[i]];
      }
    }
  }
  const rankOrder = (suit) => (contract === "AT" || contract === suit ? TRUMP_ORDER : PLAIN_ORDER);
  return [...cards].sort((a, b) => {
    const sa = order.indexOf(a[1]), sb = order.indexOf(b[1]);
    if (sa !== sb) return sa - sb;
    const ro = rankOrder(a[1]);
    return ro.indexOf(a[0]) - ro.indexOf(b[0]);
  });
}

export function svgNode(markup) {
  const t = document.createElement("template");
  t.innerHTML = markup.trim();
  return t.content.firstChild;
}
