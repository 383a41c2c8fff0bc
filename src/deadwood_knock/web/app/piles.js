// @ts-check
// The stock, the discard pile and (with Sleight of Hand, when legal) Palm. Each is a button
// live only when a legal action takes from it.
import { html } from "./lib.js";
import { CardFace, CardBack, pretty } from "./cards.js";
import { figure } from "./games.js";
import { num } from "./showdown.js";

/**
 * @param {{obs: any, back: string, large: boolean, busy: boolean,
 *   sourceLive: (source: string) => boolean, palmLive: boolean,
 *   onSource: (source: string) => void, arriving: Set<string>}} props
 */
/** @param {string} game */
function palmTitle(game) {
  const suspicion = figure(game, "suspicion");
  const risk = suspicion != null ? ` ${num(suspicion)} suspicion if you don't top the round.` : "";
  return `Palm: take the card under the top discard; the top one is set aside.${risk}`;
}

export function Piles({ obs, back, large, busy, sourceLive, palmLive, onSource, arriving }) {
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
          aria-describedby="action-help" title=${palmTitle(obs.game)}
          onClick=${() => onSource("palm")}>
          <${CardBack} back=${back} />
          </button><span class="pile-label">Palm</span></div>`
      : null}
  </div>`;
}
