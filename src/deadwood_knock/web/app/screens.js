// @ts-check
// The screens around the table: welcome, trail map, profile & settings, records, gazette and the
// rules pages. Content that comes from optional endpoints degrades to a plain message.
import { html, useState, useEffect, navigate } from "./lib.js";
import { settings, update, restartProgress, isOffline } from "./store.js";
import { optional, api, ApiError, ensurePlayer, pushProfile, withPlayer } from "./api.js";
import { CardBack, CardFace, cardBacks, chosenBack, refreshCardBacks, pretty } from "./cards.js";
import { Portrait, useLikenesses } from "./portraits.js";
import { ConfirmDialog } from "./dialogs.js";
import { TrailMap } from "./trailmap.js";
import { ReplayList } from "./replay.js";
import { EXAMPLES } from "./examples.js";
import { categoryWords, num } from "./showdown.js";
import { figure, gameFacts, gameTitle, handPointsTable, useGames } from "./games.js";

export function Welcome() {
  const [name, setName] = useState(settings().name);
  const [likeness, setLikeness] = useState(settings().likeness);
  const [error, setError] = useState("");
  useGames();
  const dk = gameFacts("deadwood-knock");
  async function submit(e) {
    e.preventDefault();
    const clean = name.trim();
    if (!clean) {
      setError("Tell the saloon what to call you.");
      return;
    }
    navigate("/trail");
    update({ name: clean, likeness });
    try {
      await ensurePlayer();
      await pushProfile(settings());
    } catch {
      // Offline is fine: the token is fetched again before the first table.
    }
  }
  return html`<section class="screen welcome">
    <h1><small>Welcome to</small> Deadwood Knock</h1>
    <p class="lede">Draw toward the best 5-card poker hand you can, keep your leftover deadwood
      light, and pick the right moment to knock.</p>
    <form onSubmit=${submit} class="card-panel">
      <label for="name">Your name</label>
      <input id="name" name="name" autocomplete="nickname" maxlength="24" value=${name}
        onInput=${(e) => setName(e.target.value)} />
      <fieldset>
        <legend>Likeness</legend>
        <p class="hint">Optional — pick one now, or later in your profile.</p>
        <${LikenessPicker} value=${likeness} onChange=${setLikeness} />
      </fieldset>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      <button class="btn gold" type="submit">Ride in</button>
    </form>
    <${RestoreBackup} />
    <ul class="quick-rules">
      ${dk ? html`<li>You start with ${dk.hand_size} cards.</li>` : null}
      <li>Each turn: choose a discard, take 1 from the stock or the discard pile.</li>
      ${dk ? html`<li>Knock at the start of your turn when your knock count (the lowest deadwood any split of your hand leaves) is ${dk.knock_limit} or less.</li>` : null}
      <li>Call or fold: wager your poker hand against the others.</li>
      <li>Round score: hand points − deadwood + the pot.</li>
    </ul>
  </section>`;
}

// "Restore from backup" on the welcome screen: a profile backed up on another device comes
// here by email and one-time code, without making a new player first.
function RestoreBackup() {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [requestId, setRequestId] = useState(null);
  const [msg, setMsg] = useState("");
  async function send(e) {
    e.preventDefault();
    setMsg("");
    try {
      const sent = await api.post("/api/backup/restore", { email });
      setRequestId((sent && sent.request_id) || "");
      setMsg("Code sent. Check your email.");
    } catch (err) {
      setMsg(err.message);
    }
  }
  async function verify(e) {
    e.preventDefault();
    try {
      const got = await api.post("/api/backup/restore/verify", {
        email, code, request_id: requestId || undefined });
      update({ playerId: got.player_id, token: got.token, backupEmail: email });
      const me = await api.get("/api/players/me");
      update({ ...fromServerProfile(me), name: me.name || settings().name || "Stranger" });
      navigate("/trail");
    } catch (err) {
      setMsg(err.message);
    }
  }
  return html`<div class="card-panel restore">
    <h2>Played before?</h2>
    ${open
      ? html`<form onSubmit=${requestId === null ? send : verify}>
          <label for="restore-email">Email</label>
          <input id="restore-email" type="email" autocomplete="email" value=${email}
            onInput=${(e) => setEmail(e.target.value)} />
          ${requestId !== null
            ? html`<label for="restore-code">Code</label>
              <input id="restore-code" inputmode="numeric" autocomplete="one-time-code" value=${code}
                onInput=${(e) => setCode(e.target.value)} />
              <button class="btn" type="submit">Restore</button>`
            : html`<button class="btn" type="submit" disabled=${!email}>Send code</button>`}
          ${msg ? html`<p class="notice" role="status">${msg}</p>` : null}
        </form>`
      : html`<button class="btn ghost" type="button" disabled=${isOffline()} onClick=${() => setOpen(true)}>Restore from backup</button>`}
  </div>`;
}

function LikenessPicker({ value, onChange }) {
  const likenesses = useLikenesses();
  return html`<div class="likeness-grid" role="radiogroup" aria-label="Likeness">
    ${likenesses.map(
      (l) => html`<button type="button" class=${`likeness${value === l.id ? " chosen" : ""}`}
        role="radio" aria-checked=${value === l.id} aria-label=${l.name} key=${l.id}
        onClick=${() => onChange(value === l.id ? null : l.id)}>
        <${Portrait} name=${l.name} character=${l} size=${44} />
        <span>${l.name}</span>
      </button>`,
    )}
  </div>`;
}

/**
 * @param {{game?: string, opponents?: string[], options?: Record<string, any>, table_id?: string, wanted_id?: string}} body
 * @param {(message: string) => void} setError
 */
async function startTable(body, setError) {
  setError("");
  try {
    const { game, ...rest } = body;
    const opts = { ...(body.options || {}) };
    // Sleight of Hand is a table option (of the games that have it) taken from the profile.
    if ("sleight_of_hand" in defaults(game)) opts.sleight_of_hand = !!settings().sleightOfHand;
    // A trail table or poster names only itself: the server knows its game and opponents.
    const payload = rest.table_id || rest.wanted_id ? { ...rest, options: opts } : { game, ...rest, options: opts };
    const made = await withPlayer(() => api.post("/api/matches", payload));
    navigate(`/table/${made.match_id}`);
  } catch (err) {
    setError(err instanceof ApiError ? err.message : String(err));
  }
}

// Characters, never the bare ladder bots: patient enough that a round rarely ends before a
// new player's first turn. The terminal's `play` seats the same (tui/session.py).
// Titles and figures (rounds, target) are the engine's, from /api/games.
const QUICK_TABLES = [
  { id: "quick-dk", game: "deadwood-knock", opponents: ["figure:lottie-deno", "figure:luke-short"],
    blurb: (o) => `Three at the table${o.rounds ? `, ${o.rounds} rounds` : ""}.` },
  { id: "quick-kr", game: "knock-rummy", opponents: ["figure:luke-short"],
    blurb: (o) => `Heads-up, melds and knocks${o.target ? `, game to ${o.target}` : ""}.` },
  { id: "quick-gin", game: "gin", opponents: ["figure:bat-masterson"],
    blurb: () => "The classic two-hander." },
];

// A game's default table options (its figures in a blurb), or none until /api/games is in.
/** @param {string | undefined} game @returns {Record<string, any>} */
function defaults(game) {
  const f = gameFacts(game);
  return (f && f.options) || {};
}

function TableCard({ table, onPlay, offline = false }) {
  const locked = table.status === "locked";
  const won = table.status === "won" || table.status === "completed";
  const who = (table.opponents || []).map((o) => o.name).join(", ");
  return html`<li>
    <button class=${`table-btn${won ? " done" : ""}${locked ? " locked" : ""}`} disabled=${locked || offline}
      data-table=${table.id} onClick=${onPlay}>
      <strong>${table.name}</strong>
      <span class="opp-faces">${(table.opponents || []).map(
        (o) => html`<${Portrait} name=${o.name} character=${o} size=${28} key=${o.id} />`,
      )}</span>
      <span>${who}</span>
      <span class="table-terms">${gameTitle(table.game)}${
        table.rounds && "rounds" in defaults(table.game) ? ` · ${table.rounds} rounds` : ""}${
        table.stakes ? ` · stakes ${table.stakes}` : ""}</span>
      ${table.legends
        ? html`<span class="legends-badge" title=${table.legends_note || ""}>Legends table</span>`
        : null}
      <span class="table-status">${locked ? "Locked" : won ? "Won ✓" : "Open"}</span>
    </button>
    ${table.description ? html`<p class="venue-note">${table.description}</p>` : null}
    ${table.legends && table.legends_note
      ? html`<p class="legends-note">${table.legends_note}</p>`
      : null}
    <${Sources} list=${table.sources} /></li>`;
}

// Where a fact comes from: the titles, with a link where the source has one.
function Sources({ list }) {
  if (!list || !list.length) return null;
  return html`<details class="sources"><summary>Sources</summary><ul>
    ${list.map((s) => html`<li key=${s.id}>${s.url
      ? html`<a href=${s.url} target="_blank" rel="noopener noreferrer">${s.title}</a>`
      : html`<cite>${s.title}</cite>`}${s.author ? ` · ${s.author}` : ""}${
      s.publisher ? ` · ${s.publisher}` : ""}${s.year ? ` (${s.year})` : ""}</li>`)}
  </ul></details>`;
}

function Poster({ poster, townName, onPlay }) {
  const offline = isOffline();
  const locked = poster.status === "locked";
  const collected = poster.status === "collected";
  const t = poster.terms || {};
  const game = gameTitle(t.game);
  return html`<li class=${`poster${locked ? " locked" : ""}${collected ? " collected" : ""}`} data-poster=${poster.id}>
    <span class="poster-head">Wanted</span>
    <${Portrait} name=${poster.outlaw} character=${poster} size=${64} />
    <strong>${poster.outlaw}</strong>
    <span class="poster-for">${poster.crime}</span>
    <span class="poster-reward">Reward $${Number(poster.reward).toLocaleString("en-US")}</span>
    ${poster.offered_by
      ? html`<span class="poster-offered">Offered by ${poster.offered_by}, ${poster.offered}</span>`
      : null}
    <dl class="poster-terms">
      <div><dt>Game</dt><dd>${game}</dd></div>
      ${t.rounds ? html`<div><dt>Rounds</dt><dd>${t.rounds}</dd></div>` : null}
      <div><dt>Score to beat</dt><dd>${t.score_to_beat}</dd></div>
      ${t.reward != null && t.reward !== poster.reward
        ? html`<div><dt>Reward</dt><dd>$${Number(t.reward).toLocaleString("en-US")}</dd></div>`
        : null}
    </dl>
    <span class="poster-how">Outscore ${poster.outlaw} and reach ${t.score_to_beat} points to collect.</span>
    ${locked ? html`<span class="poster-where">Hangs in ${townName}: ride there to take it on.</span>` : null}
    <${Sources} list=${poster.sources} />
    <button class="btn small" disabled=${locked || collected || offline} onClick=${onPlay}>
      ${collected ? "Collected" : locked ? `Locked until ${townName}` : `Challenge ${poster.outlaw}`}</button>
  </li>`;
}

// The last trail the server sent, kept for an offline start (the map and the towns).
const TRAIL_KEY = "dk.trail.v1";
function storedTrail() {
  try {
    return JSON.parse(localStorage.getItem(TRAIL_KEY) || "null");
  } catch {
    return null;
  }
}

// Unfinished matches, each resumed where it stands ("Continue at the Vaudeville Theater,
// round 4 of 10"). Opening a table with a match under way resumes that match too.
function ContinueList({ matches }) {
  if (!matches || !matches.length || isOffline()) return null;
  return html`<section class="continue" aria-labelledby="continue-h">
    <h2 id="continue-h">Unfinished matches</h2>
    <ul class="continue-list">
      ${matches.map((m) => html`<li key=${m.match_id}>
        <a class="btn gold continue-btn" href=${`#/table/${encodeURIComponent(m.match_id)}`}>
          ${m.text}<small>${m.town ? `${m.town} · ` : ""}${m.game_title}</small>
          ${m.standing ? html`<small class="continue-standing">${m.standing}</small>` : null}</a>
      </li>`)}
    </ul>
  </section>`;
}

export function useUnfinished() {
  const [list, setList] = useState(null);
  useEffect(() => {
    optional("/api/continue")
      .then((c) => setList((c && c.matches) || []))
      .catch(() => setList([]));
  }, []);
  return list;
}

export function Trail() {
  const [trail, setTrail] = useState(undefined);
  const [error, setError] = useState("");
  const [showAll, setShowAll] = useState(false);
  const [chosen, setChosen] = useState(null);
  const unfinished = useUnfinished();
  useEffect(() => {
    optional("/api/trail")
      .then((t) => {
        if (t) {
          try {
            localStorage.setItem(TRAIL_KEY, JSON.stringify(t));
          } catch {
            // Storage full: an offline start will just have no map.
          }
        }
        setTrail(t || (isOffline() ? storedTrail() : null));
      })
      .catch(() => setTrail(isOffline() ? storedTrail() : null));
  }, []);
  const offline = isOffline();
  // Asks the server again if the list has not come yet, so a quick tap can't start a second match.
  const resume = async (tableId) => {
    const list = unfinished
      || (await optional("/api/continue").then((c) => (c && c.matches) || []).catch(() => []));
    const m = list.find((u) => u.table_id === tableId);
    if (m) navigate(`/table/${m.match_id}`);
    return !!m;
  };
  // A table or a poster resumes its match under way, or starts one.
  const playTable = async (t) => (await resume(t.id)) || startTable({ table_id: t.id, options: {}, game: t.game }, setError);
  const playPoster = async (w) => (await resume(`wanted:${w.id}`))
    || startTable({ wanted_id: w.id, game: w.gunfight && w.gunfight.game }, setError);
  const s = settings();
  const towns = (trail && trail.towns) || [];
  const prog = (trail && trail.progress) || null;
  const reached = towns.filter((t) => t.status !== "locked");
  const current = towns.find((t) => t.id === (trail && trail.current_town)) || reached[reached.length - 1];
  const others = reached.filter((t) => t !== current).reverse();
  // The first open table where the player stands: offered above the map, so a phone
  // need not scroll past it to play.
  const next = current ? (current.tables || []).find((t) => t.status === "open") : undefined;
  const locked = towns.filter((t) => t.status === "locked");
  const chosenTown = towns.find((t) => t.id === chosen) || null;
  // Every poster from the start: open ones first, then those hanging in towns ahead.
  const posterTown = {};
  for (const t of towns) for (const w of t.wanted || []) posterTown[w.id] = t.name;
  const allPosters = towns.flatMap((t) => t.wanted || []);
  const posters = [...allPosters.filter((w) => w.status === "open"),
    ...allPosters.filter((w) => w.status === "collected"),
    ...allPosters.filter((w) => w.status === "locked")];
  const townBlock = (town) => html`<li class="town" key=${town.id}>
    <h2>${town.name} <small>${town.state_or_territory || ""}${town.boom_years ? ` · ${town.boom_years}` : ""}</small></h2>
    ${town.arrival ? html`<p class="arrival"><em>${town.arrival}</em></p>` : null}
    ${town.description ? html`<p class="hint">${town.description}</p>` : null}
    <${Sources} list=${town.sources} />
    <ul class="tables">
      ${(town.tables || []).map((t) => html`<${TableCard} key=${t.id} table=${t} offline=${offline}
        onPlay=${() => playTable(t)} />`)}
    </ul>
  </li>`;
  const chosenPanel = chosenTown
      ? html`<section class="chosen-town card-panel" id="chosen-town" tabindex="-1" aria-label=${`${chosenTown.name} on the map`}>
          <div class="chosen-head"><span class=${`town-state ${chosenTown.status}`}>${
            chosenTown.status === "locked" ? "Locked: win the towns before it first"
            : chosenTown.status === "completed" ? "Cleared" : "Open"}</span>
            <button class="btn small ghost" onClick=${() => setChosen(null)}>Close</button></div>
          <ol class="towns">${townBlock(chosenTown)}</ol>
          ${(chosenTown.wanted || []).length
            ? html`<ul class="wanted" tabindex="0" aria-label=${`Wanted in ${chosenTown.name}`}>${chosenTown.wanted.map((w) => html`<${Poster} key=${w.id} poster=${w} townName=${chosenTown.name}
                onPlay=${() => playPoster(w)} />`)}</ul>`
            : null}
        </section>`
      : null;
  // Nothing to tap until the map and the unfinished matches are in: they arrive above the
  // quick tables, and a tap during that jump would land on whatever moved under the finger.
  const head = html`<h1>The Trail</h1>
    <p class="lede">Howdy, ${s.name || "stranger"}. Pick a table and take a seat.</p>`;
  if (trail === undefined || unfinished === null) {
    return html`<section class="screen trail">
      ${head}
      <p class="loading" role="status">Unrolling the map…</p>
    </section>`;
  }
  return html`<section class="screen trail">
    ${head}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <${ContinueList} matches=${unfinished} />
    ${next && !offline && !(unfinished || []).some((u) => u.table_id === next.id)
      ? html`<section class="next-table" aria-labelledby="next-h">
          <h2 id="next-h">Your next table</h2>
          <button class="btn gold next-btn" data-table=${next.id}
            onClick=${() => playTable(next)}>
            Take a seat ${next.place}<small>${current.name} · ${
              (next.opponents || []).map((o) => o.name).join(", ")} · ${gameTitle(next.game)}</small></button>
        </section>`
      : null}
    ${trail === null && !offline
      ? html`<p class="notice" role="status">The trail map hasn't reached this saloon yet. The
          quick tables below are open all the same.</p>`
      : null}
    ${offline
      ? html`<p class="notice offline-note">Offline: ${trail ? "the trail as you last saw it" : "no trail saved on this device yet"}. Tables open again when you're back online.</p>`
      : null}
    ${prog
      ? html`<div class="progress-bar" role="group" aria-label="Trail progress">
          <div><strong>${prog.tables_won}</strong> of ${prog.tables_total} tables won</div>
          <div><strong>${prog.towns_completed}</strong> of ${prog.towns_total} towns cleared</div>
          <div><strong>${prog.posters_collected}</strong> rewards collected</div>
          <progress max=${prog.tables_total} value=${prog.tables_won}
            aria-label="Tables won"></progress>
        </div>`
      : null}
    <div class="trail-main">
    ${towns.length
      ? html`<${TrailMap} towns=${towns} currentId=${current && current.id} chosen=${chosen}
          onChoose=${(id) => {
            setChosen(id);
            requestAnimationFrame(() => {
              const panel = document.getElementById("chosen-town");
              if (panel) panel.focus({ preventScroll: false });
            });
          }} />`
      : null}
    <div class="trail-side">
    ${chosenPanel}
    ${current
      ? html`<h2 class="now">Now Playing</h2><ol class="towns">${townBlock(current)}</ol>`
      : null}
    </div>
    </div>
    ${posters.length
      ? html`<h2 id="wanted-h">Wanted</h2><ul class="wanted" tabindex="0" aria-labelledby="wanted-h">
          ${posters.map((w) => html`<${Poster} key=${w.id} poster=${w} townName=${posterTown[w.id]}
            onPlay=${() => playPoster(w)} />`)}
        </ul>`
      : null}
    ${others.length ? html`<h2>Towns behind you</h2><ol class="towns">${others.map(townBlock)}</ol>` : null}
    ${locked.length
      ? html`<h2>Up the trail</h2>
        <button class="btn small ghost" aria-expanded=${showAll}
          onClick=${() => setShowAll(!showAll)}>${showAll ? "Hide" : "Show"} the ${locked.length} towns ahead</button>
        ${showAll
          ? html`<ol class="ahead">${locked.map((t) => html`<li key=${t.id}>
                <span class="ahead-name">${t.name}</span>
                <small>${t.state_or_territory}</small>${(t.tables || []).some((x) => x.legends)
                ? html`<span class="legends-badge">Legends table</span>`
                : null}</li>`)}</ol>`
          : null}`
      : null}
    <h2>Quick tables</h2>
    <ul class="tables quick">
      ${QUICK_TABLES.map((t) => html`<li key=${t.id}>
        <button class="table-btn" data-table=${t.id} disabled=${offline}
          onClick=${() => startTable({ game: t.game, opponents: t.opponents, options: {} }, setError)}>
          <strong>${gameTitle(t.game)}</strong><span>${t.blurb(defaults(t.game))}</span>
        </button></li>`)}
    </ul>
  </section>`;
}

export function Profile() {
  const [s, setS] = useState(settings());
  const [confirm, setConfirm] = useState(false);
  const [msg, setMsg] = useState("");
  const [email, setEmail] = useState(s.backupEmail || "");
  const [code, setCode] = useState("");
  const [codeSent, setCodeSent] = useState(false);
  // The id of the code request this browser made: guesses count only against its code.
  const [requestId, setRequestId] = useState(null);
  const [backs, setBacks] = useState(null);
  useEffect(() => {
    refreshCardBacks()
      .then((list) => list && setBacks(list))
      .catch(() => {});
  }, []);
  const set = (patch) => {
    setS(update(patch));
    // The server keeps a copy (it sets Sleight of Hand on new tables from it); offline is fine.
    pushProfile(settings()).catch(() => {});
  };
  // Cloud backup: "link" ties this profile to an address; "restore" brings a linked profile
  // to this device. Either way the server mails a one-time code.
  const [mode, setMode] = useState("link");
  async function sendCode() {
    setMsg("");
    try {
      const sent = mode === "link"
        ? await withPlayer(() => api.post("/api/backup/link", { email }))
        : await api.post("/api/backup/restore", { email });
      update({ backupEmail: email });
      setRequestId(sent && sent.request_id);
      setCodeSent(true);
      setMsg("Code sent. Check your email.");
    } catch (err) {
      setMsg(err.message);
    }
  }
  async function verify() {
    try {
      if (mode === "link") {
        await withPlayer(() =>
          api.post("/api/backup/link/verify", { email, code, request_id: requestId || undefined }));
        setMsg("Backed up. This profile is now linked to your email.");
      } else {
        const got = await api.post("/api/backup/restore/verify", { email, code, request_id: requestId });
        update({ playerId: got.player_id, token: got.token });
        const me = await api.get("/api/players/me");
        setS(update(fromServerProfile(me)));
        // The restored player's own backs and unlocks.
        const list = await refreshCardBacks().catch(() => null);
        if (list) setBacks(list);
        setMsg("Restored. Welcome back.");
      }
    } catch (err) {
      setMsg(err.message);
    }
  }
  async function restart() {
    try {
      await withPlayer(() => api.post("/api/progress/restart", { confirm: true }));
    } catch {
      // Local progress is cleared regardless; the server copy follows next time.
    }
    setS(restartProgress());
    setConfirm(false);
    setMsg("Progress restarted.");
  }
  const shownBacks = backs || cardBacks();
  const chosen = chosenBack(s.cardBack);
  return html`<section class="screen profile">
    <h1>Profile & Settings</h1>
    <div class="card-panel">
      <label for="pname">Name</label>
      <input id="pname" value=${s.name} maxlength="24"
        onChange=${(e) => set({ name: e.target.value.trim() || s.name })} />
      <h2>Likeness</h2>
      <${LikenessPicker} value=${s.likeness} onChange=${(v) => set({ likeness: v })} />
    </div>
    <div class="card-panel">
      <h2>Card Back</h2>
      ${shownBacks.length
        ? null
        : html`<p class="hint">The card backs load when you are online.</p>`}
      <div class="backs" role="radiogroup" aria-label="Card back">
        ${shownBacks.map((b) => {
          const locked = b.unlocked === false;
          const earn = locked && b.unlock ? earnWords(b.unlock) : null;
          return html`<div class=${`back-item${locked ? " locked" : ""}`} key=${b.id}>
            <button type="button" role="radio"
            aria-checked=${chosen === b.id} disabled=${locked}
            aria-label=${`Card back ${b.name}${locked ? " (locked)" : ""}`}
            aria-describedby=${earn ? `earn-${b.id}` : undefined}
            class=${`back-choice${chosen === b.id ? " chosen" : ""}`}
            onClick=${() => set({ cardBack: b.id })}>
            <${CardBack} back=${b.id} preview=${true} /><span>${b.name}${locked ? " (locked)" : ""}</span></button>
            ${earn
              ? html`<p class="earn" id=${`earn-${b.id}`}>${earn}: ${b.unlock.count} of ${b.unlock.threshold}
                  <progress max=${b.unlock.threshold} value=${b.unlock.count}
                    aria-label=${`${b.name}: ${b.unlock.count} of ${b.unlock.threshold}`}></progress></p>`
              : null}
          </div>`;
        })}
      </div>
    </div>
    <div class="card-panel">
      <label class="toggle">
        <input type="checkbox" checked=${s.largePrint} onChange=${(e) => set({ largePrint: e.target.checked })} />
        <span><strong>Large-Print Cards</strong><br/>
          <small>Bigger ranks and plainer faces that read at a glance.</small></span>
      </label>
      <div class="lp-sample" aria-hidden="true">
        <${CardFace} card="Qh" large=${s.largePrint} /><${CardFace} card="7c" large=${s.largePrint} />
      </div>
      <label class="toggle">
        <input type="checkbox" checked=${s.sleightOfHand}
          onChange=${(e) => set({ sleightOfHand: e.target.checked })} />
        <span><strong>Sleight of Hand</strong><br/>
          <small>Once a round, anyone may palm the card hidden under the top discard. Handy if
            you were watching, costly if you lose the round anyway.</small></span>
      </label>
    </div>
    <div class="card-panel">
      <h2>Cloud Backup</h2>
      <p class="hint">Keep your progress safe if you switch devices or clear your browser. No
        password: we email you a one-time code.</p>
      <div class="stack" role="radiogroup" aria-label="Backup or restore">
        <label class="toggle"><input type="radio" name="bk" checked=${mode === "link"}
          onChange=${() => { setMode("link"); setCodeSent(false); }} /> Back up this profile</label>
        <label class="toggle"><input type="radio" name="bk" checked=${mode === "restore"}
          onChange=${() => { setMode("restore"); setCodeSent(false); }} /> Restore a backup here</label>
      </div>
      <label for="email">Email</label>
      <input id="email" type="email" value=${email} onInput=${(e) => setEmail(e.target.value)} />
      <button class="btn small" onClick=${sendCode} disabled=${!email || isOffline()}>Send code</button>
      ${codeSent
        ? html`<label for="code">Code</label>
          <input id="code" inputmode="numeric" value=${code} onInput=${(e) => setCode(e.target.value)} />
          <button class="btn small" onClick=${verify}>Verify</button>`
        : null}
      ${msg ? html`<p class="notice" role="status">${msg}</p>` : null}
    </div>
    <${Devices} />
    <div class="card-panel">
      <h2>Progress</h2>
      <p class="hint">Start the trail again from the first town. Completed tables are cleared.</p>
      <button class="btn danger" onClick=${() => setConfirm(true)}>Restart progress</button>
    </div>
    ${confirm
      ? html`<${ConfirmDialog} title="Restart progress?"
          text="Your towns and tables go back to the start. Your name and lifetime records stay."
          confirmLabel="Restart" onCancel=${() => setConfirm(false)}
          onConfirm=${restart} />`
      : null}
  </section>`;
}

// How a card back is earned, from its milestone and threshold (the server's unlock facts).
const MILESTONE = {
  tables_won: ["Win a table on the trail", "Win {n} tables on the trail"],
  towns_completed: ["Clear a town", "Clear {n} towns"],
  gunfights_won: ["Win a gunfight", "Win {n} gunfights"],
  deadwood_reached: ["Reach Deadwood", "Reach Deadwood {n} times"],
  deadwood_won: ["Clear Deadwood, the end of the trail", "Clear Deadwood {n} times"],
  palms_unseen: ["Palm a card unseen", "Palm {n} cards unseen"],
};

export function earnWords(unlock) {
  const forms = MILESTONE[unlock.milestone] || [unlock.milestone.replace(/_/g, " "), `${unlock.milestone.replace(/_/g, " ")}: {n}`];
  return (unlock.threshold === 1 ? forms[0] : forms[1]).replace("{n}", unlock.threshold);
}

function day(iso) {
  return iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" }) : "";
}

// Every browser signed in to this profile; sign out one, or every other one.
function Devices() {
  const [list, setList] = useState(null);
  const [note, setNote] = useState("");
  const load = () =>
    api.get("/api/players/me/devices").then((d) => setList(d.devices)).catch(() => setList(null));
  useEffect(() => {
    if (settings().token) load();
  }, []);
  async function signOut(device) {
    try {
      const r = device
        ? await api.del(`/api/players/me/devices/${encodeURIComponent(device.id)}`)
        : await api.post("/api/players/me/devices/sign-out-others");
      setNote(r.revoked === 1 ? "Signed out 1 device." : `Signed out ${r.revoked} devices.`);
    } catch (err) {
      setNote(err.message);
    }
    load();
  }
  if (!list) return null;
  return html`<div class="card-panel">
    <h2>Signed-in Devices</h2>
    <p class="hint">Every browser using this profile. Sign out any you don't recognise.</p>
    <ul class="devices">
      ${list.map((d) => html`<li key=${d.id}>
        <span><strong>${d.label}</strong>${d.current ? " (this device)" : ""}<br/>
          <small>Signed in ${day(d.created_at)}${d.last_used_at ? `, last used ${day(d.last_used_at)}` : ""}</small></span>
        ${d.current
          ? null
          : html`<button class="btn small ghost" onClick=${() => signOut(d)}
              aria-label=${`Sign out ${d.label}, signed in ${day(d.created_at)}`}>Sign out</button>`}
      </li>`)}
    </ul>
    ${list.length > 1
      ? html`<button class="btn small" onClick=${() => signOut(null)}>Sign out other devices</button>`
      : null}
    ${note ? html`<p class="notice" role="status">${note}</p>` : null}
  </div>`;
}

// A restored profile is the server's: an empty likeness or card back there (none chosen)
// replaces what this browser had, rather than keeping another player's choice.
export function fromServerProfile(p) {
  const out = {};
  if (p.name) out.name = p.name;
  if ("likeness" in p) out.likeness = p.likeness || null;
  if ("card_back" in p) out.cardBack = p.card_back || "";
  if (typeof p.large_print === "boolean") out.largePrint = p.large_print;
  if (typeof p.sleight_of_hand === "boolean") out.sleightOfHand = p.sleight_of_hand;
  return out;
}

function Stat({ label, value }) {
  return html`<div><dt>${label}</dt><dd>${value ?? "—"}</dd></div>`;
}

export function Records() {
  const local = settings().records;
  const [rec, setRec] = useState(undefined);
  const [me, setMe] = useState(null);
  useEffect(() => {
    optional("/api/records").then((r) => setRec(r)).catch(() => setRec(null));
    optional("/api/players/me").then((p) => setMe(p && p.stats)).catch(() => {});
  }, []);
  const trail = rec && rec.trail;
  const life = rec && rec.lifetime;
  const gun = (rec && rec.gunfighter) || local.gunfighter;
  return html`<section class="screen records">
    <h1>Records</h1>
    <div class="card-panel">
      <h2>Trail Record</h2>
      ${trail
        ? html`<dl class="stats">
            <${Stat} label="Tables won" value=${`${trail.tables_won} / ${trail.tables_total}`} />
            <${Stat} label="Towns cleared" value=${`${trail.towns_completed} / ${trail.towns_total}`} />
            <${Stat} label="Rewards collected" value=${trail.posters_collected} />
            <${Stat} label="Best match score" value=${trail.best_score} />
          </dl>`
        : null}
      ${!trail && !(me && me.matches)
        ? html`<dl class="stats"><${Stat} label="Wins" value=${local.trail.wins} />
            <${Stat} label="Losses" value=${local.trail.losses} />
            <${Stat} label="Ties" value=${local.trail.ties || 0} /></dl>`
        : null}
      ${life
        ? html`<h3>Lifetime</h3><dl class="stats">
            <${Stat} label="Tables won" value=${life.tables_won} />
            <${Stat} label="Full house or better" value=${life.big_hands} />
            <${Stat} label="Reached Deadwood" value=${life.deadwood_reached} />
            <${Stat} label="Palms caught" value=${life.palms_caught} />
          </dl>`
        : null}
    </div>
    ${me && me.matches
      ? html`<div class="card-panel">
          <h2>Every Match</h2>
          <p>Trail, quick and custom tables alike.</p>
          <dl class="stats">
            <${Stat} label="Matches" value=${me.matches} />
            <${Stat} label="Won" value=${me.wins || 0} />
            <${Stat} label="Shared" value=${me.shared_wins || 0} />
            <${Stat} label="Lost" value=${me.losses || 0} />
            <${Stat} label="Points" value=${me.points || 0} />
          </dl>
        </div>`
      : null}
    ${isOffline() ? null : html`<${ReplayList} />`}
    <div class="card-panel">
      <h2>Gunfighter Record</h2>
      <dl class="stats"><${Stat} label="Wins" value=${gun.wins} />
        <${Stat} label="Losses" value=${gun.losses} />
        ${gun.rewards != null ? html`<${Stat} label="Reward money" value=${`$${gun.rewards.toLocaleString("en-US")}`} />` : null}
      </dl>
    </div>
  </section>`;
}

export function Gazette() {
  const [items, setItems] = useState(undefined);
  const [empty, setEmpty] = useState("");
  useEffect(() => {
    optional("/api/gazette")
      .then((g) => {
        setItems(g ? g.items || [] : []);
        setEmpty((g && g.message) || "");
      })
      .catch(() => setItems([]));
  }, []);
  return html`<section class="screen gazette">
    <h1>The Deadwood Knock Gazette</h1>
    ${items === undefined ? html`<p class="loading">Setting the type…</p>` : null}
    ${items && items.length
      ? html`<ul class="news">${items.map((n, i) => html`<li key=${i}><article class="card-panel">
          <h2>${n.headline || n.title}</h2>
          ${n.dateline || n.town ? html`<p class="hint">${n.dateline || n.town}</p>` : null}
          <p class="story">${n.item}</p></article></li>`)}</ul>`
      : items ? html`<p class="notice">${empty || "No news from the trail yet. Win a table or two and the presses will roll."}</p>` : null}
  </section>`;
}

// A row of cards drawn as at the table; `dim` marks deadwood.
function CardRow({ cards, dim = false, label }) {
  return html`<ul class=${`card-row${dim ? " dim" : ""}`} aria-label=${label}>
    ${cards.map((c, i) => html`<li key=${`${c}${i}`} data-card=${c}><${CardFace} card=${c} /></li>`)}
  </ul>`;
}

// Deadwood as a player would hold it: pairs together, higher ranks first. (A poker hand
// keeps the engine's order, the one the table and the showdown use: a straight low to high.)
const RANK_ORDER = "23456789TJQKA";
function held(cards) {
  const rank = (c) => RANK_ORDER.indexOf(c[0]);
  const count = (c) => cards.filter((x) => x[0] === c[0]).length;
  return [...cards].sort((a, b) => count(b) - count(a) || rank(b) - rank(a));
}

function words(cards) {
  return cards.map(pretty).join(" ");
}

// One example hand: the eight cards as dealt, the split the game picks, and the arithmetic.
function Example({ ex, title }) {
  return html`<figure class="example">
    <figcaption><strong>${title || categoryWords(ex.category)}</strong>
      <span class="pts">${ex.hand_points} points</span></figcaption>
    <div class="split">
      <div><span class="split-tag">Poker hand</span>
        <${CardRow} cards=${ex.poker_hand} label=${`Poker hand: ${words(ex.poker_hand)}`} /></div>
      <div><span class="split-tag">Deadwood</span>
        <${CardRow} cards=${held(ex.deadwood)} dim=${true} label=${`Deadwood: ${words(ex.deadwood)}`} /></div>
    </div>
    <p class="sum">${ex.hand_points} hand points − ${ex.deadwood_points} deadwood = <strong>${num(ex.score)}</strong>${" · "}knock
      count ${ex.knock_count}${ex.can_knock ? " (may knock)" : ""}</p>
  </figure>`;
}

// Deadwood values in words, from the engine's card points (A, 2..10, J, Q, K, jokers).
/**
 * @param {number[] | null | undefined} points the engine's card points
 * @returns {{cards: string[], label: string, value: string}[]}
 */
function deadwoodValues(points) {
  if (!points || points.length < 13) return [];
  const faceValue = points.slice(1, 10).every((p, i) => p === i + 2);
  const courts = points.slice(10, 13);
  const rows = [{ cards: ["As"], label: "Ace", value: num(points[0]) }];
  rows.push({ cards: ["2d", "7c", "Th"], label: "2 to 10",
    value: faceValue ? "face value" : points.slice(1, 10).map(num).join(", ") });
  rows.push({ cards: ["Js", "Qh", "Kd"], label: "Jack, Queen, King",
    value: courts.every((p) => p === courts[0]) ? num(courts[0]) : courts.map(num).join(", ") });
  if (points.length > 52) rows.push({ cards: ["JK"], label: "Joker", value: num(points[52]) });
  return rows;
}

function ScoringTables() {
  useGames();
  const dk = gameFacts("deadwood-knock");
  const ladder = EXAMPLES.slice(0, 10);
  const table = handPointsTable();
  const ante = figure("deadwood-knock", "pot_ante");
  const suspicion = figure("deadwood-knock", "suspicion");
  const joker = EXAMPLES.find((e) => e.cards.includes("JK"));
  return html`<h2>Hand points</h2>
    <p>The best five cards of your poker hand score by their poker rank. Each example is a real
      eight-card hand with the split the game picks for it.</p>
    <table class="points"><tbody>
      ${table.map((r) => html`<tr key=${r.category}><th scope="row">${categoryWords(r.category)}</th><td>${r.points}</td></tr>`)}
    </tbody></table>
    <div class="gallery">
      ${ladder.map((e) => html`<${Example} key=${e.category} ex=${e} />`)}
    </div>
    <h2>Deadwood values</h2>
    <div class="values">
      ${deadwoodValues(dk && dk.card_points).map((v) => html`<figure key=${v.label}>
        <${CardRow} cards=${v.cards} label=${v.label} /><figcaption>${v.label}: ${v.value}</figcaption></figure>`)}
    </div>
    ${joker ? html`<${Example} ex=${joker} title="A joker in the deadwood" />` : null}
    <h2>The poker pot</h2>
    <dl class="ref">
      <div><dt>What it is</dt><dd>A side bet on poker hands alone; deadwood plays no part.</dd></div>
      <div><dt>Nobody calls</dt><dd>The knocker collects ${ante ?? "the ante"}.</dd></div>
      <div><dt>Someone calls</dt><dd>Everyone still in stakes ${ante ?? "the ante"} and the best poker hand among them
        takes the pot. Tied hands split it equally, rounded down; any odd point is lost.</dd></div>
      <div><dt>Folding</dt><dd>Costs nothing and wins nothing from the pot.</dd></div>
    </dl>
    <h2>Sleight of Hand</h2>
    <dl class="ref">
      <div><dt>Palm</dt><dd>With the option on, once per round you may palm the card lying just
        under the top discard.</dd></div>
      <div><dt>How</dt><dd>Choose your discard first; the pile needs at least 3 cards. The top
        discard goes out of play as cover and the buried card comes to you.</dd></div>
      <div><dt>Suspicion</dt><dd>Palm and finish the round below the top score, and a${
        suspicion != null ? ` ${Math.abs(suspicion)}-point` : ""} Suspicion penalty follows.</dd></div>
    </dl>`;
}

function Ref({ rows }) {
  return html`<dl class="ref">${rows.map(([k, v]) => html`<div key=${k}><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>`;
}

export function Rules() {
  useGames();
  // Every figure here that a table setting or the engine decides comes from /api/games.
  const dk = gameFacts("deadwood-knock");
  const gin = gameFacts("gin");
  const rounds = dk ? dk.options.rounds : null;
  const deck = dk ? dk.card_points.length : null;
  const jokers = dk ? deck - 52 : 0;
  return html`<section class="screen rules">
    <h1>Rules</h1>
    <p class="lede">Deadwood Knock crosses rummy with poker, dealt out in saloons along an Old
      West trail. Beat gamblers, lawmen and outlaws town by town on the road to Deadwood.</p>
    <nav class="toc" aria-label="On this page"><a href="#/scoring">Hand scoring at a glance</a>${" · "}<a href="#/rules" onClick=${(e) => { e.preventDefault(); document.getElementById("knock-rummy").scrollIntoView(); }}>Knock Rummy and Gin</a></nav>
    <h2>Goal</h2>
    <p>Hold the strongest poker hand you can while keeping your unused cards (deadwood) cheap.</p>
    <h2>Setup</h2>
    <${Ref} rows=${[
      ...(dk
        ? [["Players", `${dk.min_players} to ${dk.max_players}, with a ${deck}-card deck${jokers ? ` (${jokers} jokers)` : ""}, over ${rounds} rounds.`]]
        : []),
      ["The deal", `Everyone gets ${dk ? dk.hand_size : "the same number of"} cards, dealt one at a time; the rest is the stock, and one card turned up starts the discard pile.`],
      ["Who starts", "The deal moves one seat left each round; the player on the dealer's left goes first."],
      ["Aces", `High in poker hands, low in A-2-3-4-5${dk ? `, and ${num(dk.card_points[0])} as deadwood` : ""}.`],
    ]} />
    <h2>Your turn</h2>
    <ol class="steps">
      <li><strong>Select</strong> the card you will discard.</li>
      <li><strong>Take</strong> one card: the top of the stock or the top of the discard pile.</li>
      <li><strong>Discard</strong>: your selected card goes face up on the pile.${dk ? ` You always hold ${dk.hand_size}.` : ""}</li>
    </ol>
    <${Example} ex=${EXAMPLES[1]} title="A hand of eight, split by the game" />
    <h2>Knocking</h2>
    <${Ref} rows=${[
      ["When", `At the start of your turn, with a knock count of ${dk ? dk.knock_limit : "the limit"} or less, instead of playing the turn.`],
      ["Then", "The knocker neither takes nor discards. Every other player gets one final turn (a normal turn, or stand), and nobody else may knock that round."],
    ]} />
    <h2>Call or fold</h2>
    <p>After the final turns each other player, in order from the knocker's left, calls (puts ${
      figure("deadwood-knock", "pot_ante") ?? "the ante"} in the pot) or folds. The knocker is always in.</p>
    <h2>Showdown</h2>
    <${Ref} rows=${[
      ["Poker hand", "Any 5 cards, or 6 to 8 cards that all share a suit or run in one straight. Jokers never join it."],
      ["Points", "From the best 5 cards inside it; everything else is deadwood."],
      ["The split", "The game picks the split with the best hand points minus deadwood (the stronger poker hand breaks a tie); you may lay out a different legal split instead."],
      ["Knock count", "The lowest deadwood any legal split leaves."],
    ]} />
    <h2>When the stock runs dry</h2>
    <p>The first time, the discard pile (all but its top card) is shuffled into a new stock.
      The second time the round ends at once in a showdown with no pot.</p>
    <${ScoringTables} />
    <h2>Winning</h2>
    <p>The highest total after ${rounds ?? "the last"} rounds wins; equal totals share the win.</p>
    <h2 id="knock-rummy">Knock Rummy and Gin</h2>
    <${Ref} rows=${[
      ["Deck and deal", "52 cards, no jokers. Two players get 10 cards each, three or four get 7, five get 6."],
      ["Melds", "Sets (3 or 4 of a rank) and runs (3 or more in a suit). Aces are low unless the table plays High Aces; K-A-2 never runs. The game works out your count (your lowest possible deadwood)."],
      ["A turn", "Take the top of the stock or the discard pile, knock if you like, then discard. A card just taken from the discard pile can't go straight back."],
      ["Knock", "Ends the hand after the knocker's discard; hands are counted as they stand. With a knock limit, the count after the discard must be at or under it."],
      ["Rummy", `Every card matched ends the hand at once: the difference plus ${figure("knock-rummy", "rummy_bonus") ?? "a bonus"} from each player.`],
      ["Scoring", `Lowest count wins the difference from each player; a knocker tied for lowest loses to the tying player, and a knocker who doesn't win pays ${figure("knock-rummy", "knock_penalty") ?? "a penalty"} more.`],
      ["Empty stock", "The discard pile is turned over as a new stock, at most twice a hand; a third time the hand is void."],
      [gameTitle("gin"), `Two players, knock at ${gin ? gin.knock_limit : "the limit"} or less, lay-offs, undercuts (+${figure("gin", "gin_bonus") ?? "a bonus"}), gin (+${figure("gin", "gin_bonus") ?? "a bonus"}), and a void hand when ${figure("gin", "void_stock") ?? "too few"} cards are left in the stock.${gin && gin.options.target ? ` Games run to ${gin.options.target}.` : ""}`],
    ]} />
  </section>`;
}

export function Scoring() {
  return html`<section class="screen rules">
    <h1>Hand Scoring</h1>
    <p class="lede">Round score = hand points − deadwood points + pot.</p>
    <${ScoringTables} />
  </section>`;
}
