// @ts-check
// Your hand: held as the engine groups it, one card in the Tab order, arrow keys between
// cards; a card is live only when a legal action plays it.
import { html } from "./lib.js";
import { CardFace, pretty, sameCard, sortHand } from "./cards.js";

// The hand as a player would hold it: the engine's groups first, in the engine's order
// (Deadwood Knock: the poker hand of the scoring split as it reads, a straight low to high,
// a full house its three first; Knock Rummy: each meld), then the rest by suit and rank;
// each group is underlined.
/**
 * @param {string[]} hand
 * @param {any} obs
 * @param {boolean} dk
 * @returns {{card: string, group: string | null, end: boolean}[]}
 */
function handGroups(hand, obs, dk) {
  const groups = dk
    ? [(obs.evaluation && obs.evaluation.poker_hand) || []]
    : ((obs.arrangement && obs.arrangement.melds) || []);
  const left = [...hand];
  const out = [];
  groups.forEach((group, g) => {
    const cards = [];
    for (const c of group) {
      const at = left.findIndex((x) => sameCard(x, c));
      if (at >= 0) cards.push(left.splice(at, 1)[0]);
    }
    cards.forEach((card, i) => out.push({ card, group: g % 2 ? "b" : "a", end: i === cards.length - 1 }));
  });
  for (const card of sortHand(left)) out.push({ card, group: null, end: false });
  return out;
}

export function Hand({ hand, obs, dk, large, busy, reveals, pickSet, selected, drawn, arriving, canSelect, onPick }) {
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
