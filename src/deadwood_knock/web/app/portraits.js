// @ts-check
// Portraits: the content's art when a character has one, else a drawn silhouette with initials,
// tinted from the name so each opponent is told apart by more than colour.
import { html, useState, useEffect } from "./lib.js";
import { api } from "./api.js";

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

// Likenesses offered on the welcome screen and in the profile come from the server
// (GET /api/likenesses, the trail content), fetched once per page load. The ids are what the
// server stores on the profile; the last list is kept so an offline start can still show it.
const LIKENESS_KEY = "dk.likenesses.v1";
let likenessList = readStoredLikenesses();
let likenessPromise = null;

function readStoredLikenesses() {
  try {
    const stored = JSON.parse(localStorage.getItem(LIKENESS_KEY) || "[]");
    return Array.isArray(stored) ? stored : [];
  } catch {
    return [];
  }
}

function fromServer(items) {
  return items.map((l) => ({ id: l.id, name: l.name, portrait_url: l.svg_url }));
}

/** @returns {Promise<{id: string, name: string, portrait_url: string}[]>} */
export function loadLikenesses() {
  if (!likenessPromise) {
    likenessPromise = api
      .get("/api/likenesses")
      .then((body) => {
        likenessList = fromServer((body && body.likenesses) || []);
        try {
          localStorage.setItem(LIKENESS_KEY, JSON.stringify(likenessList));
        } catch {
          // Storage full or blocked: the list is simply fetched again next time.
        }
        return likenessList;
      })
      .catch(() => {
        likenessPromise = null; // try again on the next screen
        return likenessList;
      });
  }
  return likenessPromise;
}

// The likenesses as a hook: the stored list at once, the server's list when it arrives.
export function useLikenesses() {
  const [list, setList] = useState(likenessList);
  useEffect(() => {
    let live = true;
    loadLikenesses().then((got) => live && setList(got));
    return () => {
      live = false;
    };
  }, []);
  return list;
}
