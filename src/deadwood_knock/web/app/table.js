// @ts-check
// The table: one match, driven only by the server's views. The client never applies a rule:
// every control comes from `legal_actions`, and a click posts one of them verbatim. The views
// come from one live store (matchstore.js) and reach the screen through the playback
// (playback.js), which shows them in order at a pace a person can follow.
import { html, useState, useEffect, useRef, navigate } from "./lib.js";
import { getHint, api, ApiError } from "./api.js";
import { CardFace, CardBack, pretty, sameCard, sortHand, parseCard } from "./cards.js";
import { settings, recordResult, update } from "./store.js";
import { lineFor, talkKind } from "./talk.js";
import { Modal, LeaveDialog } from "./dialogs.js";
import { Portrait, useLikenesses } from "./portraits.js";
import { MatchStore, rankOf } from "./matchstore.js";
import { Playback, PACES } from "./playback.js";
import { TableLog } from "./tablelog.js";
import { ShowdownDialog, MatchComplete, outcomeFor, categoryWords, deadwoodTerm, num, signed } from "./showdown.js";
import { HandFocus, MeldPanel, Scores, focusSummary } from "./focus.js";
import { unlockSound } from "./sound.js";
import { categoryPhrase, gameTitle, pokerSplit, unitWord } from "./games.js";

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

function playerName(p, i) {
  if (p == null) return `Seat ${i + 1}`;
  const raw = p.display_name || p.name || p.bot || `Seat ${i + 1}`;
  // Bot ids ("high_roller") read better as names ("High Roller").
  if (p.kind === "bot" && raw === p.bot) {
    return raw.replace(/[-_]+/g, " ").replace(/\b\w/g, (m) => m.toUpperCase());
  }
  return raw;
}

// A seat's character: trail bots are named "figure:<id>"; details (with table talk) win over
// the catalogue entry.
function characterFor(p, characters, details) {
  if (!p || typeof p !== "object") return null;
  if (details && details[p.seat]) return details[p.seat];
  if (!characters) return null;
  return characters.find((c) => (p.bot && c.bot === p.bot) || c.id === p.character) || null;
}

function seatName(p, i, ch) {
  return ch && ch.name ? ch.name : playerName(p, i);
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
      onEvent: (ev, version) => hooks.current.onEvent && hooks.current.onEvent(ev, version),
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

export function TableScreen({ matchId, characters }) {
  /** @type {{current: {onEvent?: (ev: any, version: number) => void}}} */
  const hooks = useRef({});
  const { store, playback } = useTable(matchId, hooks);
  const [selected, setSelected] = useState(null);
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  const [talk, setTalk] = useState({});
  const [leaving, setLeaving] = useState(false);
  const [revealPick, setRevealPick] = useState(null);
  const [doneDismissed, setDoneDismissed] = useState(false);
  const [details, setDetails] = useState({});
  const [hint, setHint] = useState(null);
  const [sheet, setSheet] = useState(null); // "focus" | "scores" | "settings" on a phone
  const [logOpen, setLogOpen] = useState(false);
  const [knockAsk, setKnockAsk] = useState(null);
  const [review, setReview] = useState(false);
  const hintFor = useRef("");
  const likenesses = useLikenesses();
  const recorded = useRef(false);
  const s = settings();
  useKeptFocus();

  const view = playback.shown;
  // Controls are live only on the newest view: once a newer one is in (your move's answer,
  // an opponent's move still being played back) the shown position has moved on.
  const current = !!view && rankOf(view) === rankOf(store.latest);
  const v = view ? normaliseView(view, { frozen: playback.frozen, stale: !current }) : null;
  const obs = v ? v.obs : {};
  const me = obs.seat ?? 0;
  const players = v ? v.players : [];
  const names = (seat) => seatName(players[seat], seat, characterFor(players[seat], characters, details));
  const who = (seat) => (seat === me ? "You" : names(seat));
  // Opponents' remarks in character, from the events as they are played back.
  hooks.current.onEvent = (ev) => {
    if (ev.seat == null || ev.seat === me) return;
    const kind = talkKind(ev);
    if (!kind) return;
    const ch = characterFor(players[ev.seat], characters, details);
    const text = kind === "say" ? ev.text || ev.line : lineFor(kind, ev.seat, obs.round || 0, ch);
    if (text) setTalk((t) => ({ ...t, [ev.seat]: { text, at: Date.now() } }));
  };

  const playersKey = players.map((p) => p.bot || p.name).join("|");
  // Each trail character's own table talk; they greet the table when we sit down.
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
      const hello = {};
      for (const [seat, d] of Object.entries(got)) {
        const line = lineFor("greet", Number(seat), 0, d);
        if (line) hello[seat] = { text: line, at: Date.now() };
      }
      if (!v.over) setTalk((t) => ({ ...hello, ...t }));
    });
    return () => {
      cancelled = true;
    };
  }, [playersKey]);

  // Remarks fade after a few seconds so the felt stays clear.
  useEffect(() => {
    const live = Object.values(talk);
    if (!live.length) return undefined;
    const t = setTimeout(() => {
      const now = Date.now();
      setTalk((cur) => Object.fromEntries(Object.entries(cur).filter(([, x]) => now - x.at < TALK_MS)));
    }, TALK_MS);
    return () => clearTimeout(t);
  }, [talk]);

  const myTurn = !!v && !v.over && obs.to_act === me && v.legal.length > 0;
  const version = view ? view.version : -1;

  // Hand Focus: ask the server's strong bot once per position, on the player's turn only. The
  // effect runs after the view has painted, so play never waits for it; an answer that arrives
  // after the position moved on is dropped.
  useEffect(() => {
    if (!myTurn) {
      hintFor.current = ""; // the turn has passed: an answer still on its way is stale
      return;
    }
    const key = `${matchId}:${version}`;
    if (hintFor.current === key) return;
    hintFor.current = key;
    getHint(matchId)
      .then((h) => {
        if (hintFor.current === key && h && h.hint && h.version === version) setHint(h);
      })
      .catch(() => {}); // no hint (offline, or the search failed): the panel says less
  }, [version, myTurn]);
  const advice = hint && myTurn && hint.version === version ? hint.hint : null;

  // A selection that left the hand (played, or a new round) is dropped.
  useEffect(() => {
    if (selected && !(obs.hand || []).some((c) => sameCard(c, selected))) setSelected(null);
  }, [version]);

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

  if (store.error && !view) {
    return html`<section class="screen"><h1>Table</h1>
      <p role="alert" class="error">${store.error.message}</p>
      <button class="btn" onClick=${() => navigate("/trail")}>Back to town</button></section>`;
  }
  if (!v) return html`<section class="screen"><p class="loading">Shuffling up…</p></section>`;

  const legal = v.legal;
  const dk = isDK(obs);
  const hand = obs.hand || [];

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

  // --- which controls are live, from legal_actions only ---
  const draws = legal.filter((a) => a.type === "draw");
  const findDraw = (source) =>
    dk
      ? draws.find((a) => a.source === source && selected && sameCard(a.select, selected))
      : draws.find((a) => a.source === source);
  const canSelect = (card) =>
    dk
      ? draws.some((a) => sameCard(a.select, card))
      : legal.some(
          (a) =>
            (a.type === "discard" && sameCard(a.card, card)) ||
            ((a.type === "knock" || a.type === "rummy") && a.discard && sameCard(a.discard, card)),
        );
  const sourceLive = (source) => draws.some((a) => a.source === source);

  function clickSource(source) {
    const a = findDraw(source);
    if (a) return act(a);
    if (dk && sourceLive(source) && !selected) setNotice("First pick the card you'll throw away.");
    return undefined;
  }

  const knockAction = dk
    ? legal.find((a) => a.type === "knock")
    : selected && legal.find((a) => a.type === "knock" && sameCard(a.discard, selected));
  const discardAction = !dk && selected && legal.find((a) => a.type === "discard" && sameCard(a.card, selected));
  const rummyAction = !dk &&
    legal.find((a) => a.type === "rummy" && (a.discard == null || (selected && sameCard(a.discard, selected))));
  const stand = legal.find((a) => a.type === "stand");
  const call = legal.find((a) => a.type === "call");
  const fold = legal.find((a) => a.type === "fold");
  const reveals = legal.filter((a) => a.type === "reveal");
  const palmLive = dk && sourceLive("palm");

  // A knock the engine's figures (or the hint) say is costly asks once, unless turned off.
  function knock(action) {
    const ev = obs.evaluation;
    const risky = (dk && ev && ev.score < 0) || (advice && advice.knock && advice.knock.wise === false);
    if (risky && settings().knockWarning !== false) setKnockAsk(action);
    else act(action);
  }

  const seats = players.length || (obs.hand_sizes || []).length;
  const others = [];
  for (let i = 1; i < seats; i += 1) others.push((me + i) % seats);

  // Everyone sees the banner while the final turns after a knock are being played.
  const finalTurn = !playback.frozen && !v.over && (obs.phase === "final" || !!obs.final_turn);
  const title = gameTitle(obs.game) || "Table";
  const roundText = `${unitWord(obs.game)} ${obs.round ?? 1}${obs.rounds ? ` of ${obs.rounds}` : ""}`;
  const subtitle = !dk && obs.target ? `${title} · to ${obs.target}` : title;

  const pickSet = revealPick || new Set((reveals[0] && reveals[0].poker_hand) || []);
  const chosenReveal = reveals.length ? matchingReveal(reveals, pickSet) : null;
  const complete = v.over && !doneDismissed && !playback.showdown;
  const lastResult = playback.lastResult || obs.last_result || null;
  const closeSheet = () => setSheet(null);
  const toggleSheet = (name) => setSheet((cur) => (cur === name ? null : name));

  return html`
  <section class=${`screen table-screen ${dk ? "dk" : "kr"}${playback.frozen ? " frozen" : ""}`}
    aria-label=${`${title} table`} data-version=${version}>
    <header class="table-head">
      <button class="btn small ghost" onClick=${() => setLeaving(true)} aria-label="Leave table">← Leave</button>
      <h1 class="round"><strong>${roundText}</strong><span class="game-name">${subtitle}</span></h1>
      <button class="btn small ghost icon" aria-label="Table settings" aria-expanded=${sheet === "settings" ? "true" : "false"}
        aria-controls="sheet-settings" onClick=${() => toggleSheet("settings")}>⚙</button>
      <div class="my-total">
        <${Portrait} name=${s.name || "You"} size=${32}
          character=${likenesses.find((l) => l.id === s.likeness) || null} />
        <span aria-label="Your total">${num((obs.totals || [])[me] ?? 0)}<small> pts</small></span>
      </div>
    </header>

    <div class="felt">
      <ul class="opponents" aria-label="Opponents">
        ${others.map((seat) => html`<${Seat} key=${seat} seat=${seat} obs=${obs} name=${names(seat)}
          character=${characterFor(players[seat], characters, details)} over=${v.over}
          back=${s.cardBack} />`)}
      </ul>
      <${TalkLine} talk=${talk} names=${names} />

      ${finalTurn ? html`<div class="banner final" role="status">FINAL TURN</div>` : null}

      <div class="center">
        <${Piles} obs=${obs} back=${s.cardBack} large=${s.largePrint} busy=${busy}
          sourceLive=${sourceLive} palmLive=${palmLive} onSource=${clickSource}
          arriving=${playback.arriving} />
        <p class="turn-line" aria-live="polite">${turnLine(v, obs, me, dk, selected, names, playback)}</p>
        ${playback.pending > 2 && !myTurn && !playback.showdown
          ? html`<button class="btn small ghost skip" onClick=${() => playback.skip()}>Skip ahead ▸▸</button>`
          : null}
        ${notice ? html`<p class="notice" role="alert">${notice}</p>` : null}
      </div>

      <div class="my-area">
        <h2 class="sr-only">Your Hand</h2>
        <${Hand} hand=${hand} obs=${obs} dk=${dk} large=${s.largePrint} busy=${busy} reveals=${reveals}
          pickSet=${pickSet} selected=${selected} drawn=${playback.drawn} arriving=${playback.arriving}
          canSelect=${canSelect}
          onPick=${(card, live, inPick) => {
            if (reveals.length) {
              const next = new Set([...pickSet].filter((c) => !sameCard(c, card)));
              if (!inPick) next.add(card);
              setRevealPick(next);
            } else if (live) {
              setSelected(selected && sameCard(card, selected) ? null : card);
              setNotice("");
            }
          }} />
        <${Controls} dk=${dk} obs=${obs} busy=${busy} selected=${selected} knockAction=${knockAction}
          discardAction=${discardAction} rummyAction=${rummyAction} stand=${stand} call=${call}
          fold=${fold} reveals=${reveals} chosenReveal=${chosenReveal} palmLive=${palmLive}
          who=${who} onAct=${act} onKnock=${knock} />
      </div>
    </div>

    <div class="side">
      ${dk
        ? html`<${HandFocus} obs=${obs} canKnock=${!!knockAction} advice=${advice}
            open=${sheet === "focus"} onClose=${closeSheet} />`
        : html`<${MeldPanel} obs=${obs} advice=${advice} open=${sheet === "focus"} onClose=${closeSheet} />`}
      <${Scores} obs=${obs} who=${who} me=${me} open=${sheet === "scores"} onClose=${closeSheet}
        reviewLabel=${lastResult ? (dk ? "Last round's showdown" : "Last hand") : null}
        onReview=${() => setReview(true)} />
      <${TableLog} entries=${playback.logLines(who)} open=${logOpen} onToggle=${() => setLogOpen((o) => !o)} />
    </div>

    <nav class="table-bar" aria-label="Table panels">
      <button class="bar-btn focus-btn" aria-expanded=${sheet === "focus" ? "true" : "false"}
        aria-controls="sheet-focus" onClick=${() => toggleSheet("focus")}>
        <span class="bar-label">${dk ? "Hand Focus" : "Your Count"}${advice ? html` <b class="dot" aria-label="hint ready">•</b>` : null}</span>
        <span class="bar-sub">${focusSummary(obs, dk)}</span>
      </button>
      <button class="bar-btn" aria-expanded=${sheet === "scores" ? "true" : "false"}
        aria-controls="sheet-scores" onClick=${() => toggleSheet("scores")}>
        <span class="bar-label">Scores</span>
        <span class="bar-sub">${(obs.totals || []).map((t, i) => (i === me ? `You ${num(t)}` : num(t))).join(" · ")}</span>
      </button>
    </nav>

    ${sheet === "settings" ? html`<${TableSettings} onClose=${closeSheet} />` : null}

    ${playback.showdown
      ? html`<${ShowdownDialog} result=${playback.showdown} who=${who} onClose=${() => playback.close()}
 />`
      : null}

    ${review && lastResult && !playback.showdown
      ? html`<${ShowdownDialog} result=${lastResult} who=${who} onClose=${() => setReview(false)} closeLabel="Close" />`
      : null}

    ${knockAsk
      ? html`<${KnockConfirm} dk=${dk} obs=${obs} action=${knockAsk} advice=${advice}
          onKnock=${() => act(knockAsk)} onKeep=${() => setKnockAsk(null)} />`
      : null}

    ${complete
      ? html`<${MatchComplete} obs=${obs} result=${v.result} who=${who}
          matchId=${matchId} trail=${!!view.table_id} lastResult=${playback.lastResult}
          onClose=${() => { setDoneDismissed(true); navigate("/trail"); }} />`
      : null}

    ${leaving
      ? html`<${LeaveDialog}
          onBreak=${() => navigate("/trail")}
          onStay=${() => setLeaving(false)}
          onForfeit=${async () => {
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
          }} />`
      : null}
  </section>`;
}

// The newest remark at the table, in one line under the seats (it covers nothing).
function TalkLine({ talk, names }) {
  const newest = Object.entries(talk).sort((a, b) => b[1].at - a[1].at)[0];
  return html`<p class="talk-line">${newest
    ? html`<span class="talk-who">${names(Number(newest[0]))}:</span> <q class="talk">${newest[1].text}</q>`
    : null}</p>`;
}

function callLabel(c) {
  if (c === "call") return "Called";
  if (c === "fold") return "Folded";
  return String(c);
}

function Seat({ seat, obs, name, character, over, back }) {
  const count = (obs.hand_sizes || [])[seat];
  const acting = obs.to_act === seat && !over;
  const callWord = obs.calls && obs.calls[seat] != null ? obs.calls[seat] : null;
  const dealer = obs.dealer === seat;
  return html`<li class=${`opponent${acting ? " acting" : ""}`} data-seat=${seat}>
    <span class="seat-face">
      <${Portrait} name=${name} character=${character} />
      ${dealer ? html`<b class="dealer-chip" title="Dealer this round">D<span class="sr-only">ealer</span></b>` : null}
    </span>
    <div class="opp-info">
      <span class="opp-name">${name}</span>
      <span class="opp-meta"><span class="opp-pts">${num((obs.totals || [])[seat] ?? 0)} pts</span>
        <span class="seat-cards" aria-hidden="true">
          ${Array.from({ length: Math.min(count || 0, 11) }, (_, i) => html`<i key=${i} class=${`mini-back back-${back}`}></i>`)}
        </span>
        <span class="opp-count" aria-hidden="true">${count ?? "?"}</span>
        <span class="sr-only">${count ?? "?"} cards</span></span>
      <span class="opp-badges">
        ${obs.knocker === seat ? html`<b class="badge">Knocked</b>` : null}
        ${callWord != null ? html`<b class="badge">${callLabel(callWord)}</b>` : null}
        ${acting ? html`<i class="thinking">thinking…</i>` : null}
      </span>
    </div>
  </li>`;
}

function Piles({ obs, back, large, busy, sourceLive, palmLive, onSource, arriving }) {
  const pile = obs.discard_pile || [];
  const top = pile.length ? pile[pile.length - 1] : null;
  // While the new top card is in the air, the pile shows the one under it.
  const shown = arriving.has("pile") ? pile[pile.length - 2] || null : top;
  const stockLive = sourceLive("stock");
  const pileLive = sourceLive("discard");
  return html`<div class="piles">
    <div class="pile-wrap">
    <button class=${`pile stock${stockLive ? " live" : ""}`} disabled=${!stockLive || busy}
      aria-label="Draw from stock" onClick=${() => onSource("stock")}>
      <${CardBack} back=${back} />
    </button>
    <span class="pile-label">Stock · ${obs.stock_size ?? "?"}</span>
    </div>
    <div class="pile-wrap">
    <button class=${`pile discard${pileLive ? " live" : ""}`} disabled=${!pileLive || busy}
      aria-label=${top ? `Take discard ${pretty(top)}` : "Discard pile is empty"}
      onClick=${() => onSource("discard")}>
      ${shown ? html`<${CardFace} card=${shown} large=${large} />` : html`<div class="empty-pile"></div>`}
    </button>
    <span class="pile-label">Discard · ${pile.length}</span>
    </div>
    ${palmLive
      ? html`<div class="pile-wrap"><button class="pile palm live" disabled=${busy} aria-label="Palm the buried card"
          aria-describedby="action-help" title="Palm: take the card under the top discard; the top one is set aside. −5 suspicion if you don't top the round."
          onClick=${() => onSource("palm")}>
          <${CardBack} back=${back} />
          </button><span class="pile-label">Palm</span></div>`
      : null}
  </div>`;
}

// The hand as a player would hold it: the engine's groups first (Deadwood Knock: the poker
// hand of the scoring split; Knock Rummy: each meld), then the rest; each group is underlined.
function handGroups(hand, obs, dk) {
  const groups = dk
    ? [(obs.evaluation && obs.evaluation.poker_hand) || []]
    : ((obs.arrangement && obs.arrangement.melds) || []);
  const left = [...hand];
  const out = [];
  groups.forEach((group, g) => {
    const cards = [];
    for (const c of dk ? sortHand(group) : group) {
      const at = left.findIndex((x) => sameCard(x, c));
      if (at >= 0) cards.push(left.splice(at, 1)[0]);
    }
    cards.forEach((card, i) => out.push({ card, group: g % 2 ? "b" : "a", end: i === cards.length - 1 }));
  });
  for (const card of sortHand(left)) out.push({ card, group: null, end: false });
  return out;
}

function Hand({ hand, obs, dk, large, busy, reveals, pickSet, selected, drawn, arriving, canSelect, onPick }) {
  const cls = `hand${large ? " large-print" : ""} n${hand.length}`;
  let jokers = 0;
  const laid = handGroups(hand, obs, dk);
  // One card of the hand is in the Tab order (the selected one, else the first playable);
  // the arrow keys, Home and End move between the cards.
  const rover = (laid.find(({ card }) => selected && sameCard(card, selected))
    || laid.find(({ card }) => !busy && canSelect(card)) || laid[0] || {}).card;
  function onKey(e) {
    const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
    if (!keys.includes(e.key)) return;
    const cards = [...e.currentTarget.querySelectorAll("button.card:not([disabled])")];
    const at = cards.indexOf(document.activeElement);
    if (!cards.length) return;
    e.preventDefault();
    let next = at < 0 ? 0 : at;
    if (e.key === "Home") next = 0;
    else if (e.key === "End") next = cards.length - 1;
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = Math.max(0, next - 1);
    else next = Math.min(cards.length - 1, next + 1);
    cards[next].focus();
  }
  return html`<ul class=${cls} aria-label="Your hand" onKeyDown=${onKey}>
    ${laid.map(({ card, group, end }) => {
      const key = card === "JK" ? `JK${(jokers += 1)}` : card;
      const live = !busy && !reveals.length && canSelect(card);
      const isSel = selected && sameCard(card, selected);
      const inPick = reveals.length && [...pickSet].some((c) => sameCard(c, card));
      const isNew = drawn && sameCard(card, drawn);
      const label = reveals.length
        ? `${inPick ? "Remove" : "Add"} ${pretty(card)} ${inPick ? "from" : "to"} poker hand`
        : dk ? `Discard ${pretty(card)}` : `Select ${pretty(card)}`;
      const cls2 = `card${isSel ? " selected" : ""}${inPick ? " picked" : ""}${isNew ? " drawn" : ""}${
        arriving.has(`card:${card}`) ? " arriving" : ""}${group ? ` grp grp-${group}` : ""}${end ? " grp-end" : ""}`;
      return html`<li key=${key} data-card=${card}>
        <button class=${cls2} aria-label=${label} aria-pressed=${reveals.length ? !!inPick : !!isSel}
          tabindex=${rover && sameCard(card, rover) && key === (rover === "JK" ? "JK1" : rover) ? 0 : -1}
          aria-describedby=${isNew ? "drawn-note" : undefined}
          disabled=${!(live || reveals.length)} onClick=${() => onPick(card, live, inPick)}>
          <${CardFace} card=${card} large=${large} />
        </button></li>`;
    })}
    <li class="sr-only" id="drawn-note">the card you just drew</li>
  </ul>`;
}

function Controls(p) {
  const { dk, obs, busy, selected, knockAction, discardAction, rummyAction, stand, call, fold } = p;
  const { reveals, chosenReveal, palmLive, who, onAct, onKnock } = p;
  if (call || fold) {
    const ev = obs.evaluation;
    return html`<div class="prompt" role="group" aria-label="Call or fold">
      <p>${obs.knocker != null ? `${who(obs.knocker)} knocked. ` : ""}Call puts 10 in the poker pot:
        the best poker hand among those in takes it. Fold stays out of it.
        ${ev ? html`<br /><span class="prompt-sub">You hold ${categoryPhrase(ev.category)} (${ev.hand_points} hand points).</span>` : null}</p>
      ${call ? html`<button class="btn gold" disabled=${busy} onClick=${() => onAct(call)}>Call</button>` : null}
      ${fold ? html`<button class="btn" disabled=${busy} onClick=${() => onAct(fold)}>Fold</button>` : null}
    </div>`;
  }
  if (reveals.length) {
    return html`<div class="prompt" role="group" aria-label="Showdown">
      <p>Showdown: choose the cards of your poker hand (the rest is deadwood).</p>
      ${chosenReveal
        ? html`<button class="btn gold" disabled=${busy} onClick=${() => onAct(chosenReveal)}>Show hand</button>`
        : html`<span class="hint">That isn't a legal poker hand.</span>`}
    </div>`;
  }
  const help = [];
  if (knockAction) {
    help.push(dk
      ? "Knock ends the round: the others get one final turn, then call or fold."
      : `Knock: discard ${pretty(selected)} and lay down; lowest count wins.`);
  }
  if (stand) help.push("Stand keeps your hand as it is.");
  if (palmLive) help.push("Palm takes the card under the top discard; −5 if you don't top the round.");
  const any = knockAction || discardAction || rummyAction || stand;
  return html`<div class="actions-wrap">
    ${any
      ? html`<div class="actions" role="group" aria-label="Actions">
          ${knockAction
            ? html`<button class="btn knock gold" disabled=${busy} aria-describedby="action-help"
                onClick=${() => onKnock(knockAction)}>Knock</button>`
            : null}
          ${discardAction
            ? html`<button class="btn" disabled=${busy} aria-label=${`Discard ${pretty(selected)}`}
                onClick=${() => onAct(discardAction)}>Discard ${pretty(selected)}</button>`
            : null}
          ${rummyAction
            ? html`<button class="btn gold" disabled=${busy} onClick=${() => onAct(rummyAction)}>Rummy!</button>`
            : null}
          ${stand
            ? html`<button class="btn" disabled=${busy} aria-describedby="action-help"
                title="Stand: keep your hand as it is and end your final turn."
                onClick=${() => onAct(stand)}>Stand</button>`
            : null}
        </div>`
      : null}
    ${help.length ? html`<p class="action-help" id="action-help">${help.join(" ")}</p>` : null}
  </div>`;
}

function turnLine(v, obs, me, dk, selected, names, playback) {
  if (playback.showdown) return "The round is over.";
  if (v.over) return "The match is over.";
  if (obs.to_act == null) return "Dealing…";
  if (obs.to_act !== me) return `${names(obs.to_act)} to play.`;
  const types = new Set(v.legal.map((a) => a.type));
  if (types.has("call")) return "Call or fold?";
  if (types.has("reveal")) return "Lay out your poker hand.";
  const final = obs.phase === "final";
  if (dk && types.has("draw")) {
    const palm = v.legal.some((a) => a.source === "palm");
    if (selected) {
      return `Throwing away ${pretty(selected)}: now tap the stock or the discard pile${palm ? ", or Palm" : ""}.`;
    }
    return final
      ? "Final turn: pick a card to throw away and draw, or Stand."
      : "Your turn: pick a card to throw away, then draw.";
  }
  if (!dk && types.has("draw")) return "Your turn: draw from the stock or take the discard.";
  if (!dk && types.has("discard")) return selected ? "Discard it, or knock if you can." : "Select a card to discard.";
  return "Your turn.";
}

function KnockConfirm({ dk, obs, action, advice, onKnock, onKeep }) {
  const ev = obs.evaluation;
  const unwise = advice && advice.knock && advice.knock.wise === false;
  const title = dk && ev
    ? `Knock with ${categoryPhrase(ev.category)} for ${signed(ev.score)}?`
    : `Knock and discard ${pretty(action.discard)}?`;
  return html`<${Modal} title=${title} onClose=${onKeep} className="knock-confirm">
    ${dk && ev
      ? html`<p>If the round ended now your hand would score ${ev.hand_points} hand ${deadwoodTerm(ev.deadwood_points)}${" "}
          = <strong>${signed(ev.score)}</strong>, before the pot.</p>`
      : null}
    ${unwise ? html`<p>The hint rates playing on above knocking now.</p>` : null}
    <div class="stack">
      <button class="btn gold" onClick=${onKeep}>Keep playing</button>
      <button class="btn danger" onClick=${onKnock}>Knock</button>
    </div>
    <label class="toggle small"><input type="checkbox"
      onChange=${(e) => update({ knockWarning: !e.target.checked })} />
      Don't ask before a knock again (Table settings turns it back on)</label>
  <//>`;
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
