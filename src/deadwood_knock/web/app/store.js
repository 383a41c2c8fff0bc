// @ts-check
// Local settings and identity. Everything lives in localStorage so a reload (or an offline
// start) comes back to the same saloon; the server holds the authoritative copy when reachable.
const KEY = "dk.settings.v1";

const DEFAULTS = Object.freeze({
  name: "",
  likeness: null,
  cardBack: "", // empty: the back every player starts with (cards.js chosenBack)
  largePrint: false,
  sleightOfHand: false,
  playerId: null,
  token: null,
  backupEmail: "",
  a2hsShown: false,
  // The table: opponents' pace (fast, normal, slow), sound effects, and the costly-knock check.
  pace: "normal",
  sound: false,
  knockWarning: true,
  progress: { completed: [] },
  records: { trail: { wins: 0, losses: 0, ties: 0 }, gunfighter: { wins: 0, losses: 0, best: null } },
});

const listeners = new Set();
let current = load();

function load() {
  try {
    const raw = localStorage.getItem(KEY);
    const saved = raw ? { ...DEFAULTS, ...JSON.parse(raw) } : { ...DEFAULTS };
    // Older versions kept "deadwood", a back drawn by the client that the server never had.
    if (saved.cardBack === "deadwood") saved.cardBack = "";
    return saved;
  } catch {
    return { ...DEFAULTS };
  }
}

/** @returns {Record<string, any>} */
export function settings() {
  return current;
}

/** @param {Record<string, any>} patch */
export function update(patch) {
  current = { ...current, ...patch };
  localStorage.setItem(KEY, JSON.stringify(current));
  for (const fn of listeners) fn(current);
  return current;
}

/** @param {(s: Record<string, any>) => void} fn @returns {() => void} */
export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// Restarting progress clears towns and tables only: name and lifetime records stay.
export function restartProgress() {
  return update({ progress: { completed: [] } });
}

// Counted once per match, however many times its end is seen (reloads, coming back later).
/** @param {"trail" | "gunfighter"} kind @param {string} outcome @param {string | null} [matchId] */
export function recordResult(kind, outcome, matchId) {
  const seen = current.recordedMatches || [];
  if (matchId && seen.includes(matchId)) return current;
  const rec = structuredClone(current.records);
  const bucket = kind === "gunfighter" ? rec.gunfighter : rec.trail;
  if (outcome === "win") bucket.wins += 1;
  else if (outcome === "loss") bucket.losses += 1;
  else bucket.ties = (bucket.ties || 0) + 1;
  const recordedMatches = matchId ? [...seen, matchId].slice(-200) : seen;
  return update({ records: rec, recordedMatches });
}

// Offline: the browser says the network is gone. The app then asks the server nothing (no
// failed requests), shows what it keeps (art, the last trail, rules, records) and disables
// only what needs the server.
/** @returns {boolean} */
export function isOffline() {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

if (typeof window !== "undefined") {
  const ping = () => {
    for (const fn of listeners) fn(current);
  };
  window.addEventListener("online", ping);
  window.addEventListener("offline", ping);
}
