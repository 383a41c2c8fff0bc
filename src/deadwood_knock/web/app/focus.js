// @ts-check
// Hand Focus (Deadwood Knock) and Your Count (Knock Rummy, Gin): the seat's own hand as the
// engine evaluates it, and the strong bot's advice on your turn. On a phone they open as a
// sheet from the bar at the bottom; on a desktop they stand beside the felt.
import { html } from "./lib.js";
import { lowestAfter, pretty } from "./cards.js";
import { categoryWords, MiniCards, num, signed } from "./showdown.js";
import { gameFacts } from "./games.js";

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

function SheetHead({ title, onClose }) {
  return html`<div class="sheet-head">
    <h2>${title}</h2>
    <button class="btn small ghost sheet-close" onClick=${onClose} aria-label=${`Close ${title}`}>✕</button>
  </div>`;
}

// The phone's bar: the hand at a glance, each figure named (a bare "+37" meant nothing
// to a newcomer). Deadwood Knock gives the knock count its own line until someone knocks,
// so the figure that says whether a knock is open is never the part cut off.
/** @param {any} obs the seat's observation @param {boolean} dk a poker-split game @returns {string[]} */
export function focusLines(obs, dk) {
  if (dk) {
    const ev = obs.evaluation;
    if (!ev) return ["Hand Focus"];
    const hand = `${categoryWords(ev.category)} · score ${signed(ev.score)}`;
    // Once someone has knocked, no knock is left to count toward, and the call question
    // needs the line (it scrolled a 740-px phone by 5 px).
    if (obs.knocker != null) return [hand];
    return [hand, `knock count ${num(ev.knock_count)}`];
  }
  const arr = obs.arrangement;
  if (!arr) return ["Your count"];
  // Holding a card to throw, the count that matters is the one a discard leaves.
  const low = lowestAfter(obs);
  if (low) return [`Count ${low.count} after a discard`];
  const melds = (arr.melds || []).length;
  return [`Count ${arr.count} · ${melds} meld${melds === 1 ? "" : "s"}`];
}

// After a knock, only what the engine's phase and seats say: the knocker has no final
// turn, and a final turn is the seat's own only while the engine says so.
/** @param {any} obs the seat's observation @returns {string} */
function afterKnock(obs) {
  if (obs.knocker === obs.seat) return "You knocked: your hand stands as it is for the showdown.";
  if (obs.final_turn) return "Someone has knocked: this is your final turn, so make it count.";
  if (obs.phase === "final") return "Someone has knocked: everyone else gets one final turn.";
  if (obs.phase === "call") {
    return obs.to_act === obs.seat ? "Someone has knocked: call or fold." : "Someone has knocked: the table calls or folds.";
  }
  return "Someone has knocked: the hands go to the showdown.";
}

/**
 * What the knock count allows, from the observation's own facts (DK2, DK4): a knock only at
 * the start of your turn, while nobody has knocked this round. The terminal says the same
 * (tui/words.py, knock_words). A count low enough to knock while another seat was to act
 * read "knocking needs 11 or less".
 * @param {any} obs the seat's observation @param {boolean} canKnock a knock is legal now
 * @param {number|null} limit the knock limit @returns {string}
 */
export function knockHint(obs, canKnock, limit) {
  const ev = obs.evaluation;
  const count = ev ? ev.knock_count : null;
  if (obs.knocker != null) return afterKnock(obs);
  if (count == null || limit == null) return "Keep deadwood low and build your poker hand.";
  if (obs.phase !== "play") return `Knock count ${num(count)}: no knock, the round is over.`;
  if (count > limit) return `Knock count ${num(count)}: knocking needs ${limit} or less.`;
  if (canKnock) return `Knock count ${num(count)}: you may knock now.`;
  return `Knock count ${num(count)}: low enough to knock on your turn.`;
}

export function HandFocus({ obs, canKnock, advice, open, onClose }) {
  const ev = obs.evaluation || null;
  const knockCount = ev ? ev.knock_count : null;
  const facts = gameFacts(obs.game);
  const limit = facts ? facts.knock_limit : null;
  const hint = ev ? knockHint(obs, canKnock, limit) : "Your hand's numbers appear here.";
  return html`<aside class=${`panel focus sheet${open ? " open" : ""}`} aria-label="Hand Focus" id="sheet-focus" tabindex="0">
    <${SheetHead} title="Hand Focus" onClose=${onClose} />
    <dl>
      <div><dt>Best hand</dt><dd>${categoryWords(ev && ev.category)}</dd></div>
      <div><dt>Hand points</dt><dd>${ev ? ev.hand_points ?? "—" : "—"}</dd></div>
      <div><dt>Deadwood</dt><dd>${ev && ev.deadwood_points != null ? num(ev.deadwood_points) : "—"}</dd></div>
      <div><dt>Knock count</dt><dd>${knockCount == null ? "—" : num(knockCount)}</dd></div>
      <div><dt>Score now</dt><dd>${ev && ev.score != null ? num(ev.score) : "—"}</dd></div>
    </dl>
    ${ev && ev.poker_hand
      ? html`<p class="focus-cards">Poker hand: ${ev.poker_hand.map(pretty).join(" ")}
          ${ev.deadwood && ev.deadwood.length ? html`<br/>Deadwood: ${ev.deadwood.map(pretty).join(" ")}` : null}</p>
          <p class="hint">In your hand a gold line marks the poker hand; the rest is deadwood.</p>`
      : null}
    ${advice ? html`<${Advice} advice=${advice} />` : html`<p class="hint">${hint}</p>`}
  </aside>`;
}

// Whether a matched hand can still go out: on the seat's turn, on a later turn, or (nobody
// to act: the match is over) not at all, which is then left unsaid.
function goingOut(obs) {
  if (obs.to_act == null) return "";
  return obs.to_act === obs.seat ? ": you can go out" : ": you can go out on your turn";
}

export function MeldPanel({ obs, advice, open, onClose }) {
  const arr = obs.arrangement;
  const low = lowestAfter(obs);
  const melds = (arr && arr.melds) || [];
  return html`<aside class=${`panel focus sheet${open ? " open" : ""}`} aria-label="Your count" id="sheet-focus" tabindex="0">
    <${SheetHead} title="Your Count" onClose=${onClose} />
    <dl>
      ${low
        ? html`<div><dt>After discard</dt><dd class="focus-after" title=${`Lowest count after a discard (${low.cards.map(pretty).join(" or ")})`}>${low.count}</dd></div>`
        : html`<div><dt>Count</dt><dd>${arr ? arr.count : "—"}</dd></div>`}
      <div><dt>Melds</dt><dd>${melds.length}</dd></div>
      ${obs.options && obs.options.knock_limit != null
        ? html`<div><dt>Knock limit</dt><dd>${obs.options.knock_limit}</dd></div>`
        : null}
    </dl>
    ${melds.map((m, i) => html`<p class="sd-cards" key=${i}><span class="sd-tag">Meld</span>
      <${MiniCards} cards=${m} /></p>`)}
    ${melds.length ? html`<p class="hint">In your hand each meld comes first, underlined.</p>` : null}
    ${advice
      ? html`<${Advice} advice=${advice} />`
      : html`<p class="hint">${arr && arr.rummy
          ? `Every card is matched${goingOut(obs)}.`
          : "Lower your count: build sets and runs of three or more."}</p>`}
  </aside>`;
}

/**
 * The scores as the table shows them: while a showdown is open the view behind it is the
 * one from before the round was scored, so its totals (and, in Deadwood Knock, its round
 * columns) take the showdown's result, the totals the dialog itself prints.
 * @param {any} obs the view's observation @param {any} showdown the open showdown's result, or null
 * @returns {any}
 */
export function scoresShown(obs, showdown) {
  if (!showdown || !Array.isArray(showdown.totals)) return obs;
  const results = Array.isArray(obs.results) ? obs.results : null;
  const known = results && showdown.round != null && results.some((r) => r.round === showdown.round);
  return {
    ...obs,
    totals: showdown.totals,
    ...(results && showdown.round != null && !known ? { results: [...results, showdown] } : {}),
  };
}

export function Scores({ obs, who, me, open, onClose, onReview, reviewLabel }) {
  const totals = obs.totals || [];
  const results = Array.isArray(obs.results) ? obs.results : [];
  return html`<aside class=${`panel scores sheet${open ? " open" : ""}`} aria-label="Scores" id="sheet-scores">
    <${SheetHead} title="Scores" onClose=${onClose} />
    <table class="score-table">
      <thead>
        <tr><th scope="col">Player</th>
          ${results.slice(-5).map((r) => html`<th scope="col" key=${r.round} class="sc-round">R${r.round}</th>`)}
          <th scope="col">Total</th></tr>
      </thead>
      <tbody>
        ${totals.map((t, i) => html`<tr key=${i} class=${i === me ? "me" : ""}>
          <th scope="row">${who(i)}</th>
          ${results.slice(-5).map((r) => html`<td key=${r.round} class="sc-round">${signed((r.round_scores || [])[i])}</td>`)}
          <td>${num(t)}</td></tr>`)}
      </tbody>
    </table>
    ${reviewLabel ? html`<button class="btn small" onClick=${onReview}>${reviewLabel}</button>` : null}
  </aside>`;
}
