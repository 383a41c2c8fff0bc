// @ts-check
// Table talk: short lines in each opponent's voice, keyed by what just happened at the table.
// A character from the content may bring its own lines ("lines": {event: [..]}); these are the
// fallbacks, written for this client.
const FALLBACK = {
  knock: [
    "That's my knock. Let's see what you're holding.",
    "I'll rap the table right here.",
    "Knock knock. Make your last turn count.",
  ],
  call: ["I'll call. Ten says my hand is better.", "Count me in.", "I've seen worse. I call."],
  fold: ["Not this time.", "I'll sit this one out.", "Too rich for my blood."],
  palm: ["Nothing up my sleeve, friend.", "Did you see something? I didn't."],
  draw_discard: ["I'll take that off your hands.", "Much obliged for the card."],
  win_round: ["The cards favour me tonight.", "That'll do nicely."],
  stand: ["I'll stand pat.", "Happy with what I've got."],
  rummy: ["Rummy! Every card in its place."],
  greet: ["Pull up a chair.", "Deal me in, stranger.", "Evening. Mind your deadwood."],
};

// Our talk kinds, and the content's situations that can voice them (first match wins). A
// fold is not a lost round: a character's "lose" lines speak to a winner ("That one's
// yours"), and at a fold nobody has won yet, so a fold says a fold line.
const SITUATIONS = {
  greet: ["greeting"],
  knock: ["knock"],
  call: ["call", "bluff"],
  fold: ["fold"],
  palm: ["palm", "bluff"],
  win_round: ["win"],
  stand: ["stand"],
  rummy: ["win"],
  draw_discard: [],
};

function ownLines(character, kind) {
  if (!character || !Array.isArray(character.table_talk)) return null;
  for (const situation of SITUATIONS[kind] || []) {
    const lines = character.table_talk.filter((t) => t.situation === situation).map((t) => t.line);
    if (lines.length) return lines;
  }
  return null;
}

/** @param {string} kind @param {number} seat @param {number} salt @param {any} character @returns {string | null} */
export function lineFor(kind, seat, salt, character) {
  const own = ownLines(character, kind);
  const pool = own && own.length ? own : FALLBACK[kind];
  if (!pool) return null;
  return pool[Math.abs(seat * 7 + salt) % pool.length];
}

// Map an engine event to a talk kind, or null when the event is not worth a remark.
/** @param {any} ev @returns {string | null} */
export function talkKind(ev) {
  const t = ev.type || ev.kind;
  if (t === "say" || t === "talk" || t === "chat") return "say";
  if (t === "knock" || t === "knocked") return "knock";
  if (t === "call" || t === "called") return "call";
  if (t === "fold" || t === "folded") return "fold";
  if (t === "palm" || t === "palmed") return "palm";
  if (t === "stand" || t === "stood") return "stand";
  if (t === "rummy") return "rummy";
  if ((t === "draw" || t === "drew" || t === "take") && ev.source === "discard") {
    return "draw_discard";
  }
  return null;
}
