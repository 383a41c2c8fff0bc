// @ts-check
// The buttons of your turn (Knock, Discard, Rummy, Stand; Call / Fold; Show hand), the line
// saying what to do, and the costly-knock question. Every button posts a legal action.
import { html } from "./lib.js";
import { countAfter, pretty, sameCard } from "./cards.js";
import { update } from "./store.js";
import { Modal } from "./dialogs.js";
import { deadwoodTerm, num, signed } from "./showdown.js";
import { categoryPhrase, figure } from "./games.js";

/**
 * Which controls are live, from the view's legal actions only (the client decides no rule).
 * Deadwood Knock (``dk``): the selected card goes with a draw; Knock Rummy / Gin: a draw,
 * then the selected card's discard, knock or rummy.
 * @param {any[]} legal
 * @param {boolean} dk
 * @param {string | null} selected
 */
export function legalControls(legal, dk, selected) {
  const draws = legal.filter((a) => a.type === "draw");
  /** @param {string} source */
  const sourceLive = (source) => draws.some((a) => a.source === source);
  return {
    sourceLive,
    /** @param {string} source */
    findDraw: (source) =>
      dk
        ? draws.find((a) => a.source === source && selected && sameCard(a.select, selected))
        : draws.find((a) => a.source === source),
    /** @param {string} card */
    canSelect: (card) =>
      dk
        ? draws.some((a) => sameCard(a.select, card))
        : legal.some(
            (a) =>
              (a.type === "discard" && sameCard(a.card, card)) ||
              ((a.type === "knock" || a.type === "rummy") && a.discard && sameCard(a.discard, card)),
          ),
    knockAction: dk
      ? legal.find((a) => a.type === "knock")
      : selected && legal.find((a) => a.type === "knock" && sameCard(a.discard, selected)),
    discardAction: !dk && selected && legal.find((a) => a.type === "discard" && sameCard(a.card, selected)),
    rummyAction: !dk &&
      legal.find((a) => a.type === "rummy" && (a.discard == null || (selected && sameCard(a.discard, selected)))),
    stand: legal.find((a) => a.type === "stand"),
    call: legal.find((a) => a.type === "call"),
    fold: legal.find((a) => a.type === "fold"),
    reveals: legal.filter((a) => a.type === "reveal"),
    palmLive: dk && sourceLive("palm"),
  };
}

export function Controls(p) {
  const { dk, obs, busy, selected, knockAction, discardAction, rummyAction, stand, call, fold } = p;
  const { reveals, chosenReveal, palmLive, who, onAct, onKnock } = p;
  if (call || fold) {
    const ev = obs.evaluation;
    const ante = figure(obs.game, "pot_ante");
    return html`<div class="prompt" role="group" aria-label="Call or fold">
      <p>${obs.knocker != null ? `${who(obs.knocker)} knocked. ` : ""}<span class="prompt-rule">Call puts ${ante ?? "a stake"} in the poker pot:
        the best poker hand among those in takes it. Fold stays out of it.</span>
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
      ? ((obs.hand_sizes || []).length === 2
        ? "Knock ends the round: your opponent gets one final turn, then calls or folds."
        : "Knock ends the round: the others get one final turn, then call or fold.")
      : knockHelp(obs, selected));
  }
  if (rummyAction) {
    // KR5/KR6 in figures the engine reports: a rummy is not a knock at 0, it pays more.
    const bonus = figure(obs.game, "rummy_bonus");
    const first = rummyAction.discard ? `discard ${pretty(rummyAction.discard)}; ` : "";
    help.push(`Rummy!: ${first}every card is in a meld, so each other player pays you their count${bonus != null ? ` plus ${bonus}` : ""}.`);
  }
  if (stand) help.push("Stand keeps your hand as it is.");
  const suspicion = figure(obs.game, "suspicion");
  if (palmLive) {
    help.push(`Palm takes the card under the top discard${suspicion != null ? `; ${num(suspicion)} if you don't top the round` : ""}.`);
  }
  const any = knockAction || discardAction || rummyAction || stand;
  // With a rummy open, Rummy! leads and the knock steps back: a knock at the same count
  // pays no bonus (KR6), so the gold button first must not be the lesser move.
  const rummyButton = rummyAction
    ? html`<button class="btn gold" disabled=${busy} onClick=${() => onAct(rummyAction)}>Rummy!</button>`
    : null;
  return html`<div class="actions-wrap">
    ${any
      ? html`<div class="actions" role="group" aria-label="Actions">
          ${rummyButton}
          ${knockAction
            ? html`<button class=${rummyAction ? "btn knock" : "btn knock gold"} disabled=${busy}
                aria-describedby="action-help" onClick=${() => onKnock(knockAction)}>Knock</button>`
            : null}
          ${discardAction
            ? html`<button class="btn" disabled=${busy} aria-label=${`Discard ${pretty(selected)}`}
                onClick=${() => onAct(discardAction)}>Discard ${pretty(selected)}</button>`
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

// The table plays Gin's knock (KR8: lay-offs, undercut, gin at 0): the table's own option,
// read in one place by the knock's help and the question before a knock.
/** @param {any} obs @returns {boolean} */
const playsGin = (obs) => !!(obs.options && obs.options.gin);

/**
 * What a Knock Rummy or Gin knock with this discard lays down. At Gin (KR8) the other player
 * lays off and can undercut, and a count of 0 is gin: "lowest count wins" would not hold.
 * @param {any} obs @param {string} selected @returns {string}
 */
function knockHelp(obs, selected) {
  const n = countAfter(obs, selected);
  const card = pretty(selected);
  if (!playsGin(obs)) {
    return n != null
      ? `Knock: discard ${card} and lay down a count of ${n}; lowest count wins.`
      : `Knock: discard ${card} and lay down; lowest count wins.`;
  }
  const bonus = figure(obs.game, "gin_bonus");
  const plus = bonus != null ? ` plus ${bonus}` : "";
  if (n === 0) return `Knock: discard ${card} and go gin; no lay-offs, and you score the other player's count${plus}.`;
  return n != null
    ? `Knock: discard ${card} and lay down a count of ${n}; the other player lays off on your melds, and at or under ${n} undercuts you for the difference${plus}.`
    : `Knock: discard ${card} and lay down; the other player lays off on your melds and may undercut you.`;
}

export function turnLine(v, obs, me, dk, selected, names, playback) {
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
  if (!dk && types.has("discard")) {
    // A rummy with no discard (the hand matched on the take) needs no card selected.
    const bare = v.legal.some((a) => a.type === "rummy" && a.discard == null);
    if (!selected) return bare ? "Every card is matched: go rummy, or select a card to discard." : "Select a card to discard.";
    // Only what the legal actions allow for this card: a knock or a rummy with it, or not.
    const knock = v.legal.some((a) => a.type === "knock" && sameCard(a.discard, selected));
    const rummy = bare || v.legal.some((a) => a.type === "rummy" && a.discard != null && sameCard(a.discard, selected));
    const ways = [`Discard ${pretty(selected)}`];
    if (knock) ways.push("knock with it");
    if (rummy) ways.push("go rummy");
    return ways.length === 1 ? `${ways[0]}.` : `${ways.slice(0, -1).join(", ")}, or ${ways[ways.length - 1]}.`;
  }
  return "Your turn.";
}

// The hint's own checked sentence on knocking ("Not yet: playing on is rated 26.8 points
// above knocking now (clearly).") when it has one, so the question carries the figure.
/** @param {any} advice @returns {string} */
function knockVerdict(advice) {
  const said = (advice.knock.claims || []).find((c) => c.kind === "knock_search" && c.wise === false);
  return said && said.text ? said.text : "playing on is rated above knocking now.";
}

export function KnockConfirm({ dk, obs, action, advice, onKnock, onKeep }) {
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
    ${!dk && playsGin(obs)
      ? html`<p>${knockHelp(obs, action.discard)}</p>`
      : !dk && countAfter(obs, action.discard) != null
        ? html`<p>You lay down a count of <strong>${countAfter(obs, action.discard)}</strong>; the lowest count wins the hand.</p>`
        : null}
    ${unwise ? html`<p class="knock-verdict">Hand Focus: ${knockVerdict(advice)}</p>` : null}
    ${!dk && !advice ? html`<p class="knock-verdict">Hand Focus has not weighed this knock.</p>` : null}
    <div class="stack">
      <button class="btn gold" onClick=${onKeep}>Keep playing</button>
      <button class="btn danger" onClick=${onKnock}>Knock</button>
    </div>
    <label class="toggle small"><input type="checkbox"
      onChange=${(e) => update({ knockWarning: !e.target.checked })} />
      Don't ask before a knock again (Table settings turns it back on)</label>
  <//>`;
}
