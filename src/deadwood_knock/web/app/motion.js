// @ts-check
// Card moves on screen: a copy of the card flies from where it was to where it lands (stock or
// pile to a hand, a hand to the pile). Pure decoration over the real table, drawn in a layer
// that takes no clicks; nothing flies when the player asks the system for reduced motion.
import { html, render, prefersReducedMotion } from "./lib.js";
import { CardFace, CardBack } from "./cards.js";

let layer = null;

function flyLayer() {
  if (!layer || !document.body.contains(layer)) {
    layer = document.createElement("div");
    layer.className = "fly-layer";
    layer.setAttribute("aria-hidden", "true");
    document.body.appendChild(layer);
  }
  return layer;
}

/** @returns {boolean} */
export function motionAllowed() {
  return !prefersReducedMotion();
}

// The on-screen box of a place at the table: "stock", "pile", "seat:<n>" or "card:<card>".
/** @param {string | null} place "stock", "pile", "seat:N" or "card:7c" @returns {DOMRect | null} */
export function placeRect(place) {
  const el = placeElement(place);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width && r.height ? r : null;
}

function placeElement(place) {
  if (place === "stock") return document.querySelector(".pile.stock .card-svg");
  if (place === "pile") {
    return (
      document.querySelector(".pile.discard .card-svg") ||
      document.querySelector(".pile.discard .empty-pile")
    );
  }
  if (place.startsWith("seat:")) {
    return document.querySelector(`.opponent[data-seat="${place.slice(5)}"] .seat-cards`) ||
      document.querySelector(`.opponent[data-seat="${place.slice(5)}"]`);
  }
  if (place.startsWith("card:")) {
    return document.querySelector(`.hand [data-card="${place.slice(5)}"] .card-svg`);
  }
  return null;
}

// Fly one card (face up when `card` is given, else its back) between two boxes in `ms`.
// Resolves when it has landed; at once when motion is off or a box is missing.
export async function fly({ from, to, card = null, back = "deadwood", large = false, ms = 300 }) {
  if (!ms || !from || !to || !motionAllowed()) return;
  const cardLike = [from, to].find((r) => r.height > r.width * 1.2) || from;
  const w = cardLike.width;
  const h = w * 1.4;
  const el = document.createElement("div");
  el.className = "flying-card";
  el.style.width = `${w}px`;
  el.style.height = `${h}px`;
  render(card ? html`<${CardFace} card=${card} large=${large} />` : html`<${CardBack} back=${back} />`, el);
  flyLayer().appendChild(el);
  const at = (r) => {
    const scale = Math.min(1, r.width / w, r.height / h);
    const x = r.left + r.width / 2 - w / 2;
    const y = r.top + r.height / 2 - h / 2;
    return `translate(${x}px, ${y}px) scale(${Math.max(scale, 0.45)})`;
  };
  const anim = el.animate(
    [
      { transform: at(from), boxShadow: "0 2px 4px rgba(0,0,0,0.3)" },
      { transform: `${at(to)} rotate(0.01deg)`, boxShadow: "0 10px 18px rgba(0,0,0,0.35)", offset: 0.5 },
      { transform: at(to), boxShadow: "0 2px 4px rgba(0,0,0,0.3)" },
    ],
    { duration: ms, easing: "cubic-bezier(0.25, 0.7, 0.3, 1)", fill: "forwards" },
  );
  try {
    await anim.finished;
  } catch {
    // cancelled: the table moved on
  }
  render(null, el);
  el.remove();
}
