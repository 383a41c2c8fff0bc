// @ts-check
// One live view per match. The match socket feeds it; while the socket is closed it polls.
// Views from every source (socket, an action's answer, a poll) go through `offer`, which keeps
// a view only if it is newer than the newest one held, so a late answer can never roll the
// table back. Events are kept by version, whichever source brought them first.
import { api, getMatch, matchSocketUrl, ApiError } from "./api.js";
import { settings } from "./store.js";

const POLL_MS = 1500;
const RECONNECT_MS = [500, 1000, 2000, 4000, 8000];
const RETRIES = [300, 900, 2000];

// Order of views: by version, and at one version a finished match after an active one (a
// forfeit ends the match without an action, so without a new version).
/** @param {any} view @returns {number} */
export function rankOf(view) {
  if (!view || typeof view.version !== "number") return -1;
  return view.version * 2 + (view.status === "finished" ? 1 : 0);
}

const live = new Map();

// The store of a match on screen (tests reach it through this too).
/** @param {string} matchId @returns {MatchStore | null} */
export function storeFor(matchId) {
  return live.get(matchId) || null;
}

function newActionId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return `a-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export class MatchStore {
  constructor(matchId) {
    this.matchId = matchId;
    this.latest = null;
    this.views = new Map(); // version -> a view kept by `offer` (so each newer than the last)
    this.events = new Map(); // version -> that version's events, complete
    this.socketEvents = new Map(); // version -> events from the socket, until its view comes
    this.listeners = new Set();
    this.socketOpen = false;
    this.error = null;
    this.stopped = true;
    this.ws = null;
    this.timers = new Set();
    this.failures = 0;
  }

  start() {
    if (!this.stopped) return this;
    this.stopped = false;
    live.set(this.matchId, this);
    this.fetchOnce();
    this.connect();
    this.schedulePoll();
    return this;
  }

  stop() {
    this.stopped = true;
    if (live.get(this.matchId) === this) live.delete(this.matchId);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
      this.ws = null;
    }
    this.socketOpen = false;
  }

  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  notify() {
    for (const fn of this.listeners) fn(this);
  }

  later(fn, ms) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(t);
  }

  // Keep a view only if it is newer than the newest held; returns whether it was kept.
  /** @param {any} view a view from any source; kept only if newer */
  offer(view) {
    if (!view || typeof view !== "object" || typeof view.version !== "number") return false;
    if (view.match_id && view.match_id !== this.matchId) return false;
    this.takeEvents(view.recent_events);
    if (rankOf(view) <= rankOf(this.latest)) return false;
    this.latest = view;
    this.views.set(view.version, view);
    this.error = null;
    this.notify();
    return true;
  }

  // A view's recent events, grouped by version; a version already held is left as it is.
  takeEvents(list) {
    if (!Array.isArray(list)) return;
    const byVersion = new Map();
    for (const e of list) {
      if (typeof e.version !== "number") continue;
      if (!byVersion.has(e.version)) byVersion.set(e.version, []);
      const { version: _v, ...event } = e;
      byVersion.get(e.version).push(event);
    }
    for (const [version, events] of byVersion) {
      if (!this.events.has(version)) this.events.set(version, events);
    }
  }

  // Views and events newer than `version`, for the playback to consume; older ones go.
  forget(version) {
    for (const v of this.views.keys()) if (v < version) this.views.delete(v);
    for (const v of this.events.keys()) if (v < version - 200) this.events.delete(v);
  }

  async fetchOnce() {
    try {
      this.offer(await getMatch(this.matchId));
    } catch (err) {
      this.error = err;
      this.notify();
    }
  }

  // Polling is the fallback: it asks only while the socket is not open.
  schedulePoll() {
    this.later(async () => {
      if (!this.socketOpen) await this.fetchOnce();
      this.schedulePoll();
    }, POLL_MS);
  }

  connect() {
    let ws;
    try {
      ws = new WebSocket(matchSocketUrl(this.matchId));
    } catch {
      this.reconnect();
      return;
    }
    this.ws = ws;
    // The token goes in the first message, never in the URL.
    ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token: settings().token }));
    ws.onmessage = (msg) => {
      let data;
      try {
        data = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (!data || this.ws !== ws) return;
      if (data.type === "event" && typeof data.version === "number" && data.event) {
        if (!this.socketEvents.has(data.version)) this.socketEvents.set(data.version, []);
        this.socketEvents.get(data.version).push(data.event);
      } else if (data.type === "view" && data.view) {
        // Every event of a version is sent before that version's view: they are complete.
        for (const [version, events] of this.socketEvents) {
          if (version <= data.view.version) {
            if (!this.events.has(version)) this.events.set(version, events);
            this.socketEvents.delete(version);
          }
        }
        this.socketOpen = true;
        this.failures = 0;
        if (!this.offer(data.view)) this.notify();
      }
    };
    ws.onerror = () => {};
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.socketOpen = false;
      this.socketEvents.clear();
      this.notify();
      this.reconnect();
    };
  }

  reconnect() {
    if (this.stopped) return;
    const wait = RECONNECT_MS[Math.min(this.failures, RECONNECT_MS.length - 1)];
    this.failures += 1;
    this.later(() => this.connect(), wait);
  }

  // Post one legal action with the version it was chosen at and an id of its own, so a retry
  // after a lost answer is applied once. The answer (the new view) goes through `offer`.
  /** @param {Record<string, any>} action one of the view's legal actions */
  async act(action) {
    const body = { action, client_action_id: newActionId() };
    if (this.latest) body.version = this.latest.version;
    const path = `/api/matches/${encodeURIComponent(this.matchId)}/actions`;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const view = await api.post(path, body);
        this.offer(view);
        return view;
      } catch (err) {
        const retry = err instanceof ApiError && (err.status === 0 || err.status >= 500);
        if (!retry || attempt >= RETRIES.length) throw err;
        await new Promise((resolve) => setTimeout(resolve, RETRIES[attempt]));
      }
    }
  }
}
