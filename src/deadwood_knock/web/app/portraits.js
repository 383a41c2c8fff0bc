// Portraits: the content's art when a character has one, else a drawn silhouette with initials,
// tinted from the name so each opponent is told apart by more than colour.
import { html } from "./lib.js";

function hash(text) {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.codePointAt(0)) >>> 0;
  return h;
}

function initials(name) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0].toUpperCase())
    .join("");
}

const TINTS = ["#8c5a2b", "#5b6f3a", "#6b3f5f", "#2f5a6b", "#7a3b2e", "#5c5040"];

export function Portrait({ name = "?", character = null, size = 56 }) {
  const src = character && (character.portrait_url || character.portrait || character.image);
  if (src && /^(\/|data:)/.test(src)) {
    return html`<img class="portrait" src=${src} width=${size} height=${size}
      alt=${`Portrait of ${name}`} />`;
  }
  const tint = TINTS[hash(name) % TINTS.length];
  return html`<svg class="portrait" width=${size} height=${size} viewBox="0 0 56 56" role="img"
      aria-label=${`Portrait of ${name}`}>
    <rect width="56" height="56" rx="8" fill=${tint}/>
    <path d="M12 22 h32 l-4 -8 h-24 z" fill="#2b1a0e"/>
    <rect x="8" y="21" width="40" height="3" rx="1.5" fill="#2b1a0e"/>
    <circle cx="28" cy="32" r="9" fill="#e8c9a0"/>
    <path d="M10 56 q18 -22 36 0 z" fill="#2b1a0e"/>
    <text x="28" y="53" text-anchor="middle" font-size="9" font-weight="700"
      fill="#f5e6c8">${initials(name)}</text>
  </svg>`;
}

// Likenesses offered on the welcome screen and in the profile: the trail content's portraits
// (art served under /art). The ids are what the server stores on the profile.
export const LIKENESSES = [
  ["drover", "Trail Drover"],
  ["tinhorn", "Tinhorn Gambler"],
  ["prospector", "Prospector"],
  ["store-clerk", "Store Clerk"],
  ["buffalo-hunter", "Buffalo Hunter"],
  ["river-man", "River Man"],
  ["town-deputy", "Town Deputy"],
  ["mule-skinner", "Mule Skinner"],
  ["lady-dealer", "Lady Dealer"],
  ["lady-rancher", "Lady Rancher"],
  ["lady-teacher", "Schoolteacher"],
  ["lady-singer", "Variety Singer"],
].map(([id, name]) => ({ id, name, portrait_url: `/art/likenesses/${id}.svg` }));
