// @ts-check
// The table log: every public event in plain words, from the events the server sends (the
// client adds no fact of its own). A seat's private event (the card you drew from the stock)
// is folded into your own line; nobody else's private events ever reach the client.
import { html, useEffect, useRef, useState } from "./lib.js";
import { pretty } from "./cards.js";

const MOVES = new Set(["draw", "discard", "knock", "stand", "call", "fold", "reveal", "rummy"]);
const PRIVATE_DRAWS = new Set(["stock_card", "draw_card"]);

/** @param {{type: string, seat?: number}} ev @returns {boolean} */
export function isMove(ev) {
  return MOVES.has(ev.type) && ev.seat != null;
}

function signed(n) {
  if (n == null) return "0";
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : "0";
}

function cards(list) {
  return (list || []).map(pretty).join(" ");
}

/**
 * Names a seat: the player's own is "You" at the start of a sentence and "you" inside one
 * ("Luke Short knocked and you undercut."), so `inside` is true wherever a name does not
 * open its sentence.
 * @typedef {(seat: number, inside?: boolean) => string} Who
 */

/** "A", "A and B", "A, B and C". @param {string[]} names @returns {string} */
export function listNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// One version's events as log lines: [{type, seat, text, tone}].
/** @param {any[]} events @param {Who} who @param {number} me */
export function describeEvents(events, who, me) {
  const inside = (seat) => who(seat, true);
  const lines = [];
  // `at`: the index of the event the line tells of, so a remark drawn by that event can sit
  // straight after it (withTalk).
  let i = 0;
  const add = (ev, text, tone = "move") => lines.push({ type: ev.type, seat: ev.seat ?? null, text, tone, at: i });
  for (i = 0; i < events.length; i += 1) {
    const ev = events[i];
    const name = ev.seat != null ? who(ev.seat) : "";
    switch (ev.type) {
      case "deal": {
        const n = ev.round ?? ev.hand;
        const label = ev.round != null ? "Round" : "Hand";
        const up = ev.flipped ?? ev.upcard;
        add(ev, `${label} ${n}: ${inside(ev.dealer)} dealt${up ? `; ${pretty(up)} turned up` : ""}.`, "deal");
        break;
      }
      case "draw": {
        const next = events[i + 1];
        if (ev.source === "stock") {
          const own = next && PRIVATE_DRAWS.has(next.type) && next.seat === ev.seat ? next.card : null;
          const card = ev.card || own;
          add(ev, card ? `${name} drew ${pretty(card)} from the stock.` : `${name} drew from the stock.`);
        } else if (ev.source === "palm") {
          add(ev, `${name} palmed: set ${pretty(ev.cover)} aside and took ${pretty(ev.card)}.`);
        } else {
          add(ev, `${name} took ${pretty(ev.card)} from the discard pile.`);
        }
        break;
      }
      case "discard":
        add(ev, `${name} discarded ${pretty(ev.card)}.`);
        break;
      case "knock":
        add(ev, `${name} knocked.`, "knock");
        break;
      case "rummy":
        add(ev, `${name} went rummy!`, "knock");
        break;
      case "stand":
        add(ev, `${name} stood pat.`);
        break;
      case "call":
        add(ev, `${name} called.`, "knock");
        break;
      case "fold":
        add(ev, `${name} folded.`, "knock");
        break;
      case "reveal":
        add(ev, `${name} showed ${cards(ev.poker_hand)}.`);
        break;
      case "reshuffle":
        add(ev, `The stock ran out: the discard pile under its top card was shuffled into a new stock of ${ev.stock_size}.`, "info");
        break;
      case "turn_over":
        add(ev, `The stock ran out: the discard pile was turned over as the new stock (${ev.stock_size} cards).`, "info");
        break;
      case "stock_out":
        add(ev, "The stock is out for good: a showdown with no knock and no pot.", "info");
        break;
      case "void":
        add(ev, `The hand is void (${ev.reason}): nobody scores.`, "result");
        break;
      case "round_result": {
        const parts = (ev.round_scores || []).map((s, seat) => `${inside(seat)} ${signed(s)}`);
        const suspicion = (ev.suspicion || [])
          .map((s, seat) => (s ? `${inside(seat)} ${signed(s)} suspicion` : null))
          .filter(Boolean);
        add(ev, `Round ${ev.round} scored: ${[...parts, ...suspicion].join(", ")}.`, "result");
        break;
      }
      case "hand_result": {
        if (ev.outcome === "void") break; // the void event said it
        const parts = (ev.scores || []).map((s, seat) => `${inside(seat)} ${signed(s)}`);
        const won = (ev.winners || []).map(inside);
        // A Gin knock logs as "knocked"; the outcome says when it was gin or an undercut.
        const how = { gin: " (gin)", undercut: " (undercut)" }[ev.outcome] || "";
        add(ev, `Hand ${ev.hand} to ${listNames(won)}${how}: ${parts.join(", ")}.`, "result");
        break;
      }
      case "match_over":
      case "game_over": {
        const won = (ev.winners || []).map(inside);
        const best = (ev.totals || [])[(ev.winners || [])[0]];
        const verb = won.length === 1 && (ev.winners || [])[0] !== me ? "wins" : "win";
        add(ev, `Match over: ${listNames(won)} ${verb} with ${best}.`, "result");
        break;
      }
      case "forfeit":
        add(ev, `${name} forfeited the match.`, "result");
        break;
      default:
        break; // deals of private hands, the showdown's layout (the result says it)
    }
  }
  return lines.map((l) => (l.seat === me ? { ...l, mine: true } : l));
}

/**
 * The log with the remarks said at the table woven in, each straight after the line of the
 * event that drew it (its log part, and `at`, the event's index in that part: a knock's
 * remark follows "… knocked." even when the discard and the hand's result came with it),
 * greetings first: "King Fisher: “Knocking, and I like it.”". A remark without `at` follows
 * its whole part. The words are the ones the seat's bubble showed.
 * @param {any[]} lines the log's lines (each with its part, and `at` from describeEvents)
 * @param {{part: number, at?: number, seat: number, text: string}[]} said in the order they
 *   were said
 * @param {(seat: number) => string} name
 * @param {number} since the oldest part the log still keeps (it drops its oldest parts, and
 *   their remarks go with them)
 */
export function withTalk(lines, said, name, since = 0) {
  if (!said.length) return lines;
  const out = [];
  let next = 0;
  if (since > 0) while (next < said.length && said[next].part < since) next += 1;
  const talk = (s, i) => ({
    type: "talk", seat: s.seat, tone: "talk", key: `talk:${s.part}:${s.seat}:${i}`,
    text: `${name(s.seat)}: “${s.text}”`,
  });
  for (const line of lines) {
    const before = (s) => s.part < line.part || (s.part === line.part && (s.at ?? Infinity) < (line.at ?? 0));
    while (next < said.length && before(said[next])) {
      out.push(talk(said[next], next));
      next += 1;
    }
    out.push(line);
  }
  for (; next < said.length; next += 1) out.push(talk(said[next], next));
  return out;
}

// The log as an ARIA live region. On a phone it is a one-line strip that opens to the whole
// log; on a desktop a panel. New lines scroll into view.
export function TableLog({ entries, open, onToggle }) {
  const list = useRef(null);
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
    setCount(entries.length);
  }, [entries.length, open]);
  // On a desktop the panels above the log grow and shrink with the hint, and the log's box
  // with them: if the newest line was in view at the old height, keep it in view. (Read
  // against the old height, not from scroll events, which can arrive after the resize.)
  useEffect(() => {
    const el = list.current;
    if (!el) return undefined;
    let height = el.clientHeight;
    const resized = new ResizeObserver(() => {
      const wasAtEnd = el.scrollHeight - el.scrollTop - height < 4;
      height = el.clientHeight;
      if (wasAtEnd) el.scrollTop = el.scrollHeight;
    });
    resized.observe(el);
    return () => resized.disconnect();
  }, []);
  const last = entries[entries.length - 1];
  return html`<section class=${`panel table-log${open ? " open" : ""}`} aria-label="Table log">
    <h2 class="log-title">
      <button class="log-toggle" aria-expanded=${open ? "true" : "false"} aria-controls="table-log-list"
        onClick=${onToggle}>
        <span class="log-word">Table log</span>
        <span class="log-last" aria-hidden="true">${last ? last.text : "The cards are dealt."}</span>
      </button>
    </h2>
    <div id="table-log-list" class="log-list" role="log" aria-live="polite" aria-relevant="additions"
      aria-label="Table log entries" tabindex="0" ref=${list} data-count=${count}>
      <ol class="log-items">
      ${entries.map((e) => html`<li key=${e.key} class=${`log-${e.tone}${e.mine ? " mine" : ""}`}
        data-version=${e.version} data-type=${e.type} data-seat=${e.seat ?? ""}>${e.text}</li>`)}
      </ol>
    </div>
  </section>`;
}
