// @ts-check
// Playback: the table shows the server's views one version at a time, in order, at a pace a
// person can follow. The server stays authoritative and runs ahead; this only decides when
// the next view it sent is put on screen. An opponent's move waits a moment ("thinking"), its
// cards fly, its line goes into the log, then its view is shown. Your own moves show at once.
// A round's result stops the playback until the player closes it, so nothing of the next
// round is shown behind the showdown.
import { rankOf } from "./matchstore.js";
import { settings } from "./store.js";
import { describeEvents, isMove } from "./tablelog.js";
import { fly, placeRect, motionAllowed } from "./motion.js";
import { playSound } from "./sound.js";

export const PACES = [
  { id: "fast", label: "Fast", ms: 350 },
  { id: "normal", label: "Normal", ms: 750 },
  { id: "slow", label: "Slow", ms: 1300 },
];
const LOG_LIMIT = 300;
const ROUND_END = new Set(["round_result", "hand_result"]);
const AFTER_ROUND = new Set(["deal", "hand", "dealt", "match_over", "game_over"]);

// Milliseconds per opponent move. `dk.paceMs` in localStorage overrides the setting (the
// browser tests use it to play at full speed where pace is not what they check).
export function paceMs() {
  const forced = localStorage.getItem("dk.paceMs");
  if (forced !== null && forced !== "" && Number.isFinite(Number(forced))) return Number(forced);
  const pace = PACES.find((p) => p.id === settings().pace) || PACES[1];
  return pace.ms;
}

function flightMs(pace) {
  if (!pace || !motionAllowed()) return 0;
  return Math.round(Math.min(380, Math.max(160, pace * 0.38)));
}

// A round's result as the showdown shows it, from that version's events (the engine's).
export function resultFromEvents(events) {
  const dk = events.find((e) => e.type === "round_result");
  if (dk) return { ...dk, dk: true };
  const hr = events.find((e) => e.type === "hand_result");
  if (!hr) return null;
  const show = events.find((e) => e.type === "showdown");
  const voided = events.find((e) => e.type === "void");
  const { type: _t, seat, ...layout } = show || {};
  return {
    ...layout,
    ...hr,
    type: "hand_result",
    ender: show ? seat : null,
    knocker: show && layout.outcome !== "rummy" ? seat : null,
    reason: voided ? voided.reason : undefined,
    dk: false,
  };
}

export class Playback {
  constructor(store, hooks = {}) {
    this.store = store;
    this.hooks = hooks; // onChange(), onEvent(ev, version, part, at), onPast(ev, version, part, at), names: (seat) => name
    this.shown = null;
    this.frozen = false; // a round has ended: the view behind the showdown takes no input
    this.log = [];
    this.parts = 0; // the log's parts in order, numbered for good (the log drops its oldest)
    this.showdown = null;
    this.lastResult = null;
    this.drawn = null; // the card you drew last, marked until your next action
    this.arriving = new Set(); // places whose card is still in the air
    this.pending = 0; // views waiting to be shown
    this.hurry = false;
    this.running = false;
    this.stopped = false;
    this.closeShowdown = null;
    this.wake = null;
    this.lastActor = null;
    this.unsubscribe = store.subscribe(() => this.kick());
  }

  stop() {
    this.stopped = true;
    this.unsubscribe();
    if (this.wake) this.wake();
  }

  emit() {
    if (!this.stopped && this.hooks.onChange) this.hooks.onChange(this);
  }

  kick() {
    this.countPending();
    if (this.wake) this.wake();
    if (!this.running) this.run();
    else this.emit();
  }

  countPending() {
    const shownRank = rankOf(this.shown);
    let n = 0;
    for (const view of this.store.views.values()) if (rankOf(view) > shownRank) n += 1;
    this.pending = n;
    if (!n) this.hurry = false;
  }

  // Show everything waiting without the pauses and flights (showdowns still stop).
  skip() {
    this.hurry = true;
    if (this.wake) this.wake();
    this.emit();
  }

  // The player acted: the drawn card is no longer news.
  acted() {
    this.drawn = null;
    this.emit();
  }

  async run() {
    this.running = true;
    try {
      while (!this.stopped) {
        if (!this.shown) {
          if (!this.store.latest) break;
          this.begin(this.store.latest);
          continue;
        }
        const target = this.nextView();
        if (!target) break;
        await this.playTo(target);
      }
    } finally {
      this.running = false;
      this.countPending();
      this.emit();
    }
  }

  // The first view: shown as it is, with the recent events as the log so far.
  begin(view) {
    this.shown = view;
    const versions = [...this.store.events.keys()].filter((v) => v <= view.version).sort((a, b) => a - b);
    for (const v of versions) {
      const events = this.store.events.get(v) || [];
      // What the table did before the page opened: the talk can put its remarks in the log.
      if (events.length && this.hooks.onPast) events.forEach((ev, at) => this.hooks.onPast(ev, v, this.parts, at));
      this.addLog(v, events);
    }
    this.store.forget(view.version);
  }

  nextView() {
    const shownRank = rankOf(this.shown);
    let best = null;
    for (const view of this.store.views.values()) {
      if (rankOf(view) > shownRank && (!best || view.version < best.version)) best = view;
    }
    return best;
  }

  async playTo(target) {
    for (let v = this.shown.version + 1; v <= target.version && !this.stopped; v += 1) {
      const events = this.store.events.get(v) || [];
      await this.playVersion(v, events, v === target.version ? target : null);
    }
    if (this.stopped) return;
    if (rankOf(target) > rankOf(this.shown)) this.show(target);
    this.store.forget(target.version);
    this.countPending();
    this.emit();
  }

  show(view, arriving = []) {
    this.shown = view;
    this.arriving = new Set(arriving);
    const hand = (view.observation && view.observation.hand) || [];
    if (this.drawn && !hand.includes(this.drawn)) this.drawn = null;
    this.countPending();
    this.emit();
  }

  // The log keeps events; they are put in words when shown, with the names known by then.
  addLog(version, events) {
    if (!events || !events.length) return;
    this.log.push({ version, events, part: this.parts });
    this.parts += 1;
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  /** The oldest part the log still keeps (0 until it has dropped any). */
  logSince() {
    return this.log.length ? this.log[0].part : 0;
  }

  logLines(who) {
    const me = this.shown ? this.shown.seat : 0;
    const out = [];
    for (const { version, events, part } of this.log) {
      describeEvents(events, who, me).forEach((line, i) => {
        out.push({ ...line, version, part, key: `${version}:${part}:${i}` });
      });
    }
    return out;
  }

  sleep(ms) {
    if (!ms || this.hurry || document.hidden) return Promise.resolve();
    return new Promise((resolve) => {
      let t = null;
      const done = () => {
        clearTimeout(t);
        this.wake = null;
        resolve();
      };
      t = setTimeout(done, ms);
      this.wake = () => (this.hurry || this.stopped) && done();
    });
  }

  async playVersion(version, events, view) {
    const me = this.shown.seat;
    const actor = (events.find(isMove) || {}).seat;
    const mine = actor === me;
    const end = events.findIndex((e) => ROUND_END.has(e.type));
    const moves = end < 0 ? events : events.filter((e, i) => i <= end || !AFTER_ROUND.has(e.type));
    const after = end < 0 ? [] : events.filter((e, i) => i > end && AFTER_ROUND.has(e.type));
    const pace = this.hurry || document.hidden ? 0 : paceMs();
    const flight = flightMs(pace);

    const plan = this.flights(moves, me);
    if (actor != null && !mine) {
      // An opponent's move takes the pace in all, its flights included. The same seat's
      // discard straight after its draw (Knock Rummy) needs less of a pause.
      const follows = this.lastActor === actor;
      await this.sleep(Math.max(0, (follows ? pace * 0.5 : pace) - plan.length * flight));
    }
    this.lastActor = actor;
    // The moves go into the log next, as part `this.parts`: a remark they draw follows them.
    // `at`: the event's index among `moves`, the events of the log part they make.
    moves.forEach((ev, at) => {
      if (this.hooks.onEvent) this.hooks.onEvent(ev, version, this.parts, at);
    });
    this.sounds(moves, me);

    if (mine && end < 0 && view) {
      // Your own move: shown at once, the cards flying into their new places.
      const from = plan.map((f) => ({ ...f, fromRect: placeRect(f.from) }));
      this.addLog(version, moves);
      if (plan.drawn) this.drawn = plan.drawn;
      this.show(view, plan.map((f) => f.to));
      await nextFrame();
      await Promise.all(from.map((f) => fly({ ...f, from: f.fromRect, to: placeRect(f.to), ms: flight })));
      this.arriving = new Set();
      this.emit();
    } else {
      this.addLog(version, moves);
      if (mine && plan.drawn) this.drawn = plan.drawn;
      this.emit();
      for (const f of plan) {
        const from = placeRect(f.from);
        if (f.from === "pile" && flight) {
          // The top card leaves the pile: the pile shows the card under it meanwhile.
          this.arriving = new Set(["pile"]);
          this.emit();
          await nextFrame();
        }
        await fly({ ...f, from, to: placeRect(f.to), ms: flight });
      }
      if (view && end < 0) this.show(view);
      else if (this.arriving.size) {
        this.arriving = new Set();
        this.emit();
      }
    }

    if (end >= 0) {
      const result = resultFromEvents(events);
      this.lastResult = result;
      this.frozen = true;
      this.showdown = result;
      this.emit();
      await new Promise((resolve) => {
        this.closeShowdown = resolve;
      });
      this.closeShowdown = null;
      this.showdown = null;
      this.frozen = false;
      this.lastActor = null;
      this.addLog(version, after);
      if (view) this.show(view);
      else this.emit();
      await this.dealFlights(after, flight);
    }
  }

  // Which cards fly for one move, as places (see motion.placeRect).
  flights(events, me) {
    /** @type {{from: string, to: string, card: any, back: any, large: boolean}[] & {drawn?: string}} */
    const plan = [];
    const back = settings().cardBack;
    const large = !!settings().largePrint;
    for (let i = 0; i < events.length; i += 1) {
      const ev = events[i];
      if (ev.seat == null) continue;
      const seatPlace = ev.seat === me ? null : `seat:${ev.seat}`;
      if (ev.type === "draw") {
        const next = events[i + 1];
        const own = next && (next.type === "stock_card" || next.type === "draw_card") ? next.card : null;
        const card = ev.card || own;
        if (ev.seat === me && card) plan.drawn = card;
        const from = ev.source === "stock" ? "stock" : "pile";
        const to = seatPlace || (card ? `card:${card}` : null);
        // A stock card flies face down to an opponent unless the table could see it.
        const face = ev.source === "stock" && ev.seat !== me ? ev.card || null : card;
        if (to) plan.push({ from, to, card: face, back, large });
      } else if (ev.type === "discard") {
        plan.push({ from: seatPlace || `card:${ev.card}`, to: "pile", card: ev.card, back, large });
      }
    }
    return plan;
  }

  async dealFlights(events, ms) {
    if (!ms || !events.some((e) => e.type === "deal")) return;
    const seats = ((this.shown.observation || {}).hand_sizes || []).length;
    const me = this.shown.seat;
    const back = settings().cardBack;
    const hand = (this.shown.observation || {}).hand || [];
    const trips = [];
    for (let s = 1; s <= seats; s += 1) {
      const seat = (me + s) % seats;
      const to = seat === me ? (hand[0] ? `card:${hand[Math.floor(hand.length / 2)]}` : null) : `seat:${seat}`;
      if (to) trips.push(sleepMs(s * 70).then(() => fly({ from: placeRect("stock"), to: placeRect(to), back, ms })));
    }
    await Promise.all(trips);
  }

  sounds(events, me) {
    for (const ev of events) {
      if (ev.type === "draw") playSound("draw");
      else if (ev.type === "discard") playSound("discard");
      else if (ev.type === "knock" || ev.type === "rummy") playSound("knock");
      else if (ev.type === "round_result") {
        const pot = (ev.pot || [])[me] || 0;
        if (pot > 0) playSound("win");
        else if (pot < 0) playSound("lose");
      } else if (ev.type === "hand_result" && ev.outcome !== "void") {
        if ((ev.winners || []).includes(me)) playSound("win");
        else if (((ev.scores || [])[me] || 0) < 0) playSound("lose");
      }
    }
  }

  close() {
    if (this.closeShowdown) this.closeShowdown();
  }
}

function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}

function sleepMs(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
