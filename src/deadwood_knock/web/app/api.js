// @ts-check
// Thin client for the server's JSON API. The bearer token from POST /api/players is kept in
// localStorage (see store.js). Errors carry the server's message so screens can show it.
import { settings, update, isOffline } from "./store.js";

/** An answer that is not a success: its status (0: no answer), the server's words and body. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {any} [body]
   */
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export const OFFLINE_MESSAGE = "You're offline: this needs the saloon's server.";

// `raw`: the body is already JSON text, sent as it is, and the answer's text comes back
// unparsed (a GameRecord's 63-bit seed would lose digits as a JavaScript number).
/**
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {boolean} [raw]
 * @returns {Promise<any>}
 */
async function request(method, path, body, raw = false) {
  if (isOffline()) throw new ApiError(0, OFFLINE_MESSAGE);
  const headers = { Accept: "application/json" };
  const { token } = settings();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, "The saloon can't be reached right now. Check your connection.");
  }
  const text = await res.text();
  if (raw && res.ok) return text;
  let data;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!res.ok) {
    const detail = data && (data.detail ?? data.error ?? data.message);
    const msg = typeof detail === "string" ? detail : `Request failed (${res.status})`;
    throw new ApiError(res.status, msg, data);
  }
  return data;
}

export const api = {
  get: (p) => request("GET", p),
  post: (p, b = {}) => request("POST", p, b),
  put: (p, b = {}) => request("PUT", p, b),
  patch: (p, b = {}) => request("PATCH", p, b),
  del: (p) => request("DELETE", p),
  getText: (p) => request("GET", p, undefined, true),
  postText: (p, text) => request("POST", p, text, true).then((t) => JSON.parse(t)),
};

export async function health() {
  return api.get("/api/health");
}

let registering = null;

// Registers a player once and remembers the token; a stale token (server reset) registers anew.
// Concurrent callers share one registration, or each would get (and keep) a different player.
export async function ensurePlayer() {
  const s = settings();
  if (s.token && s.playerId) return s;
  if (!registering) {
    registering = api
      .post("/api/players", s.name ? { name: s.name } : {})
      .then((made) => update({ playerId: made.player_id, token: made.token }))
      .finally(() => {
        registering = null;
      });
  }
  return registering;
}

/**
 * @template T
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withPlayer(fn) {
  await ensurePlayer();
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      update({ token: null, playerId: null });
      await ensurePlayer();
      return fn();
    }
    throw err;
  }
}

/**
 * @param {string} game
 * @param {string[]} opponents
 * @param {Record<string, any>} [options]
 */
export async function createMatch(game, opponents, options = {}) {
  return withPlayer(() => api.post("/api/matches", { game, opponents, options }));
}

/** @param {string} id */
export async function getMatch(id) {
  return withPlayer(() => api.get(`/api/matches/${encodeURIComponent(id)}`));
}

// Optional endpoints (trail, characters, gazette, profile) may not exist on every server:
// callers get null instead of an exception and show a plain message.
let pathsPromise = null;

// The routes this server has, from its OpenAPI document, so the client can skip endpoints a
// server does not offer yet instead of asking and getting a 404.
function serverPaths() {
  if (isOffline()) return Promise.resolve(null);
  if (!pathsPromise) {
    pathsPromise = fetch("/openapi.json", { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null))
      .then((doc) => (doc && doc.paths ? new Set(Object.keys(doc.paths)) : null))
      .catch(() => null);
  }
  return pathsPromise;
}

// Endpoints anyone may read: asking them never registers a player (the welcome screen makes
// none until "Ride in").
const PUBLIC = new Set(["/api/characters", "/api/likenesses"]);

/**
 * @param {string} path
 * @returns {Promise<any>} the answer, or null where the server has no such route
 */
export async function optional(path) {
  const paths = await serverPaths();
  if (paths && !paths.has(path)) return null;
  try {
    if (PUBLIC.has(path)) return await api.get(path);
    return await withPlayer(() => api.get(path));
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 405 || err.status === 0)) {
      return null;
    }
    throw err;
  }
}

/** @param {string} id @returns {string} */
export function matchSocketUrl(id) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/api/matches/${encodeURIComponent(id)}/ws`;
}

// The server's copy of the profile. Only fields that are set are sent (the server refuses
// empty names and non-slug ids).
export async function pushProfile(s) {
  const body = {
    large_print: !!s.largePrint,
    sleight_of_hand: !!s.sleightOfHand,
  };
  if (s.name) body.name = s.name;
  if (s.likeness) body.likeness = s.likeness;
  if (s.cardBack) body.card_back = s.cardBack;
  try {
    return await withPlayer(() => api.patch("/api/players/me", body));
  } catch (err) {
    // The server refuses a back this player hasn't unlocked; keep the other settings anyway.
    const code = err instanceof ApiError && err.body && err.body.code;
    if (body.card_back && (code === "card_back_locked" || code === "unknown_card_back")) {
      const { card_back: _refused, ...rest } = body;
      return withPlayer(() => api.patch("/api/players/me", rest));
    }
    throw err;
  }
}

// Hand Focus: the server's strong-bot hint for this seat. Off the player's turn (a request
// that raced the bots) the answer's `hint` is null.
/** @param {string} id */
export async function getHint(id) {
  return api.get(`/api/matches/${encodeURIComponent(id)}/hint`);
}
