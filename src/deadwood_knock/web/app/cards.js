// @ts-check
// Card notation (same as the server: "7c", "Th", "JK") and SVG card faces drawn in code.
// Suits always carry their symbol; colour is only a second cue.
import { html } from "./lib.js";
import { jokerPoints } from "./games.js";
import { optional } from "./api.js";

/** A figure with a true minus sign ("−2"). @param {number} n */
function minus(n) {
  return n < 0 ? `−${-n}` : String(n);
}

const RANKS = "A23456789TJQK";
const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const SUIT_WORDS = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
const RANK_WORDS = {
  A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King",
};

/**
 * A card in notation, parsed (null for nothing).
 * @typedef {{text: string, joker: boolean, rank: string, suit: string}} Card
 * @param {string | null | undefined} text
 * @returns {Card | null}
 */
export function parseCard(text) {
  if (!text) return null;
  const t = String(text).trim();
  if (t.toUpperCase() === "JK") return { text: "JK", joker: true, rank: "", suit: "" };
  const suit = t.slice(-1).toLowerCase();
  let rank = t.slice(0, -1).toUpperCase();
  if (rank === "10") rank = "T";
  return { text: rank + suit, joker: false, rank, suit };
}

/** @param {string} rank */
export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

// "Q♥", "10♣", "Joker": used in visible text and in accessible names.
/** @param {string} text @returns {string} */
export function pretty(text) {
  const c = parseCard(text);
  if (!c) return "";
  if (c.joker) return "Joker";
  return rankLabel(c.rank) + SUITS[c.suit];
}

/** @param {string} text @returns {string} */
export function spoken(text) {
  const c = parseCard(text);
  if (!c) return "";
  if (c.joker) return "Joker";
  return `${RANK_WORDS[c.rank] ?? c.rank} of ${SUIT_WORDS[c.suit]}`;
}

/** @param {string} text */
export function isRed(text) {
  const c = parseCard(text);
  return !!c && (c.suit === "h" || c.suit === "d");
}

/** @param {string | null | undefined} a @param {string | null | undefined} b */
export function sameCard(a, b) {
  const x = parseCard(a);
  const y = parseCard(b);
  return !!x && !!y && x.text === y.text;
}

// The count a Knock Rummy / Gin hand would leave after throwing ``card``: the engine's
// ``discard_counts`` (only while the seat has a card to throw), or null.
/** @param {any} obs the seat's observation @param {string | null} card @returns {number | null} */
export function countAfter(obs, card) {
  if (!card || !obs || !obs.discard_counts) return null;
  const hit = Object.entries(obs.discard_counts).find(([c]) => sameCard(c, card));
  return hit ? hit[1] : null;
}

// The lowest count a discard leaves and the cards that leave it (hand order), or null.
/** @param {any} obs @returns {{count: number, cards: string[]} | null} */
export function lowestAfter(obs) {
  const entries = Object.entries((obs && obs.discard_counts) || {});
  if (!entries.length) return null;
  const count = Math.min(...entries.map(([, n]) => n));
  return { count, cards: entries.filter(([, n]) => n === count).map(([c]) => c) };
}

// Sort by suit then rank, so a hand reads like a person would hold it.
/** @param {string[]} cards @returns {string[]} */
export function sortHand(cards) {
  const order = (t) => {
    const c = parseCard(t);
    if (c.joker) return 100;
    return "shdc".indexOf(c.suit) * 13 + RANKS.indexOf(c.rank);
  };
  return [...cards].sort((a, b) => order(a) - order(b));
}

// Card faces on a 60 x 84 box. The corner index (rank over suit) keeps to a 12-unit column
// at each side (x 3..15 and 45..57); pips keep to the middle (x 18..42), so no index ever
// touches a pip, "10" included (its two digits are drawn condensed into the same column).
const L = 22;
const C = 30;
const R = 38;
// Pip centres (x, y) for number cards; a third value turns the pip upside down.
const PIPS = {
  A: [[C, 42]],
  2: [[C, 16], [C, 68, 1]],
  3: [[C, 16], [C, 42], [C, 68, 1]],
  4: [[L, 16], [R, 16], [L, 68, 1], [R, 68, 1]],
  5: [[L, 16], [R, 16], [C, 42], [L, 68, 1], [R, 68, 1]],
  6: [[L, 16], [R, 16], [L, 42], [R, 42], [L, 68, 1], [R, 68, 1]],
  7: [[L, 16], [R, 16], [C, 29], [L, 42], [R, 42], [L, 68, 1], [R, 68, 1]],
  8: [[L, 16], [R, 16], [C, 29], [L, 42], [R, 42], [C, 55, 1], [L, 68, 1], [R, 68, 1]],
  9: [[L, 16], [R, 16], [L, 33], [R, 33], [C, 42], [L, 51, 1], [R, 51, 1], [L, 68, 1], [R, 68, 1]],
  T: [[L, 16], [R, 16], [C, 24.5], [L, 33], [R, 33], [L, 51, 1], [R, 51, 1], [C, 59.5, 1],
    [L, 68, 1], [R, 68, 1]],
};

let indexIds = 0;

// Decoration drawn by <use> from <defs>: seen, but not part of the card's text (a button's
// accessible name must contain all of its visible text).
function drawnOnly(content) {
  const id = `ix${(indexIds += 1)}`;
  return html`<defs><g id=${id}>${content}</g></defs><use href=${`#${id}`} />`;
}

function cornerIndex(r, sym, colour) {
  // "10" is squeezed into the width of one wide letter; every other rank is one glyph.
  const squeeze = r.length > 1 ? { textLength: "12", lengthAdjust: "spacingAndGlyphs" } : {};
  // Drawn once in <defs> and shown twice by <use>: the card's text is then the rank once, so a
  // button's name ("Discard 6♥") contains everything the card visibly says.
  const id = `ix${(indexIds += 1)}`;
  return html`<defs><g id=${id}>
    <text x="9" y="14" text-anchor="middle" font-size="13" font-weight="800" fill=${colour}
      font-family="Georgia, 'Times New Roman', serif" ...${squeeze}>${r}</text>
    <text x="9" y="25" text-anchor="middle" font-size="10" fill=${colour}>${sym}</text></g></defs>
    <use href=${`#${id}`} /><use href=${`#${id}`} transform="rotate(180 30 42)" />`;
}

function face(c, large) {
  const colour = c.suit === "h" || c.suit === "d" ? "var(--red-suit)" : "var(--black-suit)";
  const sym = SUITS[c.suit];
  const r = rankLabel(c.rank);
  if (large) {
    // Large print: one big rank and one big suit, no pips to squint at.
    const squeeze = r.length > 1 ? { textLength: "40", lengthAdjust: "spacingAndGlyphs" } : {};
    return html`
      <text x="30" y="40" text-anchor="middle" font-size="34" font-weight="800" fill=${colour}
        font-family="Georgia, 'Times New Roman', serif" ...${squeeze}>${r}</text>
      <text x="30" y="74" text-anchor="middle" font-size="30" fill=${colour}>${sym}</text>`;
  }
  const corners = cornerIndex(r, sym, colour);
  if ("JQK".includes(c.rank)) {
    return html`${corners}
      <rect x="17" y="12" width="26" height="60" rx="3" fill="var(--court)" stroke=${colour}
        stroke-width="1.2"/>
      <rect x="19.5" y="14.5" width="21" height="55" rx="2" fill="none" stroke=${colour}
        stroke-width="0.5" opacity="0.6"/>
      <text x="30" y="45" text-anchor="middle" font-size="22" font-weight="800" fill=${colour}
        font-family="Georgia, 'Times New Roman', serif">${r}</text>
      <text x="30" y="63" text-anchor="middle" font-size="12" fill=${colour}>${sym}</text>
      <text x="30" y="25" text-anchor="middle" font-size="8" fill=${colour}>${sym}</text>`;
  }
  const big = c.rank === "A";
  const pips = (PIPS[c.rank] || []).map(
    ([x, y, flip]) => html`<text x=${x} y=${y + (big ? 9 : 4)} text-anchor="middle"
      font-size=${big ? 26 : 11} fill=${colour}
      transform=${flip ? `rotate(180 ${x} ${y})` : undefined}>${sym}</text>`,
  );
  return html`${corners}${pips}`;
}

/** @param {{card: string, large?: boolean}} props */
export function CardFace({ card, large = false }) {
  const c = parseCard(card);
  if (!c) return null;
  const inner = c.joker
    ? html`${drawnOnly(html`
        <text x="30" y="34" text-anchor="middle" font-size=${large ? 26 : 20}
          fill="var(--joker)">★</text>
        ${jokerPoints() != null
          ? html`<text x="30" y="72" text-anchor="middle" font-size="9" fill="var(--joker)">${minus(jokerPoints())}</text>`
          : null}`)}
        <text x="30" y="58" text-anchor="middle" font-size=${large ? 13 : 10} font-weight="800"
          fill="var(--joker)" letter-spacing="1">JOKER</text>`
    : face(c, large);
  return html`<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
    <rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" fill="var(--card-face)"
      stroke="var(--card-edge)" stroke-width="1.5"/>
    ${inner}
  </svg>`;
}

// Card backs are content: the server's list (/api/card-backs) names each back, its SVG art and
// whether this player has unlocked it; exactly one has no unlock, the back every player
// starts with. The list is kept in localStorage so the table (and an offline start) has the
// art without asking again. Before it has ever loaded, a back drawn here stands in.
const BACKS_KEY = "dk.cardBacks.v2";
/** @type {{id: string, name: string, svg_url?: string, unlocked?: boolean, unlock?: any}[]} */
let knownBacks = [];
try {
  const stored = JSON.parse(localStorage.getItem(BACKS_KEY) || "[]");
  knownBacks = Array.isArray(stored) ? stored : [];
} catch {
  knownBacks = [];
}
localStorage.removeItem("dk.backArt.v1"); // an older version's art list, replaced by this one

/** The server's list of backs, as last loaded (empty before it ever has been). */
export function cardBacks() {
  return knownBacks;
}

/** Keep the server's list of backs for the table and for offline starts. */
function setCardBacks(list) {
  knownBacks = list.map(({ id, name, svg_url, unlocked, unlock }) => ({ id, name, svg_url, unlocked, unlock }));
  localStorage.setItem(BACKS_KEY, JSON.stringify(knownBacks));
}

/** @type {Promise<any[] | null> | null} */
let asking = null;

/**
 * Ask the server for this player's backs and keep them; the list, or null where the server
 * has none to give (offline, no such route). Callers asking at the same moment share one
 * request. Only call it once there is a player: asking makes one.
 * @returns {Promise<any[] | null>}
 */
export function refreshCardBacks() {
  if (!asking) {
    asking = optional("/api/card-backs")
      .then((b) => {
        if (!b || !b.card_backs) return null;
        setCardBacks(b.card_backs);
        return b.card_backs;
      })
      .finally(() => {
        asking = null;
      });
  }
  return asking;
}

/**
 * The back a player with this setting sees: the chosen one if it is a back they have
 * unlocked, else the back everyone starts with (the setting may be empty, an id from an
 * older version, or a back the server has not confirmed).
 * @param {string | null | undefined} chosen
 * @returns {string}
 */
export function chosenBack(chosen) {
  const mine = knownBacks.find((b) => b.id === chosen && b.unlocked !== false);
  if (mine) return mine.id;
  const first = knownBacks.find((b) => b.unlock == null);
  return first ? first.id : "";
}

/**
 * The art of the back a setting shows (see chosenBack), or null before the list has loaded.
 * @param {string | null | undefined} chosen
 * @returns {string | null}
 */
export function backArt(chosen) {
  const shown = knownBacks.find((b) => b.id === chosenBack(chosen));
  return (shown && shown.svg_url) || null;
}

/**
 * ``preview``: the back's own art even while it is locked (the profile shows what a player
 * is earning; a table only ever shows a back the player may use).
 * @param {{back?: string | null, preview?: boolean}} props
 */
export function CardBack({ back = null, preview = false }) {
  const own = preview ? knownBacks.find((b) => b.id === back) : null;
  const art = (own && own.svg_url) || backArt(back);
  if (art) return html`<img class="card-svg" src=${art} alt="" width="60" height="84" />`;
  const a = "#7a1f1f";
  const b = "#d9b36c";
  return html`<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
    <defs>
      <pattern id="pat-house" width="8" height="8" patternUnits="userSpaceOnUse"
        patternTransform="rotate(45)">
        <rect width="8" height="8" fill=${a}/>
        <rect width="4" height="8" fill=${b} opacity="0.35"/>
      </pattern>
    </defs>
    <rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" fill=${b}
      stroke="var(--card-edge)" stroke-width="1.5"/>
    <rect x="5" y="5" width="50" height="74" rx="3" fill="url(#pat-house)"/>
    <circle cx="30" cy="42" r="10" fill=${a} stroke=${b} stroke-width="2"/>
    ${drawnOnly(html`<text x="30" y="46.5" text-anchor="middle" font-size="11" font-weight="800"
      fill=${b} font-family="Georgia, serif">DK</text>`)}
  </svg>`;
}
