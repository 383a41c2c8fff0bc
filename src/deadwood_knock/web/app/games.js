// @ts-check
// The games' rules in words and figures, from the server's GET /api/games (each game's
// engine RuleFacts): titles, the poker categories' words and points, card points, the knock
// limit, what one deal is called, table sizes and default options. The client copies none of
// them. The answer is kept in localStorage (and by the service worker) for an offline start.
import { useState, useEffect } from "./lib.js";

/**
 * One game's entry in GET /api/games.
 * @typedef {object} GameFacts
 * @property {string} name
 * @property {string} title
 * @property {number} min_players
 * @property {number} max_players
 * @property {Record<string, any>} options the default table options
 * @property {boolean} poker_split a poker hand and deadwood (else melds)
 * @property {boolean} rummy
 * @property {number | null} hand_size
 * @property {number | null} knock_limit null: a table option, or none
 * @property {number[]} card_points deadwood points by card index (A♠..K♠, ♥, ♦, ♣, jokers)
 * @property {Record<string, string>} category_words "a full house"
 * @property {Record<string, number>} hand_points
 * @property {string} unit "round" or "hand"
 * @property {boolean} jokers
 * @property {boolean} layoffs
 * @property {Record<string, number>} [figures] pot_ante, suspicion, knock_penalty, rummy_bonus...
 */

const KEY = "dk.games.v1";

/** @type {Record<string, GameFacts>} */
let byName = stored();
/** @type {Promise<Record<string, GameFacts>> | null} */
let loading = null;
/** @type {Set<() => void>} */
const listeners = new Set();

/** @returns {Record<string, GameFacts>} */
function stored() {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? JSON.parse(raw) : {};
  } catch {
    return {};
  }
}

/**
 * Ask the server once per start (the browser revalidates by ETag); until it answers, and
 * when it can't, the stored copy stands.
 * @returns {Promise<Record<string, GameFacts>>}
 */
export function loadGames() {
  if (!loading) {
    loading = fetch("/api/games", { headers: { Accept: "application/json" } })
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
      .then((/** @type {{games: GameFacts[]}} */ body) => {
        byName = Object.fromEntries((body.games || []).map((g) => [g.name, g]));
        try {
          localStorage.setItem(KEY, JSON.stringify(byName));
        } catch {
          // Storage full or blocked: fetched again next start.
        }
        listeners.forEach((fn) => fn());
        return byName;
      })
      .catch(() => {
        loading = null; // offline or a server without it: the stored copy, and retry later
        return byName;
      });
  }
  return loading;
}

/**
 * Re-render when the catalogue arrives.
 * @returns {Record<string, GameFacts>}
 */
export function useGames() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const fn = () => setTick((t) => t + 1);
    listeners.add(fn);
    loadGames();
    return () => {
      listeners.delete(fn);
    };
  }, []);
  return byName;
}

/**
 * @param {string | null | undefined} name
 * @returns {GameFacts | null}
 */
export function gameFacts(name) {
  return (name && byName[name]) || null;
}

/**
 * The game's title as the engine writes it; its name until the catalogue is in.
 * @param {string | null | undefined} name
 */
export function gameTitle(name) {
  const f = gameFacts(name);
  return f ? f.title : name || "";
}

/**
 * Whether hands split into a poker hand and deadwood (else melds). Before the catalogue is
 * in, the observation tells: only a poker-split game evaluates a poker hand.
 * @param {string | null | undefined} name
 * @param {{evaluation?: unknown}} [obs]
 */
export function pokerSplit(name, obs) {
  const f = gameFacts(name);
  return f ? f.poker_split : !!(obs && obs.evaluation);
}

/**
 * "Round" or "Hand": what one deal of this game is called, capitalised.
 * @param {string | null | undefined} name
 */
export function unitWord(name) {
  const f = gameFacts(name);
  const unit = f ? f.unit : "round";
  return unit.charAt(0).toUpperCase() + unit.slice(1);
}

/** @returns {GameFacts[]} */
function allGames() {
  return Object.values(byName);
}

/**
 * A poker category in the engine's words, as used in a sentence: "a full house".
 * @param {string | null | undefined} category
 */
export function categoryPhrase(category) {
  if (!category) return "—";
  for (const g of allGames()) {
    const w = g.category_words && g.category_words[category];
    if (w) return w;
  }
  return String(category).replace(/_/g, " ");
}

/**
 * A poker category as a label: "Full house" (the engine's phrase without its article).
 * @param {string | null | undefined} category
 */
export function categoryTitle(category) {
  if (!category) return "—";
  const words = categoryPhrase(category).replace(/^an? /, "");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The poker categories, lowest first, with their hand points (from the poker-split game).
 * @returns {{category: string, points: number}[]}
 */
export function handPointsTable() {
  const g = allGames().find((x) => x.poker_split);
  if (!g) return [];
  return Object.entries(g.hand_points)
    .map(([category, points]) => ({ category, points }))
    .sort((a, b) => a.points - b.points);
}

/**
 * A joker's deadwood points (printed on its face), from the game that deals jokers.
 * @returns {number | null}
 */
export function jokerPoints() {
  const g = allGames().find((x) => x.jokers && x.card_points.length > 52);
  return g ? g.card_points[52] : null;
}

/**
 * One of a game's other rule figures by name (the pot's ante, a bonus...), or null until
 * the catalogue is in.
 * @param {string} game
 * @param {string} name
 * @returns {number | null}
 */
export function figure(game, name) {
  const f = gameFacts(game);
  const v = f && f.figures ? f.figures[name] : undefined;
  return typeof v === "number" ? v : null;
}
