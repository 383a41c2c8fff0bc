// The table: one match, driven only by the server's view. The client never applies a rule:
// every control is enabled from `legal_actions`, and a click posts one of them verbatim.
import { html, useState, useEffect, useRef, useCallback, navigate } from "./lib.js";
import { getMatch, getHint, sendAction, matchSocketUrl, optional, api, ApiError } from "./api.js";
import { CardFace, CardBack, pretty, sameCard, sortHand, parseCard } from "./cards.js";
import { settings, recordResult, update } from "./store.js";
import { lineFor, talkKind } from "./talk.js";
import { Modal, LeaveDialog, A2HSHint } from "./dialogs.js";
import { Portrait, useLikenesses } from "./portraits.js";

const GAME_TITLES = {
  "deadwood-knock": "Deadwood Knock",
  "knock-rummy": "Knock Rummy",
  gin: "Gin Rummy",
};

const CATEGORY_WORDS = {
  high_card: "High card",
  pair: "Pair",
  two_pair: "Two pair",
  three_of_a_kind: "Three of a kind",
  straight: "Straight",
  flush: "Flush",
  full_house: "Full house",
  four_of_a_kind: "Four of a kind",
  straight_flush: "Straight flush",
  royal_flush: "Royal flush",
};

export function categoryWords(c) {
  if (!c) return "—";
  return CATEGORY_WORDS[c] || String(c).replace(/_/g, " ");
}

// The server's view wraps the seat's observation with match facts (seat, players, to_act,
// legal_actions, status, result); merge them so the screen reads one object.
export function normaliseView(view) {
  const inner = (view && view.observation) || {};
  const obs = {
    ...inner,
    game: view.game || inner.game,
    seat: view.seat ?? inner.seat ?? 0,
    to_act: view.to_act !== undefined ? view.to_act : inner.to_act,
    totals: inner.totals || view.scores || [],
    round: inner.round ?? view.round,
    rounds: inner.rounds ?? view.rounds,
    final_turn: inner.final_turn ?? view.final_turn,
  };
  const players = Array.isArray(view.players) ? view.players : Array.isArray(inner.players) ? inner.players : [];
  const legal = view.legal_actions || inner.legal_actions || [];
  const over = view.status === "finished" || !!inner.over;
  const events = view.recent_events || inner.events || [];
  return { obs, players, legal, over, events, result: view.result || null, raw: view };
}

function isDK(obs) {
  return (obs.game || "deadwood-knock") === "deadwood-knock";
}

function playerName(p, i) {
  if (p == null) return `Seat ${i + 1}`;
  const raw = typeof p === "string" ? p : p.display_name || p.name || p.bot || `Seat ${i + 1}`;
  // Bot ids ("high_roller") read better as names ("High Roller").
  if (typeof p === "object" && p.kind === "bot" && raw === p.bot) {
    return raw.replace(/[-_]+/g, " ").replace(/\b\w/g, (m) => m.toUpperCase());
  }
  return raw;
}

function sameJSON(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// The DK hand evaluation may arrive under a few names; take whichever the server sends.
function evaluation(obs) {
  return obs.evaluation || obs.hand_evaluation || obs.hand_eval || obs.focus || obs.best || null;
}

function matchingReveal(legal, chosen) {
  const want = [...chosen].map((c) => parseCard(c).text).sort().join(" ");
  return legal.find(
    (a) =>
      a.type === "reveal" &&
      (a.poker_hand || []).map((c) => parseCard(c).text).sort().join(" ") === want,
  );
}

export function TableScreen({ matchId, characters }) {
  const [view, setView] = useState(null);
  const [error, setError] = useState(null);
  const [selected, setSelected] = useState(null);
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  const [talk, setTalk] = useState({});
  const [showdown, setShowdown] = useState(null);
  const [leaving, setLeaving] = useState(false);
  const [revealPick, setRevealPick] = useState(null);
  const [doneDismissed, setDoneDismissed] = useState(false);
  const [details, setDetails] = useState({});
  const [hint, setHint] = useState(null);
  const hintFor = useRef("");
  const likenesses = useLikenesses();
  const lastResult = useRef(null);
  const seenVersion = useRef(-1);
  const recorded = useRef(false);
  const s = settings();

  const refresh = useCallback(async () => {
    try {
      const v = await getMatch(matchId);
      setView(v);
      setError(null);
    } catch (err) {
      setError(err.message);
    }
  }, [matchId]);

  useEffect(() => {
    refresh();
  }, [refresh]);

  // Live updates: the socket tells us something happened; we re-read the authoritative view.
  useEffect(() => {
    let ws;
    let closed = false;
    try {
      ws = new WebSocket(matchSocketUrl(matchId));
      // The token goes in the first message, never in the URL.
      ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token: settings().token }));
      ws.onmessage = (msg) => {
        if (closed) return;
        let data = null;
        try {
          data = JSON.parse(msg.data);
        } catch {
          return;
        }
        if (data && data.type === "view" && data.view) setView(data.view);
      };
      ws.onerror = () => {};
    } catch {
      ws = null;
    }
    return () => {
      closed = true;
      if (ws) ws.close();
    };
  }, [matchId, refresh]);

  const v = view ? normaliseView(view) : null;
  const playersKey = v ? v.players.map((p) => p.bot || p.name).join("|") : "";

  // Each trail character's own table talk; they greet the table when we sit down.
  useEffect(() => {
    if (!v) return;
    let cancelled = false;
    const wanted = v.players.filter((p) => p.bot && p.bot.startsWith("figure:"));
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
        if (line) hello[seat] = line;
      }
      if (!v.over) setTalk((t) => ({ ...hello, ...t }));
    });
    return () => {
      cancelled = true;
    };
  }, [playersKey]);
  const obs = v ? v.obs : {};
  const me = obs.seat ?? 0;
  const myTurn = v && !v.over && obs.to_act === me && v.legal.length > 0;

  // Fallback for a socket that never connects: poll while someone else is thinking.
  useEffect(() => {
    if (!v || v.over || myTurn) return undefined;
    const t = setTimeout(refresh, 600);
    return () => clearTimeout(t);
  }, [view, myTurn, refresh]);

  // Hand Focus: ask the server's strong bot once per position, on the player's turn only. The
  // effect runs after the view has painted, so play never waits for it; an answer that arrives
  // after the position moved on is dropped.
  useEffect(() => {
    if (!v || !myTurn) {
      hintFor.current = ""; // the turn has passed: an answer still on its way is stale
      return;
    }
    const version = v.raw.version;
    const key = `${matchId}:${version}`;
    if (hintFor.current === key) return;
    hintFor.current = key;
    getHint(matchId)
      .then((h) => {
        if (hintFor.current === key && h && h.hint && h.version === version) setHint(h);
      })
      .catch(() => {}); // no hint (offline, or the search failed): the panel says less
  }, [view, myTurn]);
  const advice = hint && myTurn && hint.version === v.raw.version ? hint.hint : null;

  // New events produce table talk; a new round result opens the showdown.
  useEffect(() => {
    if (!v) return;
    const fresh = v.events.filter((e) => (e.version ?? 0) > seenVersion.current);
    const first = seenVersion.current < 0;
    for (const e of v.events) seenVersion.current = Math.max(seenVersion.current, e.version ?? 0);
    const said = {};
    if (first) fresh.length = 0; // remarks from before we sat down stay unsaid
    for (const ev of fresh) {
      if (ev.seat == null || ev.seat === me) continue;
      const kind = talkKind(ev);
      if (!kind) continue;
      const ch = characterFor(v.players[ev.seat], characters, details);
      const text = kind === "say" ? ev.text || ev.line : lineFor(kind, ev.seat, obs.round || 0, ch);
      if (text) said[ev.seat] = text;
    }
    if (Object.keys(said).length) setTalk((t) => ({ ...t, ...said }));
    if (obs.last_result && !sameJSON(obs.last_result, lastResult.current)) {
      if (lastResult.current !== null || !v.over) setShowdown(obs.last_result);
      lastResult.current = obs.last_result;
    }
    if (selected && !(obs.hand || []).some((c) => sameCard(c, selected))) setSelected(null);
  }, [view]);

  useEffect(() => {
    if (!v || !v.over || recorded.current) return;
    recorded.current = true;
    const outcome = outcomeFor(obs, v.result);
    recordResult("trail", outcome, matchId);
    if (outcome === "win") {
      const done = new Set(settings().progress.completed || []);
      if (v.raw.table_id) done.add(v.raw.table_id);
      update({ progress: { completed: [...done] } });
    }
  }, [view]);

  if (error && !view) {
    return html`<section class="screen"><h1>Table</h1>
      <p role="alert" class="error">${error}</p>
      <button class="btn" onClick=${() => navigate("/trail")}>Back to town</button></section>`;
  }
  if (!v) return html`<section class="screen"><p class="loading">Shuffling up…</p></section>`;

  const legal = v.legal;
  const dk = isDK(obs);
  const hand = obs.hand || [];
  const pile = obs.discard_pile || [];
  const top = pile.length ? pile[pile.length - 1] : null;
  const types = new Set(legal.map((a) => a.type));

  async function act(action) {
    if (busy) return;
    setBusy(true);
    setNotice("");
    try {
      const next = await sendAction(matchId, action);
      setSelected(null);
      setRevealPick(null);
      if (next && typeof next === "object" && (next.observation || next.hand || next.status)) {
        setView(next);
      } else {
        await refresh();
      }
    } catch (err) {
      setNotice(err instanceof ApiError ? err.message : "That move didn't go through.");
      refresh();
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
    if (dk && sourceLive(source) && !selected) setNotice("First select the card you'll discard.");
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
  const evalv = dk ? evaluation(obs) : null;

  // Seats carry their character's name (trail bots are "figure:<id>" underneath).
  const players = v.players.map((p, i) => ({
    ...p,
    name: seatName(p, i, characterFor(p, characters, details)),
  }));
  const seats = players.length || (obs.hand_sizes || []).length;
  const others = [];
  for (let i = 1; i < seats; i += 1) others.push((me + i) % seats);

  // Everyone sees the banner while the final turns after a knock are being played.
  const finalTurn = !!obs.final_turn || obs.phase === "final";
  const title = GAME_TITLES[obs.game] || "Table";
  const roundText = dk
    ? `Round ${obs.round ?? 1} of ${obs.rounds ?? 10}`
    : `Hand ${obs.round ?? 1}${obs.target ? ` · game to ${obs.target}` : ""}`;

  const pickSet = revealPick || new Set((reveals[0] && reveals[0].poker_hand) || []);
  const chosenReveal = reveals.length ? matchingReveal(reveals, pickSet) : null;

  const handClass = s.largePrint ? "hand large-print" : "hand";
  const complete = v.over && !doneDismissed;

  return html`
  <section class="screen table-screen" aria-label=${`${title} table`}>
    <header class="table-head">
      <button class="btn small ghost" onClick=${() => setLeaving(true)}
        aria-label="Leave table">← Leave</button>
      <div class="round" aria-live="polite"><strong>${roundText}</strong>
        <span class="game-name">${title}</span></div>
      <div class="my-total">
        <${Portrait} name=${s.name || "You"} size=${36}
          character=${likenesses.find((l) => l.id === s.likeness) || null} />
        <span aria-label="Your total">${(obs.totals || [])[me] ?? 0}<small> pts</small></span>
      </div>
    </header>

    <ul class="opponents" aria-label="Opponents">
      ${others.map((seat) => {
        const p = players[seat];
        const ch = characterFor(p, characters, details);
        const name = seatName(p, seat, ch);
        const count = (obs.hand_sizes || [])[seat];
        const acting = obs.to_act === seat && !v.over;
        const callWord = obs.calls && obs.calls[seat] != null ? obs.calls[seat] : null;
        return html`<li class=${`opponent${acting ? " acting" : ""}`} key=${seat}>
          <${Portrait} name=${name} character=${ch} />
          <div class="opp-info">
            <span class="opp-name">${name}</span>
            <span class="opp-meta">${count ?? "?"} cards · ${(obs.totals || [])[seat] ?? 0} pts
              ${obs.knocker === seat ? html` · <b class="badge">Knocked</b>` : null}
              ${callWord != null ? html` · <b class="badge">${callLabel(callWord)}</b>` : null}
              ${acting ? html` · <i>thinking…</i>` : null}</span>
            ${talk[seat] ? html`<q class="talk">${talk[seat]}</q>` : null}
          </div>
        </li>`;
      })}
    </ul>

    ${finalTurn && !v.over
      ? html`<div class="banner final" role="status">FINAL TURN</div>`
      : null}

    <div class="felt">
      <div class="piles">
        <button class="pile stock" disabled=${!sourceLive("stock") || busy}
          aria-label="Draw from stock" onClick=${() => clickSource("stock")}>
          <${CardBack} back=${s.cardBack} />
          <span class="pile-label">Stock · ${obs.stock_size ?? "?"}</span>
        </button>
        <button class="pile discard" disabled=${!sourceLive("discard") || busy}
          aria-label=${top ? `Take discard ${pretty(top)}` : "Discard pile is empty"}
          onClick=${() => clickSource("discard")}>
          ${top
            ? html`<${CardFace} card=${top} large=${s.largePrint} />`
            : html`<div class="empty-pile"></div>`}
          <span class="pile-label">Discard</span>
        </button>
        ${dk && sourceLive("palm")
          ? html`<button class="pile palm" disabled=${busy}
              aria-label="Palm the buried card" onClick=${() => clickSource("palm")}>
              <${CardBack} back=${s.cardBack} />
              <span class="pile-label">Palm</span></button>`
          : null}
      </div>
      <p class="turn-line" aria-live="polite">${turnLine(v, obs, me, dk, selected, players)}</p>
      ${notice ? html`<p class="notice" role="alert">${notice}</p>` : null}
    </div>

    <div class="my-area">
      <h2 class="sr-only">Your Hand</h2>
      <ul class=${handClass} aria-label="Your hand">
        ${sortHand(hand).map((card) => {
          const live = !busy && !reveals.length && canSelect(card);
          const isSel = selected && sameCard(card, selected);
          const inPick = reveals.length && [...pickSet].some((c) => sameCard(c, card));
          const label = reveals.length
            ? `${inPick ? "Remove" : "Add"} ${pretty(card)} ${inPick ? "from" : "to"} poker hand`
            : dk ? `Discard ${pretty(card)}` : `Select ${pretty(card)}`;
          const onClick = () => {
            if (reveals.length) {
              const next = new Set([...pickSet].filter((c) => !sameCard(c, card)));
              if (!inPick) next.add(card);
              setRevealPick(next);
            } else if (live) {
              setSelected(isSel ? null : card);
              setNotice("");
            }
          };
          return html`<li key=${card}>
            <button class=${`card${isSel ? " selected" : ""}${inPick ? " picked" : ""}`}
              aria-label=${label} aria-pressed=${reveals.length ? !!inPick : !!isSel}
              disabled=${!(live || reveals.length)} onClick=${onClick}>
              <${CardFace} card=${card} large=${s.largePrint} />
            </button></li>`;
        })}
      </ul>

      <div class="actions" role="group" aria-label="Actions">
        ${dk || types.has("knock")
          ? html`<button class="btn knock" disabled=${!knockAction || busy}
              onClick=${() => act(knockAction)}>Knock</button>`
          : null}
        ${!dk
          ? html`<button class="btn" disabled=${!discardAction || busy}
              aria-label=${selected ? `Discard ${pretty(selected)}` : "Discard"}
              onClick=${() => act(discardAction)}>${selected ? `Discard ${pretty(selected)}` : "Discard"}</button>`
          : null}
        ${rummyAction
          ? html`<button class="btn gold" disabled=${busy} onClick=${() => act(rummyAction)}>
              ${obs.game && obs.game.startsWith("gin") ? "Gin" : "Rummy"}!</button>`
          : null}
        ${stand
          ? html`<button class="btn" disabled=${busy} onClick=${() => act(stand)}>Stand</button>`
          : null}
      </div>

      ${call || fold
        ? html`<div class="prompt" role="group" aria-label="Call or fold">
            <p>The knock is in. Put 10 points in the poker pot?</p>
            <button class="btn gold" disabled=${!call || busy} onClick=${() => act(call)}>Call</button>
            <button class="btn" disabled=${!fold || busy} onClick=${() => act(fold)}>Fold</button>
          </div>`
        : null}

      ${reveals.length
        ? html`<div class="prompt" role="group" aria-label="Showdown">
            <p>Showdown: choose the cards of your poker hand (the rest is deadwood).</p>
            <button class="btn gold" disabled=${!chosenReveal || busy}
              onClick=${() => act(chosenReveal)}>Show hand</button>
            ${!chosenReveal ? html`<span class="hint">That isn't a legal poker hand.</span>` : null}
          </div>`
        : null}
    </div>

    ${dk
      ? html`<${HandFocus} ev=${evalv} canKnock=${!!knockAction} obs=${obs} advice=${advice} />`
      : html`<${MeldPanel} arr=${obs.arrangement} obs=${obs} advice=${advice} />`}

    <${Scoreboard} obs=${obs} players=${players} me=${me} />

    ${showdown && !complete
      ? html`<${Modal} title=${dk ? "Showdown" : "Hand over"} onClose=${() => setShowdown(null)}>
          <${Showdown} result=${showdown} players=${players} me=${me} dk=${dk} />
          <button class="btn gold" onClick=${() => setShowdown(null)}>Continue</button>
        <//>`
      : null}

    ${complete
      ? html`<${MatchComplete} obs=${obs} result=${v.result} players=${players} me=${me}
          matchId=${matchId} trail=${!!v.raw.table_id}
          onClose=${() => { setDoneDismissed(true); navigate("/trail"); }} />`
      : null}

    ${leaving
      ? html`<${LeaveDialog}
          onBreak=${() => navigate("/trail")}
          onStay=${() => setLeaving(false)}
          onForfeit=${async () => {
            try {
              await api.post(`/api/matches/${encodeURIComponent(matchId)}/forfeit`, {});
            } catch {
              // A server without forfeit still counts the loss locally.
            }
            if (!recorded.current) {
              recorded.current = true;
              recordResult("trail", "loss", matchId);
            }
            navigate("/trail");
          }} />`
      : null}
  </section>`;
}

function callLabel(c) {
  if (c === true || c === "call") return "Called";
  if (c === false || c === "fold") return "Folded";
  return String(c);
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

function turnLine(v, obs, me, dk, selected, players) {
  if (v.over) return "The match is over.";
  if (obs.to_act == null) return "Dealing…";
  if (obs.to_act !== me) return `${playerName(players[obs.to_act], obs.to_act)} to play.`;
  const types = new Set(v.legal.map((a) => a.type));
  if (types.has("call")) return "Call or fold?";
  if (types.has("reveal")) return "Lay out your poker hand.";
  if (dk && types.has("draw")) {
    const palm = v.legal.some((a) => a.source === "palm");
    return selected
      ? `Discarding ${pretty(selected)}: now take from the stock or the discard pile${
          palm ? ", or palm the buried card" : ""}.`
      : "Your turn: select a card to discard.";
  }
  if (!dk && types.has("draw")) return "Your turn: take from the stock or the discard pile.";
  if (!dk && types.has("discard")) return "Select a card to discard.";
  return "Your turn.";
}

function outcomeFor(obs, result) {
  const me = obs.seat ?? 0;
  if (result && result.forfeited_by != null) return result.forfeited_by === me ? "loss" : "win";
  if (result && Array.isArray(result.winners) && result.winners.length) {
    if (!result.winners.includes(me)) return "loss";
    return result.winners.length > 1 ? "tie" : "win";
  }
  const totals = obs.totals || [];
  const mine = totals[obs.seat ?? 0] ?? 0;
  const best = Math.max(...totals);
  if (mine < best) return "loss";
  return totals.filter((t) => t === best).length > 1 ? "tie" : "win";
}

// The server's Hand Focus for this turn: the best move in checked words, whether to knock
// now (only when a knock is legal; the words carry the verdict), and the moves ranked by
// value in points with their confidence (`ranking`, the same lines the terminal shows).
function Advice({ advice }) {
  if (!advice || !advice.explanation) return null;
  const k = advice.knock || {};
  const ranking = advice.ranking || [];
  return html`<div class="advice" aria-label="Hint">
    <p class="advice-best"><strong>Best move:</strong> ${advice.explanation}</p>
    ${k.legal && k.advice
      ? html`<p class="advice-knock"><strong>Knock now?</strong> ${k.advice}</p>`
      : null}
    ${ranking.length > 1
      ? html`<ol class="advice-ranking" aria-label="Moves ranked by value">
          ${ranking.slice(0, 3).map((line, i) => html`<li key=${i}>${line.replace(/^\d+\. /, "")}</li>`)}
        </ol>`
      : null}
  </div>`;
}

function MeldPanel({ arr, obs, advice }) {
  const melds = (arr && arr.melds) || [];
  return html`<aside class="panel focus" aria-label="Your count">
    <h2>Your Count</h2>
    <dl>
      <div><dt>Count</dt><dd>${arr ? arr.count : "—"}</dd></div>
      <div><dt>Melds</dt><dd>${melds.length}</dd></div>
      ${obs.options && obs.options.knock_limit != null
        ? html`<div><dt>Knock limit</dt><dd>${obs.options.knock_limit}</dd></div>`
        : null}
    </dl>
    ${melds.map((m, i) => html`<p class="sd-cards" key=${i}><span class="sd-tag">Meld</span>
      ${m.map((c) => html`<span class="mini ${cardTone(c)}">${pretty(c)}</span>`)}</p>`)}
    ${advice
      ? html`<${Advice} advice=${advice} />`
      : html`<p class="hint">${arr && arr.rummy
          ? "Every card is matched: you can go out."
          : "Lower your count: build sets and runs of three or more."}</p>`}
  </aside>`;
}

function HandFocus({ ev, canKnock, obs, advice }) {
  const knockCount = ev ? ev.knock_count : null;
  let hint;
  if (!ev) hint = "Your hand's numbers appear here.";
  else if (obs.knocker != null) hint = "Someone has knocked: make your last turn count.";
  else if (canKnock) hint = `Knock count ${knockCount}: you may knock now.`;
  else if (knockCount != null) hint = `Knock count ${knockCount}: knocking needs 11 or less.`;
  else hint = "Keep deadwood low and build your poker hand.";
  return html`<aside class="panel focus" aria-label="Hand Focus">
    <h2>Hand Focus</h2>
    <dl>
      <div><dt>Best hand</dt><dd>${categoryWords(ev && (ev.category || ev.poker_category))}</dd></div>
      <div><dt>Hand points</dt><dd>${ev ? ev.hand_points ?? "—" : "—"}</dd></div>
      <div><dt>Deadwood</dt><dd>${ev ? ev.deadwood_points ?? "—" : "—"}</dd></div>
      <div><dt>Knock count</dt><dd>${knockCount ?? "—"}</dd></div>
      <div><dt>Score now</dt><dd>${ev ? ev.score ?? "—" : "—"}</dd></div>
    </dl>
    ${ev && ev.poker_hand
      ? html`<p class="focus-cards">Poker hand: ${ev.poker_hand.map(pretty).join(" ")}
          ${ev.deadwood && ev.deadwood.length ? html`<br/>Deadwood: ${ev.deadwood.map(pretty).join(" ")}` : null}</p>`
      : null}
    ${advice ? html`<${Advice} advice=${advice} />` : html`<p class="hint">${hint}</p>`}
  </aside>`;
}

function Scoreboard({ obs, players, me }) {
  const totals = obs.totals || [];
  return html`<aside class="panel scores" aria-label="Scores">
    <h2>Scores</h2>
    <table>
      <tbody>
        ${totals.map((t, i) => html`<tr key=${i} class=${i === me ? "me" : ""}>
          <th scope="row">${i === me ? "You" : playerName(players[i], i)}</th><td>${t}</td></tr>`)}
      </tbody>
    </table>
  </aside>`;
}

function num(n) {
  if (n == null) return "0";
  return n < 0 ? `− ${Math.abs(n)}` : `+ ${n}`;
}

// One row per seat: poker hand and deadwood laid out, then the arithmetic of the round score.
export function Showdown({ result, players, me, dk }) {
  const rows = resultRows(result);
  const which = result.round ?? result.hand;
  return html`<div class="showdown">
    ${which != null ? html`<p class="sd-round">${dk ? "Round" : "Hand"} ${which}</p>` : null}
    ${outcomeLine(result, players, me) ? html`<p class="sd-outcome">${outcomeLine(result, players, me)}</p>` : null}
    ${rows.map((r) => {
      const name = r.seat === me ? "You" : playerName(players[r.seat], r.seat);
      const melds = r.melds || [];
      return html`<div class="sd-row" key=${r.seat}>
        <h3>${name}${r.winner ? html` <span class="badge">★ won</span>` : null}</h3>
        ${dk
          ? html`<p class="sd-cards"><span class="sd-tag">${categoryWords(r.category)}</span>
              ${(r.poker_hand || []).map((c) => html`<span class="mini ${cardTone(c)}">${pretty(c)}</span>`)}</p>`
          : melds.map((m) => html`<p class="sd-cards"><span class="sd-tag">Meld</span>
              ${m.map((c) => html`<span class="mini ${cardTone(c)}">${pretty(c)}</span>`)}</p>`)}
        <p class="sd-cards"><span class="sd-tag">Deadwood</span>
          ${(r.deadwood || []).length
            ? r.deadwood.map((c) => html`<span class="mini ${cardTone(c)}">${pretty(c)}</span>`)
            : html`<span class="mini">none</span>`}</p>
        <p class="sd-math">
          ${dk
            ? html`${r.hand_points ?? 0} hand − ${r.deadwood_points ?? 0} deadwood ${num(r.pot)} pot${r.suspicion ? html` − ${Math.abs(r.suspicion)} suspicion` : null}${" "}
                = <strong>${r.score ?? r.round_score ?? 0}</strong>`
            : html`Count ${r.count ?? r.deadwood_points ?? 0} · hand score${" "}
                <strong>${num(r.score ?? r.round_score)}</strong>`}
        </p>
      </div>`;
    })}
  </div>`;
}

const OUTCOME_WORDS = {
  knock: "knocked",
  rummy: "went rummy",
  gin: "went gin",
  undercut: "was undercut",
};

function outcomeLine(result, players, me) {
  if (result.outcome === "void") return "The stock ran dry: a void hand, nobody scores.";
  if (result.dry) return "The stock ran dry: a showdown with no knock and no pot.";
  const who = (seat) => (seat === me ? "You" : playerName(players[seat], seat));
  const ender = result.ender ?? result.knocker;
  if (ender == null) return null;
  const verb = OUTCOME_WORDS[result.outcome] || "knocked";
  return `${who(ender)} ${verb}.`;
}

function cardTone(c) {
  const p = parseCard(c);
  return p && (p.suit === "h" || p.suit === "d") ? "red" : "black";
}

// Accept {seats: [...]}, {players: [...]}, or parallel arrays keyed by field.
export function resultRows(result) {
  if (Array.isArray(result.arrangements) || Array.isArray(result.counts)) {
    // Knock Rummy / Gin: each hand's melds and deadwood as the game arranged them.
    const n = (result.scores || result.counts || []).length;
    const rows = [];
    for (let i = 0; i < n; i += 1) {
      const arr = (result.arrangements || [])[i] || {};
      rows.push({
        seat: i,
        melds: arr.melds || [],
        deadwood: arr.deadwood || (result.hands || [])[i] || [],
        count: (result.counts || [])[i],
        score: (result.scores || [])[i],
        winner: (result.winners || []).includes(i),
      });
    }
    return rows;
  }
  const list = result.seats || result.players;
  if (Array.isArray(list)) return list.map((r, i) => ({ seat: r.seat ?? i, ...r }));
  const n = (result.scores || result.round_scores || []).length;
  const rows = [];
  for (let i = 0; i < n; i += 1) {
    const pick = (k) => (Array.isArray(result[k]) ? result[k][i] : undefined);
    rows.push({
      seat: i,
      poker_hand: pick("poker_hands"),
      category: pick("categories"),
      deadwood: pick("deadwood"),
      hand_points: pick("hand_points"),
      deadwood_points: pick("deadwood_points"),
      pot: pick("pot"),
      suspicion: pick("suspicion"),
      melds: pick("melds"),
      score: pick("scores") ?? pick("round_scores"),
      winner: Array.isArray(result.winners) && result.winners.includes(i),
    });
  }
  return rows;
}

// The trail's own summary of a table or gunfight: what was won, opened and unlocked.
function TrailSummary({ matchId }) {
  const [sum, setSum] = useState(null);
  useEffect(() => {
    api
      .get(`/api/trail/summaries/${encodeURIComponent(matchId)}`)
      .then(setSum)
      .catch(() => setSum(null));
  }, [matchId]);
  if (!sum) return null;
  return html`<div class="trail-summary">
    <p><strong>${sum.title}</strong>${sum.town ? `, ${sum.town}` : ""}</p>
    <ul>
      ${sum.table_won ? html`<li>Table won. The next one is open.</li>` : null}
      ${sum.town_completed ? html`<li>Every table in ${sum.town_completed} is yours.</li>` : null}
      ${sum.town_opened ? html`<li>The trail leads on to ${sum.town_opened}.</li>` : null}
      ${sum.reward ? html`<li>Reward collected: $${sum.reward}.</li>` : null}
      ${sum.big_hand ? html`<li>Big hand: ${categoryWords(sum.big_hand)}.</li>` : null}
      ${(sum.unlocked || []).map((u) => html`<li key=${u}><strong>New Deck Unlocked.</strong>
        A new card back waits in your profile.</li>`)}
      ${(sum.headlines || []).map((h) => html`<li key=${h}><em>${h}</em></li>`)}
    </ul>
  </div>`;
}

function MatchComplete({ obs, result, players, me, onClose, matchId, trail }) {
  const outcome = outcomeFor(obs, result);
  const totals = obs.totals || [];
  const order = totals.map((t, i) => [t, i]).sort((a, b) => b[0] - a[0]);
  const heading = outcome === "win" ? "Nice win!" : outcome === "tie" ? "A shared win!" : "Match Complete";
  return html`<${Modal} title=${heading} onClose=${onClose} backdropCloses=${true}>
    <p>${outcome === "win" ? "You took the table." : outcome === "tie" ? "You split the honours." : "Better luck at the next table."}</p>
    <ol class="summary">
      ${order.map(([t, i]) => html`<li key=${i}>${i === me ? "You" : playerName(players[i], i)}: <strong>${t}</strong></li>`)}
    </ol>
    ${trail ? html`<${TrailSummary} matchId=${matchId} />` : null}
    ${obs.last_result
      ? html`<details class="last-round"><summary>The last ${isDK(obs) ? "round" : "hand"}</summary>
          <${Showdown} result=${obs.last_result} players=${players} me=${me} dk=${isDK(obs)} />
        </details>`
      : null}
    ${outcome === "win" ? html`<${A2HSHint} matchId=${matchId} />` : null}
    <p class="tap-out">Tap outside to return to town.</p>
    <button class="btn gold" onClick=${onClose}>Return to town</button>
  <//>`;
}

export { optional };
