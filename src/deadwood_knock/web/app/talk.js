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
  // Said to the round's winner by a seat that lost it.
  lose_round: [
    "Well played. That one's yours.",
    "You earned that one, friend.",
    "Enjoy it. I'll have it back before sunup.",
  ],
  stand: ["I'll stand pat.", "Happy with what I've got."],
  rummy: ["Rummy! Every card in its place."],
  greet: ["Pull up a chair.", "Deal me in, stranger.", "Evening. Mind your deadwood."],
};

// Our talk kinds, and the content's situations that can voice them (first match wins). A
// fold is not a lost round: a character's "lose" lines speak to a winner ("That one's
// yours"), and at a fold nobody has won yet, so a fold says a fold line. "win" and "lose"
// are said once a round is scored (roundRemark).
const SITUATIONS = {
  greet: ["greeting"],
  knock: ["knock"],
  call: ["call", "bluff"],
  fold: ["fold"],
  palm: ["palm", "bluff"],
  win_round: ["win"],
  lose_round: ["lose"],
  // Said when the table caught a palm (the palmer got Suspicion): another seat calls it out.
  caught: ["palm_caught"],
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

// A character speaks in its own words only: a moment it has no line for passes in silence
// (the stock lines are for bots that are not characters). Each line a character has for a
// moment would otherwise be heard at every such move of a match.
// ``byRound``: the salt counts the seat's remarks at round ends (roundRemark) and its lines
// are said in turn, so a seat never says the same line at two remarks running.
/**
 * @param {string} kind @param {number} seat @param {number} salt @param {any} character
 * @param {boolean} [byRound]
 * @returns {string | null}
 */
export function lineFor(kind, seat, salt, character, byRound = false) {
  const own = ownLines(character, kind);
  const isCharacter = Boolean(character && Array.isArray(character.table_talk));
  const pool = own && own.length ? own : isCharacter ? null : FALLBACK[kind];
  if (!pool) return null;
  const n = pool.length;
  return pool[byRound ? (salt + mix(seat) % n) % n : pick(n, seat, salt)];
}

// An index below ``n`` mixed from the seat and the salt (an event's version, a round's
// number). Not ``(seat * 7 + salt) % n``: a seat's turns come a table's width of versions
// apart, so at a three-seat table a character with three knock lines said one of them at
// five of its eight knocks and another never.
/** @param {number} n @param {number} seat @param {number} salt @returns {number} */
export function pick(n, seat, salt) {
  return (mix(seat, salt) >>> 13) % n;
}

// A multiplicative hash of a seat and a salt (pick and speaks): a seat's turns, versions a
// table's width apart, do not fall into step with it.
/** @param {number} seat @param {number} [salt] @returns {number} */
function mix(seat, salt = 0) {
  return Math.imul((salt + 1) * 31 + seat, 0x9e3779b1) >>> 0;
}

// How often a seat voices a moment: every knock and every rummy, but one call, fold, stand
// or palm in two, and one take from the pile in four, so a ten-round match does not hear the
// same line at every turn (one played at 360 px heard "I'll take that off your hands."
// fifteen times). Picked from the event's version and the seat: the same moves say the same
// after a reload. The terminal gates the same moments the same way (tui/talk.py ``EVERY``).
export const EVERY = Object.freeze({ call: 2, fold: 2, stand: 2, palm: 2, draw_discard: 4 });

/** @param {string} kind @param {number} seat @param {number} version @returns {boolean} */
export function speaks(kind, seat, version) {
  const every = /** @type {Record<string, number>} */ (EVERY)[kind] || 1;
  if (every === 1) return true;
  return (mix(seat, version) >>> 16) % every === 0;
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

/**
 * One remark when a round or hand is scored, or null. An opponent who won says a "win" line;
 * when you won, one opponent who lost says a "lose" line to you (one who did not take the pot
 * if there is one). The speaker and the line are picked from the round number and the seats,
 * so the same match always says the same. Only bots speak: a person's words are their own.
 * @param {any} result the round's result
 * @param {number} me your seat
 * @param {any[]} players the view's players (seat, kind, bot)
 * @param {(seat: number) => any} characterOf the seat's character (its table talk), if any
 * @returns {{seat: number, kind: string, text: string} | null}
 */
export function roundRemark(result, me, players, characterOf) {
  // Who won is the engine's fact (the result's ``winner``): the one top round score of a
  // round with a knock, or a hand's one winner; null when nobody did.
  const winner = result.winner ?? null;
  const round = Number(result.round ?? result.hand ?? 0);
  const isBot = (seat) => seat !== me && (!players[seat] || players[seat].kind !== "human");
  // A palm the table caught (Suspicion on a seat) is the round's talk: the winner, or else
  // the next character with a line for it, calls it out. Only characters' own lines: no
  // stock accusation for a bot without one.
  const marks = Array.isArray(result.suspicion) ? result.suspicion : [];
  if (marks.some((v) => v < 0)) {
    const seats = Math.max(players.length, marks.length);
    const order = Array.from({ length: seats }, (_, i) => i);
    if (winner != null) order.sort((a, b) => Number(b === winner) - Number(a === winner));
    for (const seat of order) {
      const own = marks[seat] < 0 || !isBot(seat) ? null : ownLines(characterOf(seat), "caught");
      if (own && own.length) return { seat, kind: "caught", text: own[pick(own.length, seat, round)] };
    }
  }
  if (winner == null) return null;
  let seat = winner;
  let kind = "win_round";
  let turn = round;
  if (winner === me) {
    const seats = Math.max(players.length, (result.totals || []).length);
    const losers = [];
    for (let i = 1; i < seats; i += 1) {
      const s = (me + i) % seats;
      if (isBot(s)) losers.push(s);
    }
    const potless = losers.filter((s) => !(result.pot_winners || []).includes(s));
    const pool = potless.length ? potless : losers;
    if (!pool.length) return null;
    seat = pool[(round * 7 + winner) % pool.length];
    kind = "lose_round";
    // The speaker comes round every pool.length rounds while you keep winning: count its
    // turns, not the rounds, or at two losers each would say one line at every turn.
    turn = Math.floor(round / pool.length);
  } else if (!isBot(winner)) {
    return null;
  }
  const text = lineFor(kind, seat, turn, characterOf(seat), true);
  return text ? { seat, kind, text } : null;
}
