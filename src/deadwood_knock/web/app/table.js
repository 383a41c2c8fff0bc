// @ts-check
// The table: one match, driven only by the server's views. The client never applies a rule:
// every control comes from `legal_actions`, and a click posts one of them verbatim. The views
// come from one live store (matchstore.js) and reach the screen through the playback
// (playback.js), which shows them in order at a pace a person can follow.
import { html, useState, useEffect, useRef, navigate } from "./lib.js";
import { getHint, api, ApiError } from "./api.js";
import { sameCard, parseCard } from "./cards.js";
import { settings, recordResult, update } from "./store.js";
import { lineFor, talkKind, roundRemark, speaks } from "./talk.js";
import { LeaveDialog } from "./dialogs.js";
import { Portrait, useLikenesses } from "./portraits.js";
import { MatchStore, rankOf } from "./matchstore.js";
import { Playback, PACES } from "./playback.js";
import { TableLog, withTalk } from "./tablelog.js";
import { ShowdownDialog, MatchComplete, outcomeFor, categoryWords, num } from "./showdown.js";
import { HandFocus, MeldPanel, Scores, focusLines, scoresShown } from "./focus.js";
import { unlockSound } from "./sound.js";
import { gameTitle, pokerSplit, unitWord } from "./games.js";
import { Opponents, characterFor, seatName } from "./seats.js";
import { Piles } from "./piles.js";
import { Hand } from "./hand.js";
import { Controls, KnockConfirm, legalControls, turnLine } from "./controls.js";

export { categoryWords };

const TALK_MS = 4500;

// The server's view wraps the seat's observation with match facts (seat, players, to_act,
// legal_actions, status, result); merge them so the screen reads one object. Behind a
// showdown the table is frozen: nobody is to act and nothing can be pressed. A stale view
// (a newer one is waiting to be shown) keeps who is to act but offers no action.
export function normaliseView(view, { frozen = false, stale = false } = {}) {
  const inner = (view && view.observation) || {};
  const obs = {
    ...inner,
    game: view.game || inner.game,
    seat: view.seat ?? inner.seat ?? 0,
    to_act: frozen ? null : view.to_act !== undefined ? view.to_act : inner.to_act,
    totals: inner.totals || view.scores || [],
    round: inner.round ?? view.round,
    rounds: inner.rounds ?? view.rounds,
    final_turn: inner.final_turn ?? view.final_turn,
  };
  const players = Array.isArray(view.players) ? view.players : [];
  const legal = frozen || stale ? [] : view.legal_actions || [];
  const over = view.status === "finished";
  return { obs, players, legal, over, result: view.result || null, raw: view };
}

// A poker-split game (Deadwood Knock) or a meld game (Knock Rummy, Gin): the engine's facts.
function isDK(obs) {
  return pokerSplit(obs.game, obs);
}

function matchingReveal(legal, chosen) {
  const want = [...chosen].map((c) => parseCard(c).text).sort().join(" ");
  return legal.find(
    (a) =>
      a.type === "reveal" &&
      (a.poker_hand || []).map((c) => parseCard(c).text).sort().join(" ") === want,
  );
}

// The store and its playback live as long as the table is on screen.
function useTable(matchId, hooks) {
  const [, setTick] = useState(0);
  const ref = useRef(null);
  if (!ref.current) {
    const store = new MatchStore(matchId);
    const playback = new Playback(store, {
      onChange: () => setTick((t) => t + 1),
      onEvent: (ev, version, part, at) => hooks.current.onEvent && hooks.current.onEvent(ev, version, part, at),
      onPast: (ev, version, part, at) => hooks.current.onPast && hooks.current.onPast(ev, version, part, at),
    });
    ref.current = { store, playback };
  }
  useEffect(() => {
    const { store, playback } = ref.current;
    store.start();
    playback.kick();
    return () => {
      playback.stop();
      store.stop();
    };
  }, []);
  return ref.current;
}

// Focus never falls to <body> at the table: when the focused control goes away or is disabled
// (a drawn card, a pressed pile, a closed dialog), it moves to the selected or first playable
// card, else to the round heading.
function useKeptFocus() {
  useEffect(() => {
    let timer = null;
    let letGo = false; // the player clicked on nothing focusable: leave focus where it went
    const rescue = () => {
      timer = null;
      if (letGo) return;
      const active = document.activeElement;
      const off = active instanceof HTMLButtonElement && active.disabled;
      if (active && active !== document.body && document.contains(active) && !off) return;
      if (document.querySelector(".modal")) return; // a dialog places its own focus
      /** @type {HTMLElement | null} */
      const target = document.querySelector(".hand button.card[tabindex='0']:not([disabled])")
        || document.querySelector(".hand button.card:not([disabled])")
        || document.querySelector(".table-head h1");
      if (!target) return;
      if (target.tagName === "H1") target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: true });
    };
    const later = () => {
      if (timer === null) timer = setTimeout(rescue, 30);
    };
    const onOut = (e) => {
      if (!e.relatedTarget) later();
    };
    // A focused button that becomes disabled loses focus without any event in some browsers.
    const watch = new MutationObserver(() => {
      const a = document.activeElement;
      if (!a || a === document.body || (a instanceof HTMLButtonElement && a.disabled)) later();
    });
    const onIn = () => {
      letGo = false;
    };
    const onDown = (e) => {
      letGo = !(e.target.closest && e.target.closest("button, a, input, select, textarea, [tabindex]"));
    };
    const root = document.getElementById("main") || document.body;
    root.addEventListener("focusout", onOut);
    document.addEventListener("focusin", onIn);
    document.addEventListener("pointerdown", onDown, true);
    watch.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled"] });
    return () => {
      root.removeEventListener("focusout", onOut);
      document.removeEventListener("focusin", onIn);
      document.removeEventListener("pointerdown", onDown, true);
      watch.disconnect();
      if (timer !== null) clearTimeout(timer);
    };
  }, []);
}

/**
 * Opponents' remarks in character: each trail character's own lines (fetched once per
 * table, with a greeting), and a line for each move as the playback shows it. Remarks fade
 * after a few seconds so the felt stays clear. The moves the table had made before this page
 * opened (the log's first lines, after a reload or a break) draw the same remarks again, into
 * the log only, once the characters' lines are in. Returns the remarks and
 * `characterOf(seat)`, the seat's character as its lines are known so far.
 * @param {{v: any, me: number, players: any[], characters: any[] | null,
 *   hooks: {current: {onEvent?: (ev: any, version: number, part: number, at: number) => void,
 *     onPast?: (ev: any, version: number, part: number, at: number) => void}}}} args
 */
function useTableTalk({ v, me, players, characters, hooks }) {
  const [talk, setTalk] = useState(/** @type {Record<string, {text: string, at: number}>} */ ({}));
  // Every remark made while the table is open, for the table log: the bubble fades, the log
  // keeps what was said (the same words), after the move that drew it.
  const [said, setSaid] = useState(/** @type {{part: number, at?: number, seat: number, text: string}[]} */ ([]));
  const [details, setDetails] = useState({});
  const characterOf = (seat) => characterFor(players[seat], characters, details);
  const remember = (part, at, seat, text) => setSaid((all) => [...all, { part, at, seat, text }]);
  // The remark an event draws (a round's end: the round's one remark), or null. The line is
  // picked by the event's version, a fact of the event: the same remark whether the event is
  // played live or read again after a reload, and not the same line for every move of a
  // seat in a round.
  const remarkFor = (ev, version, of) => {
    if (ev.type === "round_result" || ev.type === "hand_result") return roundRemark(ev, me, players, of);
    if (ev.seat == null || ev.seat === me) return null;
    const kind = talkKind(ev);
    if (!kind || !speaks(kind, ev.seat, version)) return null;
    const text = kind === "say" ? ev.text || ev.line : lineFor(kind, ev.seat, version, of(ev.seat));
    return text ? { seat: ev.seat, text } : null;
  };
  hooks.current.onEvent = (ev, version, part, at) => {
    const remark = remarkFor(ev, version, characterOf);
    if (ev.type === "round_result" || ev.type === "hand_result") {
      // The round is scored: one seat has its say (the showdown shows the same line), and
      // what was said during the round is done with.
      setTalk(remark ? { [remark.seat]: { text: remark.text, at: Date.now() } } : {});
    } else if (remark) {
      setTalk((t) => ({ ...t, [remark.seat]: { text: remark.text, at: Date.now() } }));
    }
    if (remark) remember(part, at, remark.seat, remark.text);
  };
  // Moves made before the page opened wait for the characters' lines (a remark in a
  // character's words, not a stock line), then go into the log in order.
  const past = useRef(/** @type {{ev: any, version: number, part: number, at: number}[] | null} */ ([]));
  const loaded = useRef(/** @type {Record<string, any>} */ ({}));
  const pastOf = (seat) => characterFor(players[seat], characters, loaded.current);
  hooks.current.onPast = (ev, version, part, at) => {
    if (past.current) {
      past.current.push({ ev, version, part, at });
      return;
    }
    const remark = remarkFor(ev, version, pastOf);
    if (remark) setSaid((all) => [...all, { part, at, ...remark }].sort((a, b) => a.part - b.part || (a.at ?? 0) - (b.at ?? 0)));
  };

  const playersKey = players.map((p) => p.bot || p.name).join("|");
  useEffect(() => {
    if (!v) return undefined;
    let cancelled = false;
    const wanted = players.filter((p) => p.bot && p.bot.startsWith("figure:"));
    Promise.all(
      wanted.map((p) =>
        api
          .get(`/api/characters/${encodeURIComponent(p.bot.slice("figure:".length))}`)
          .then((d) => [p.seat, d])
          .catch(() => null),
      ),
    ).then((pairs) => {
      if (cancelled) return;
      const got = Object.fromEntries(pairs.filter(Boolean));
      setDetails(got);
      loaded.current = got;
      const before = (past.current || []).flatMap(({ ev, version, part, at }) => {
        const remark = remarkFor(ev, version, pastOf);
        return remark ? [{ part, at, ...remark }] : [];
      });
      past.current = null;
      /** @type {Record<string, {text: string, at: number}>} */
      const hello = {};
      for (const [seat, d] of Object.entries(got)) {
        const line = lineFor("greet", Number(seat), 0, d);
        if (line) hello[seat] = { text: line, at: Date.now() };
      }
      if (!v.over) {
        setTalk((t) => ({ ...hello, ...t }));
        // Greetings head the log (part −1: before anything this table shows).
        const greeted = Object.entries(hello).map(([seat, h]) => ({ part: -1, seat: Number(seat), text: h.text }));
        setSaid((all) => [...greeted, ...before, ...all]);
      } else if (before.length) {
        setSaid((all) => [...before, ...all]);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [playersKey]);

  useEffect(() => {
    const live = Object.values(talk);
    if (!live.length) return undefined;
    const t = setTimeout(() => {
      const now = Date.now();
      setTalk((cur) => Object.fromEntries(Object.entries(cur).filter(([, x]) => now - x.at < TALK_MS)));
    }, TALK_MS);
    return () => clearTimeout(t);
  }, [talk]);
  return { talk, said, characterOf };
}

/**
 * Hand Focus: ask the server's strong bot once per position, on the player's turn only. The
 * effect runs after the view has painted, so play never waits for it; an answer that arrives
 * after the position moved on is dropped.
 * @param {string} matchId
 * @param {number} version
 * @param {boolean} myTurn
 * @param {boolean} paused no new request (the leave dialog is open: a hint asked for now
 *   could reach the server after a forfeit, which refuses hints for a finished match)
 */
function useHint(matchId, version, myTurn, paused) {
  const [hint, setHint] = useState(/** @type {any} */ (null));
  const hintFor = useRef("");
  useEffect(() => {
    if (!myTurn) {
      hintFor.current = ""; // the turn has passed: an answer still on its way is stale
      return;
    }
    if (paused) return;
    const key = `${matchId}:${version}`;
    if (hintFor.current === key) return;
    hintFor.current = key;
    getHint(matchId)
      .then((h) => {
        if (hintFor.current === key && h && h.hint && h.version === version) setHint(h);
      })
      .catch(() => {}); // no hint (offline, or the search failed): the panel says less
  }, [version, myTurn, paused]);
  return hint && myTurn && hint.version === version ? hint.hint : null;
}

/**
 * A gunfight's aim, for its heading ("Gunfight · outscore Sam Bass and reach 40"): the
 * server's words for the poster's terms (`aim` of the match's `where`: `trail.gunfight_aim`,
 * the terms `gunfight_won` checks), asked once for a trail match. `null` for a table.
 * @param {string} matchId
 * @param {boolean} onTrail the match was started from a trail table or poster
 * @returns {string | null}
 */
function useGunfightAim(matchId, onTrail) {
  const [aim, setAim] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    if (!onTrail) return undefined;
    let cancelled = false;
    api
      .get(`/api/matches/${encodeURIComponent(matchId)}/where`)
      .then((w) => {
        if (!cancelled && w && typeof w.aim === "string" && w.aim) setAim(w.aim);
      })
      .catch(() => {}); // offline: the heading names the game instead
    return () => {
      cancelled = true;
    };
  }, [matchId, onTrail]);
  return aim;
}

/**
 * A heading's words in parts that wrap whole, "reach 40" never parted: the aim's words one
 * part each (a long outlaw's name wraps between its words), its last two together.
 * @param {string} aim
 * @returns {string[]}
 */
export function aimParts(aim) {
  const words = aim.split(" ").filter(Boolean);
  if (words.length <= 2) return [words.join(" ")];
  return [...words.slice(0, -2), words.slice(-2).join(" ")];
}

/**
 * The match's result goes into the local records once (a win also marks its trail table).
 * @returns {{current: boolean}} whether it has been recorded (a forfeit records its own)
 */
function useRecordedResult(matchId, v, obs, view, version) {
  const recorded = useRef(false);
  useEffect(() => {
    if (!v || !v.over || recorded.current) return;
    recorded.current = true;
    const outcome = outcomeFor(obs, v.result);
    recordResult("trail", outcome, matchId);
    if (outcome === "win") {
      const done = new Set(settings().progress.completed || []);
      if (view.table_id) done.add(view.table_id);
      update({ progress: { completed: [...done] } });
    }
  }, [version, v && v.over]);
  return recorded;
}

/**
 * The table's head: Leave, the round line (the screen's h1), Table settings, your total.
 */
function TableHead({ roundText, subtitle, me, totals, sheet, onLeave, onSettings }) {
  const s = settings();
  const likenesses = useLikenesses();
  return html`<header class="table-head">
      <button class="btn small ghost" onClick=${onLeave} aria-label="Leave table">← Leave</button>
      <h1 class="round"><strong>${roundText}</strong><span class="game-name">${subtitle.map((part, i) =>
        html`${i ? " " : ""}<span class="part">${part}</span>`)}</span></h1>
      <button class="btn small ghost icon" aria-label="Table settings" aria-expanded=${sheet === "settings" ? "true" : "false"}
        aria-controls="sheet-settings" onClick=${onSettings}>⚙</button>
      <div class="my-total">
        <${Portrait} name=${s.name || "You"} size=${32}
          character=${likenesses.find((l) => l.id === s.likeness) || null} />
        <span aria-label="Your total">${num((totals || [])[me] ?? 0)}<small> pts</small></span>
      </div>
    </header>`;
}

/**
 * The middle of the felt: the piles, what to do now, Skip ahead, and any notice.
 */
function PileArea({ obs, busy, live, onSource, line, playback, myTurn, notice }) {
  const s = settings();
  return html`<div class="center">
      <${Piles} obs=${obs} back=${s.cardBack} large=${s.largePrint} busy=${busy}
        sourceLive=${live.sourceLive} palmLive=${live.palmLive} onSource=${onSource}
        arriving=${playback.arriving} />
      <p class="turn-line" aria-live="polite">${line}</p>
      ${playback.pending > 2 && !myTurn && !playback.showdown
        ? html`<button class="btn small ghost skip" onClick=${() => playback.skip()}>Skip ahead ▸▸</button>`
        : null}
      ${notice ? html`<p class="notice" role="alert">${notice}</p>` : null}
    </div>`;
}

/**
 * Your hand and the buttons of your turn. Picking a card selects the discard (or, at a
 * showdown, adds it to or takes it from the poker hand you lay out).
 */
function MyArea({ obs, dk, busy, live, selected, pickSet, chosenReveal, drawn, arriving, who,
  onSelect, onPickReveal, onAct, onKnock }) {
  const s = settings();
  const reveals = live.reveals;
  return html`<div class="my-area">
      <h2 class="sr-only">Your Hand</h2>
      <${Hand} hand=${obs.hand || []} obs=${obs} dk=${dk} large=${s.largePrint} busy=${busy} reveals=${reveals}
        pickSet=${pickSet} selected=${selected} drawn=${drawn} arriving=${arriving}
        canSelect=${live.canSelect}
        onPick=${(card, isLive, inPick) => {
          if (reveals.length) onPickReveal(card, inPick);
          else if (isLive) onSelect(card);
        }} />
      <${Controls} dk=${dk} obs=${obs} busy=${busy} selected=${selected} knockAction=${live.knockAction}
        discardAction=${live.discardAction} rummyAction=${live.rummyAction} stand=${live.stand} call=${live.call}
        fold=${live.fold} reveals=${reveals} chosenReveal=${chosenReveal} palmLive=${live.palmLive}
        who=${who} onAct=${onAct} onKnock=${onKnock} />
    </div>`;
}

/**
 * Hand Focus (or Your Count), Scores and the log: beside the felt on a desktop, sheets
 * opened from the bar on a phone.
 */
function SidePanels({ dk, obs, scored, me, who, advice, canKnock, sheet, onClose, lastResult, onReview,
  logLines, logOpen, onToggleLog }) {
  return html`<div class="side">
      ${dk
        ? html`<${HandFocus} obs=${obs} canKnock=${canKnock} advice=${advice}
            open=${sheet === "focus"} onClose=${onClose} />`
        : html`<${MeldPanel} obs=${obs} advice=${advice} open=${sheet === "focus"} onClose=${onClose} />`}
      <${Scores} obs=${scored} who=${who} me=${me} open=${sheet === "scores"} onClose=${onClose}
        reviewLabel=${lastResult ? (dk ? "Last round's showdown" : "Last hand") : null}
        onReview=${onReview} />
      <${TableLog} entries=${logLines} open=${logOpen} onToggle=${onToggleLog} />
    </div>`;
}

/** The phone's bar: Hand Focus (or Your Count) and Scores, each a line at a glance. */
function TableBar({ dk, obs, scored, me, advice, sheet, onToggle }) {
  return html`<nav class="table-bar" aria-label="Table panels">
      <button class="bar-btn focus-btn" aria-expanded=${sheet === "focus" ? "true" : "false"}
        aria-controls="sheet-focus" onClick=${() => onToggle("focus")}>
        <span class="bar-label">${dk ? "Hand Focus" : "Your Count"}${advice ? html` <b class="dot" aria-label="hint ready">•</b>` : null}</span>
        ${focusLines(obs, dk).map((line) => html`<span class="bar-sub">${line}</span>`)}
      </button>
      <button class="bar-btn" aria-expanded=${sheet === "scores" ? "true" : "false"}
        aria-controls="sheet-scores" onClick=${() => onToggle("scores")}>
        <span class="bar-label">Scores</span>
        <span class="bar-sub">${(scored.totals || []).map((t, i) => (i === me ? `You ${num(t)}` : num(t))).join(" · ")}</span>
      </button>
    </nav>`;
}

export function TableScreen({ matchId, characters }) {
  /** @type {{current: {onEvent?: (ev: any, version: number, part: number, at: number) => void}}} */
  const hooks = useRef({});
  const { store, playback } = useTable(matchId, hooks);
  const [selected, setSelected] = useState(null);
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [revealPick, setRevealPick] = useState(/** @type {Set<string> | null} */ (null));
  const [doneDismissed, setDoneDismissed] = useState(false);
  const [sheet, setSheet] = useState(null); // "focus" | "scores" | "settings" on a phone
  const [logOpen, setLogOpen] = useState(false);
  const [knockAsk, setKnockAsk] = useState(null);
  const [review, setReview] = useState(false);
  useKeptFocus();
  // A phone's sheet closes on Escape, as a dialog does, and hands focus back to the button
  // that opened it; with no sheet open, the opened log strip (it covers the hand) folds the
  // same way. An open dialog keeps Escape for itself (asked of the page, so a dialog drawn a
  // moment ago counts before its own key handler is in place). One listener for the table's
  // life reads what is open now: one re-attached after each render could miss an Escape
  // pressed between a sheet opening and that effect running.
  const open = useRef({ sheet, logOpen });
  open.current = { sheet, logOpen };
  useEffect(() => {
    const onKey = (e) => {
      const now = open.current;
      if (e.key !== "Escape" || (!now.sheet && !now.logOpen) || document.querySelector('[role="dialog"]')) return;
      if (now.sheet) setSheet(null);
      else setLogOpen(false);
      const opener = document.querySelector(`[aria-controls="${now.sheet ? `sheet-${now.sheet}` : "table-log-list"}"]`);
      if (opener instanceof HTMLElement) opener.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const view = playback.shown;
  // Controls are live only on the newest view: once a newer one is in (your move's answer,
  // an opponent's move still being played back) the shown position has moved on.
  const current = !!view && rankOf(view) === rankOf(store.latest);
  const v = view ? normaliseView(view, { frozen: playback.frozen, stale: !current }) : null;
  const obs = v ? v.obs : {};
  const me = obs.seat ?? 0;
  const players = v ? v.players : [];
  const { talk, said, characterOf } = useTableTalk({ v, me, players, characters, hooks });
  const names = (seat) => seatName(players[seat], seat, characterOf(seat));
  /** @type {import("./tablelog.js").Who} */
  const who = (seat, inside = false) => (seat === me ? (inside ? "you" : "You") : names(seat));
  // A round's result with the one remark it drew (see talk.js roundRemark), for its dialogs.
  const remarkOn = (result) => {
    const said = result ? roundRemark(result, me, players, characterOf) : null;
    return said ? { who: names(said.seat), text: said.text } : null;
  };

  const myTurn = !!v && !v.over && obs.to_act === me && v.legal.length > 0;
  const version = view ? view.version : -1;
  const advice = useHint(matchId, version, myTurn, leaving);
  const recorded = useRecordedResult(matchId, v, obs, view, version);
  const aim = useGunfightAim(matchId, !!(view && view.table_id));

  // A selection that left the hand (played, or a new round) is dropped.
  useEffect(() => {
    if (selected && !(obs.hand || []).some((c) => sameCard(c, selected))) setSelected(null);
  }, [version]);

  if (store.error && !view) {
    return html`<section class="screen"><h1>Table</h1>
      <p role="alert" class="error">${store.error.message}</p>
      <button class="btn" onClick=${() => navigate("/trail")}>Back to town</button></section>`;
  }
  if (!v) return html`<section class="screen"><p class="loading">Shuffling up…</p></section>`;

  const dk = isDK(obs);
  const live = legalControls(v.legal, dk, selected);
  const scored = scoresShown(obs, playback.showdown);

  async function act(action) {
    if (busy || !action) return;
    setBusy(true);
    setNotice("");
    setKnockAsk(null);
    playback.acted();
    try {
      await store.act(action);
      setSelected(null);
      setRevealPick(null);
    } catch (err) {
      setNotice(err instanceof ApiError ? err.message : "That move didn't go through.");
      store.fetchOnce();
    } finally {
      setBusy(false);
    }
  }

  function clickSource(source) {
    const a = live.findDraw(source);
    if (a) return act(a);
    if (dk && live.sourceLive(source) && !selected) setNotice("First pick the card you'll throw away.");
    return undefined;
  }

  // A knock the engine's figures (or the hint) say is costly asks once, unless turned off.
  function knock(action) {
    const ev = obs.evaluation;
    // With no knock limit a Knock Rummy knock may lay down any count; until the hint has
    // weighed it there is no checked fact that it is sound, so it asks.
    const unweighed = !dk && !advice && obs.options && obs.options.knock_limit == null;
    const risky =
      (dk && ev && ev.score < 0) || (advice && advice.knock && advice.knock.wise === false) || unweighed;
    if (risky && settings().knockWarning !== false) setKnockAsk(action);
    else act(action);
  }

  async function forfeit() {
    try {
      const answer = await api.post(`/api/matches/${encodeURIComponent(matchId)}/forfeit`, {});
      store.offer(answer); // the finished view: the result shows here, at the table
    } catch (err) {
      setNotice(err.message || "The forfeit didn't reach the server.");
    }
    if (!recorded.current) {
      recorded.current = true;
      recordResult("trail", "loss", matchId);
    }
    setLeaving(false);
  }

  const seats = players.length || (obs.hand_sizes || []).length;
  const others = [];
  for (let i = 1; i < seats; i += 1) others.push((me + i) % seats);

  // Everyone sees the banner while the final turns after a knock are being played.
  const finalTurn = !playback.frozen && !v.over && (obs.phase === "final" || !!obs.final_turn);
  const title = gameTitle(obs.game) || "Table";
  const roundText = `${unitWord(obs.game)} ${obs.round ?? 1}${obs.rounds ? ` of ${obs.rounds}` : ""}`;
  // In parts that wrap whole on a narrow head ("Knock Rummy ·" over "to 100"), never "to" over "100".
  const subtitle = aim != null
    ? ["Gunfight ·", ...aimParts(aim)]
    : !dk && obs.target ? [`${title} ·`, `to ${obs.target}`] : [title];

  const reveals = live.reveals;
  const pickSet = revealPick || new Set((reveals[0] && reveals[0].poker_hand) || []);
  const chosenReveal = reveals.length ? matchingReveal(reveals, pickSet) : null;
  const complete = v.over && !doneDismissed && !playback.showdown;
  const lastResult = playback.lastResult || obs.last_result || null;
  const closeSheet = () => setSheet(null);
  const toggleSheet = (name) => setSheet((cur) => (cur === name ? null : name));
  const s = settings();

  return html`
  <section class=${`screen table-screen ${dk ? "dk" : "kr"}${playback.frozen ? " frozen" : ""}`}
    aria-label=${`${title} table`} data-version=${version}>
    <${TableHead} roundText=${roundText} subtitle=${subtitle} me=${me} totals=${scored.totals} sheet=${sheet}
      onLeave=${() => setLeaving(true)} onSettings=${() => toggleSheet("settings")} />

    <div class="felt">
      <${Opponents} others=${others} obs=${obs} totals=${scored.totals} names=${names} characterOf=${characterOf}
        over=${v.over} back=${s.cardBack} talk=${talk} />

      ${finalTurn ? html`<div class="banner final" role="status">FINAL TURN</div>` : null}

      <${PileArea} obs=${obs} busy=${busy} live=${live} onSource=${clickSource} playback=${playback}
        myTurn=${myTurn} notice=${notice} line=${turnLine(v, obs, me, dk, selected, names, playback)} />

      <${MyArea} obs=${obs} dk=${dk} busy=${busy} live=${live} selected=${selected} pickSet=${pickSet}
        chosenReveal=${chosenReveal} drawn=${playback.drawn} arriving=${playback.arriving} who=${who}
        onSelect=${(card) => {
          setSelected(selected && sameCard(card, selected) ? null : card);
          setNotice("");
        }}
        onPickReveal=${(card, inPick) => {
          const next = new Set([...pickSet].filter((c) => !sameCard(c, card)));
          if (!inPick) next.add(card);
          setRevealPick(next);
        }}
        onAct=${act} onKnock=${knock} />
    </div>

    <${SidePanels} dk=${dk} obs=${obs} scored=${scored} me=${me} who=${who} advice=${advice} canKnock=${!!live.knockAction}
      sheet=${sheet} onClose=${closeSheet} lastResult=${lastResult} onReview=${() => setReview(true)}
      logLines=${withTalk(playback.logLines(who), said, names, playback.logSince())} logOpen=${logOpen} onToggleLog=${() => setLogOpen((o) => !o)} />

    <${TableBar} dk=${dk} obs=${obs} scored=${scored} me=${me} advice=${advice} sheet=${sheet} onToggle=${toggleSheet} />

    ${sheet === "settings" ? html`<${TableSettings} onClose=${closeSheet} />` : null}

    ${playback.showdown
      ? html`<${ShowdownDialog} result=${playback.showdown} who=${who} remark=${remarkOn(playback.showdown)}
          onClose=${() => playback.close()} />`
      : null}

    ${review && lastResult && !playback.showdown
      ? html`<${ShowdownDialog} result=${lastResult} who=${who} remark=${remarkOn(lastResult)}
          onClose=${() => setReview(false)} closeLabel="Close" />`
      : null}

    ${knockAsk
      ? html`<${KnockConfirm} dk=${dk} obs=${obs} action=${knockAsk} advice=${advice}
          onKnock=${() => act(knockAsk)} onKeep=${() => setKnockAsk(null)} />`
      : null}

    ${complete
      ? html`<${MatchComplete} obs=${obs} result=${v.result} who=${who}
          matchId=${matchId} trail=${!!view.table_id} lastResult=${playback.lastResult} remarkOn=${remarkOn}
          onClose=${() => { setDoneDismissed(true); navigate("/trail"); }} />`
      : null}

    ${leaving
      ? html`<${LeaveDialog} onBreak=${() => navigate("/trail")} onStay=${() => setLeaving(false)}
          onForfeit=${forfeit} />`
      : null}
  </section>`;
}

function TableSettings({ onClose }) {
  const s = settings();
  const pace = s.pace || "normal";
  return html`<aside class="panel settings-sheet sheet open" id="sheet-settings" aria-label="Table settings">
    <div class="sheet-head">
      <h2>Table settings</h2>
      <button class="btn small ghost sheet-close" onClick=${onClose} aria-label="Close Table settings">✕</button>
    </div>
    <fieldset class="pace">
      <legend>Opponents' pace</legend>
      ${PACES.map((p) => html`<label key=${p.id} class="radio"><input type="radio" name="pace" value=${p.id}
        checked=${pace === p.id} onChange=${() => update({ pace: p.id })} /> ${p.label}</label>`)}
    </fieldset>
    <label class="toggle"><input type="checkbox" checked=${!!s.sound}
      onChange=${(e) => {
        if (e.target.checked) unlockSound();
        update({ sound: e.target.checked });
      }} /> Sound effects</label>
    <label class="toggle"><input type="checkbox" checked=${s.knockWarning !== false}
      onChange=${(e) => update({ knockWarning: e.target.checked })} /> Ask before a costly knock</label>
  </aside>`;
}
