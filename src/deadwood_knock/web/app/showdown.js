// @ts-check
// A round's end and the match's end. Every figure shown here is the engine's (the round or
// hand result the server sent): the client lays them out and adds no arithmetic of its own.
import { html, useEffect, useState } from "./lib.js";
import { api } from "./api.js";
import { pretty, parseCard } from "./cards.js";
import { A2HSHint, Modal } from "./dialogs.js";
import { categoryPhrase, categoryTitle, jokerPoints } from "./games.js";
import { listNames } from "./tablelog.js";

// A poker category as a label ("Full house"): the engine's words, from /api/games.
export const categoryWords = categoryTitle;

// A plain number with a true minus sign ("−31").
/** @param {number | null | undefined} n @returns {string} */
export function num(n) {
  if (n == null) return "0";
  return n < 0 ? `−${Math.abs(n)}` : String(n);
}

// "− 11 deadwood"; jokers can take deadwood below zero, and then it adds to the hand:
// "+ 2 deadwood (jokers count −2)", the joker's figure from the engine's card points (the
// terminal and Hand Focus use the same words, from games/points.py).
/** @param {number | null | undefined} points @returns {string} */
export function deadwoodTerm(points) {
  const p = points ?? 0;
  if (p >= 0) return `− ${p} deadwood`;
  const joker = jokerPoints();
  return `+ ${Math.abs(p)} deadwood (jokers count ${joker == null ? "below zero" : num(joker)})`;
}

/** @param {number | null | undefined} n @returns {string} */
export function signed(n) {
  if (n == null) return "0";
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : "0";
}

function cardTone(c) {
  const p = parseCard(c);
  return p && (p.suit === "h" || p.suit === "d") ? "red" : "black";
}

export function MiniCards({ cards }) {
  if (!cards || !cards.length) return html`<span class="mini none">none</span>`;
  return cards.map((c) => html`<span class=${`mini ${cardTone(c)}`}>${pretty(c)}</span>`);
}

// One row per seat, from either a Deadwood Knock round result or a Knock Rummy / Gin hand
// result (an observation's `last_result`, or the result events the playback collected).
/** @param {any} result a round or hand result @returns {any[]} */
export function resultRows(result) {
  const n = (result.round_scores || result.scores || result.counts || []).length;
  const at = (key, i) => (Array.isArray(result[key]) ? result[key][i] : undefined);
  const rows = [];
  for (let i = 0; i < n; i += 1) {
    const arr = (result.arrangements || [])[i] || {};
    rows.push({
      seat: i,
      poker_hand: at("poker_hands", i),
      best_five: at("best_fives", i),
      long_hand: at("long_hands", i),
      category: at("categories", i),
      deadwood: at("deadwood", i) || arr.deadwood || [],
      hand_points: at("hand_points", i),
      deadwood_points: at("deadwood_points", i),
      call: at("calls", i),
      pot: at("pot", i),
      suspicion: at("suspicion", i),
      round_score: at("round_scores", i),
      total: at("totals", i),
      melds: arr.melds || [],
      count: at("counts", i),
      score: at("scores", i),
      difference: at("difference", i),
      penalty: at("penalty", i),
      bonus: at("bonus", i),
      winner: (result.winners || result.pot_winners || []).includes(i),
    });
  }
  return rows;
}

function isDeadwoodResult(result) {
  return Array.isArray(result.round_scores);
}

// What happened to the poker pot, in one sentence, from the result's pot facts.
function potLine(result, who) {
  if (result.dry || result.knocker == null) return "No knock, so no pot this round.";
  const ins = result.pot_in || [];
  const winners = result.pot_winners || [];
  // Every name here follows a colon or a word: "you take", "Wild Bill takes".
  const inside = (seat) => who(seat, true);
  const takes = (seat) => `${inside(seat)} ${inside(seat) === "you" ? "take" : "takes"}`;
  if (!result.pot_total) return `Nobody called: ${takes(result.knocker)} ${signed((result.pot || [])[result.knocker])}.`;
  const taker = winners.length > 1 ? `${listNames(winners.map(inside))} split it` : `${takes(winners[0])} it`;
  const category = winners.length ? (result.categories || [])[winners[0]] : null;
  const withWhat = winners.length > 1 ? "equal hands" : categoryPhrase(category);
  return `Pot of ${result.pot_total} from ${listNames(ins.map(inside))}: ${taker} with ${withWhat}.`;
}

const BONUS_WORDS = { rummy: "Rummy bonus", gin: "Gin bonus", undercut: "Undercut bonus" };

const WENT = { rummy: "rummy", gin: "gin" };

function outcomeLine(result, who) {
  if (result.outcome === "void") return `A void hand${result.reason ? ` (${result.reason})` : ""}: nobody scores.`;
  if (isDeadwoodResult(result)) {
    if (result.dry) return "The stock ran dry: a showdown with no knock and no pot.";
    return result.knocker != null ? `${who(result.knocker)} knocked.` : null;
  }
  const ender = result.ender ?? result.knocker;
  if (ender == null) return null;
  // The hand's outcome ("rummy", "gin"): every card of the hand matched.
  if (result.outcome in WENT) return `${who(ender)} went ${WENT[result.outcome]}!`;
  if (result.outcome === "undercut") {
    return `${who(ender)} knocked and ${who((result.winners || [])[0], true)} undercut.`;
  }
  return `${who(ender)} knocked.`;
}

function DeadwoodRow({ r, result, name }) {
  const knocker = result.knocker === r.seat;
  const badge = knocker ? "Knocked" : r.call === "call" ? "Called" : r.call === "fold" ? "Folded" : null;
  const potWinner = (result.pot_winners || []).includes(r.seat);
  // A 6-8 card poker hand (one suit or one straight) scores its best five; the rest are
  // named apart, so a flush does not seem to hold a spade. Older results lack the fields.
  const five = r.best_five || r.poker_hand || [];
  const extra = r.long_hand ? (r.poker_hand || []).filter((c) => !five.includes(c)) : [];
  return html`<div class="sd-row" key=${r.seat}>
    <h3>${name}${badge ? html` <span class="badge">${badge}</span>` : null}${potWinner
      ? html` <span class="badge gold">★ pot</span>` : null}</h3>
    <p class="sd-cards"><span class="sd-tag">${categoryWords(r.category)}</span>
      <${MiniCards} cards=${five} /></p>
    ${extra.length
      ? html`<p class="sd-cards sd-long"><span class="sd-tag">Not deadwood</span>
          <${MiniCards} cards=${extra} />
          <span class="sd-why">${`${extra.length > 1 ? "complete" : "completes"} the ${
            (r.poker_hand || []).length}-card ${r.long_hand}`}</span></p>`
      : null}
    <p class="sd-cards"><span class="sd-tag">Deadwood</span><${MiniCards} cards=${r.deadwood} /></p>
    <p class="sd-math">${r.hand_points ?? 0} hand ${deadwoodTerm(r.deadwood_points)}${" "}
      ${result.knocker != null && (knocker || r.call === "call")
        ? html`${(r.pot ?? 0) < 0 ? "−" : "+"} ${Math.abs(r.pot ?? 0)} pot `
        : null}= <strong>${signed(r.round_score)}</strong></p>
    ${r.suspicion
      ? html`<p class="sd-line">Suspicion (palmed and did not top the round): <strong>${signed(r.suspicion)}</strong></p>`
      : null}
    ${r.total != null ? html`<p class="sd-total">Total ${num(r.total)}</p>` : null}
  </div>`;
}

function RummyRow({ r, result, name, payers }) {
  const ender = (result.ender ?? result.knocker) === r.seat;
  const words = { knock: "Knocked", undercut: "Knocked", gin: "Gin", rummy: "Rummy" };
  const badge = ender ? words[result.outcome] || "Knocked" : null;
  const laid = !ender && (result.layoffs || []).length ? result.layoffs : null;
  // A winner at a table of more than two collects a difference from each player who pays.
  const collected = (r.difference ?? 0) > 0 && payers > 1;
  const lines = [
    [collected ? `Count differences from ${payers} players` : "Count difference", r.difference],
    ["Knocker's penalty", r.penalty],
    [BONUS_WORDS[result.outcome] || "Bonus", r.bonus],
  ].filter(([, v]) => v);
  return html`<div class="sd-row" key=${r.seat}>
    <h3>${name}${badge ? html` <span class="badge">${badge}</span>` : null}${r.winner
      ? html` <span class="badge gold">★ won</span>` : null}</h3>
    ${r.melds.map((m, i) => html`<p class="sd-cards" key=${i}><span class="sd-tag">Meld</span>
      <${MiniCards} cards=${m} /></p>`)}
    ${laid ? html`<p class="sd-cards"><span class="sd-tag">Laid off</span><${MiniCards} cards=${laid} /></p>` : null}
    <p class="sd-cards"><span class="sd-tag">Deadwood</span><${MiniCards} cards=${r.deadwood} /></p>
    <p class="sd-math">Count ${r.count ?? 0}</p>
    ${lines.map(([label, v]) => html`<p class="sd-line" key=${label}>${label}: <strong>${signed(v)}</strong></p>`)}
    <p class="sd-line">Hand score: <strong>${signed(r.score)}</strong>${r.total != null
      ? html` <span class="sd-total">· total ${num(r.total)}</span>` : null}</p>
  </div>`;
}

/**
 * A round's result laid out; `remark` is the one line a seat said about it (talk.js).
 * @param {{result: any, who: import("./tablelog.js").Who, remark?: {who: string, text: string} | null}} props
 */
export function Showdown({ result, who, remark = null }) {
  const dk = isDeadwoodResult(result);
  const rows = resultRows(result);
  const payers = rows.filter((x) => (x.difference ?? 0) < 0).length;
  const which = result.round ?? result.hand;
  const outcome = outcomeLine(result, who);
  const voided = result.outcome === "void";
  return html`<div class="showdown">
    ${which != null ? html`<p class="sd-round">${dk ? "Round" : "Hand"} ${which}</p>` : null}
    ${outcome ? html`<p class="sd-outcome">${outcome}</p>` : null}
    ${dk ? html`<p class="sd-pot">${potLine(result, who)}</p>` : null}
    ${remark
      ? html`<p class="sd-talk"><span class="talk-who">${remark.who}:</span> <q class="talk">${remark.text}</q></p>`
      : null}
    ${voided
      ? null
      : rows.map((r) => {
          const name = who(r.seat);
          return dk
            ? html`<${DeadwoodRow} key=${r.seat} r=${r} result=${result} name=${name} />`
            : html`<${RummyRow} key=${r.seat} r=${r} result=${result} name=${name} payers=${payers} />`;
        })}
  </div>`;
}

export function ShowdownDialog({ result, who, onClose, closeLabel = "Continue", remark = null }) {
  const dk = isDeadwoodResult(result);
  return html`<${Modal} title=${dk ? "Showdown" : "Hand over"} onClose=${onClose} className="showdown-modal">
    <${Showdown} result=${result} who=${who} remark=${remark} />
    <div class="stack"><button class="btn gold" onClick=${onClose}>${closeLabel}</button></div>
  <//>`;
}

/** @param {any} obs @param {any} result @returns {"win" | "loss" | "tie"} */
export function outcomeFor(obs, result) {
  const me = obs.seat ?? 0;
  if (result && result.forfeited_by != null) return result.forfeited_by === me ? "loss" : "win";
  if (result && Array.isArray(result.winners) && result.winners.length) {
    if (!result.winners.includes(me)) return "loss";
    return result.winners.length > 1 ? "tie" : "win";
  }
  const totals = obs.totals || [];
  const mine = totals[me] ?? 0;
  const best = Math.max(...totals);
  if (mine < best) return "loss";
  return totals.filter((t) => t === best).length > 1 ? "tie" : "win";
}

// The trail's own summary of a table or gunfight: what was won, opened and unlocked, in the
// server's words (names, never ids; one wording per kind of result).
function useTrailSummary(matchId, trail) {
  const [sum, setSum] = useState(null);
  useEffect(() => {
    if (!trail) return;
    api
      .get(`/api/trail/summaries/${encodeURIComponent(matchId)}`)
      .then(setSum)
      .catch(() => setSum(null));
  }, [matchId, trail]);
  return sum;
}

function TrailSummary({ sum }) {
  if (!sum) return null;
  return html`<div class="trail-summary">
    <ul>
      ${(sum.lines || []).map((l) => html`<li key=${l}>${l}</li>`)}
      ${(sum.headlines || []).length
        ? html`<li class="sum-gazette">In the <a href="#/gazette">Gazette</a>: ${sum.headlines.map(
          (h, i) => html`${i ? " · " : ""}<span class="headline" key=${h}>${h}</span>`)}</li>`
        : null}
    </ul>
  </div>`;
}

export function MatchComplete({ obs, result, who, onClose, matchId, trail, lastResult, remarkOn = null }) {
  const outcome = outcomeFor(obs, result);
  const totals = obs.totals || [];
  const order = totals.map((t, i) => [t, i]).sort((a, b) => b[0] - a[0]);
  const heading = outcome === "win" ? "Nice win!" : outcome === "tie" ? "A shared win!" : "Match Complete";
  const last = lastResult || obs.last_result;
  const sum = useTrailSummary(matchId, trail);
  const forfeit = result && result.forfeited_by != null;
  const plain = outcome === "win" ? "You took the table." : outcome === "tie" ? "You split the honours."
    : forfeit ? "You left the table: a forfeit counts as a loss." : "Better luck at the next table.";
  return html`<${Modal} title=${heading} onClose=${onClose} backdropCloses=${true}>
    <p class="verdict">${sum && sum.verdict ? sum.verdict : plain}</p>
    <ol class="summary">
      ${order.map(([t, i]) => html`<li key=${i}>${who(i)}: <strong>${num(t)}</strong></li>`)}
    </ol>
    <${TrailSummary} sum=${sum} />
    ${last
      ? html`<details class="last-round"><summary>The last ${isDeadwoodResult(last) ? "round" : "hand"}</summary>
          <${Showdown} result=${last} who=${who} remark=${remarkOn ? remarkOn(last) : null} />
        </details>`
      : null}
    ${outcome === "win" ? html`<${A2HSHint} matchId=${matchId} />` : null}
    <p class="tap-out">Tap outside to return to town.</p>
    <button class="btn gold" onClick=${onClose}>Return to town</button>
  <//>`;
}
