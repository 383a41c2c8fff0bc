// @ts-check
// The seats around the table: each opponent's portrait, name, points, cards (backs only,
// with the count), dealer chip, Knocked / Called / Folded and "thinking…"; the newest remark
// in character under them. Only public facts of the view are shown here.
import { html } from "./lib.js";
import { Portrait } from "./portraits.js";
import { num } from "./showdown.js";
import { backArt } from "./cards.js";

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
export function characterFor(p, characters, details) {
  if (!p || typeof p !== "object") return null;
  if (details && details[p.seat]) return details[p.seat];
  if (!characters) return null;
  return characters.find((c) => (p.bot && c.bot === p.bot) || c.id === p.character) || null;
}

export function seatName(p, i, ch) {
  return ch && ch.name ? ch.name : playerName(p, i);
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

function Seat({ seat, obs, totals, name, character, over, art }) {
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
      <span class="opp-meta"><span class="opp-pts">${num((totals || [])[seat] ?? 0)} pts</span>
        <span class="seat-cards" aria-hidden="true">
          ${Array.from({ length: Math.min(count || 0, 11) }, (_, i) => html`<i key=${i} class="mini-back"
            style=${art ? `background-image: url("${art}")` : undefined}></i>`)}
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

/**
 * The other seats, in playing order from yours. ``totals``: the scores as the table shows
 * them (table.js ``scored``: a showdown's totals while it is open).
 * @param {{others: number[], obs: any, totals: number[], players?: any[],
 *   names: (seat: number) => string, characterOf: (seat: number) => any, over: boolean,
 *   back: string, talk: Record<string, {text: string, at: number}>}} props
 */
export function Opponents({ others, obs, totals, names, characterOf, over, back, talk }) {
  // Three or more opponents sit in one row of narrow seats on a phone (styles.css): in
  // rows of two, five of them took 195 px and pushed Stand below a 740-px screen.
  const art = backArt(back); // the player's back: one deck at the table
  return html`<ul class=${`opponents${others.length >= 3 ? " many" : ""}`} aria-label="Opponents">
      ${others.map((seat) => html`<${Seat} key=${seat} seat=${seat} obs=${obs} totals=${totals} name=${names(seat)}
        character=${characterOf(seat)} over=${over} art=${art} />`)}
    </ul>
    <${TalkLine} talk=${talk} names=${names} />`;
}
