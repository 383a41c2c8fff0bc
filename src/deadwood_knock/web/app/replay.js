// @ts-check
// Replays of finished matches, from the player's records: step through every action. During
// play each step shows what the player's seat saw (its hand, the pile, the totals and the
// events it could see); once the replay reaches the end, every hand is shown. A replay can be
// saved as GameRecord JSON and one loaded from a file (replayed by the server, never stored).
import { html, useState, useEffect, useRef } from "./lib.js";
import { api, withPlayer, ApiError } from "./api.js";
import { CardFace, CardBack } from "./cards.js";

let imported = null; // the last imported replay (kept for this page only)

/** @param {any} replay an imported GameRecord's replay, as the server answered it */
export function setImported(replay) {
  imported = replay;
}

function Cards({ cards, label }) {
  return html`<ul class="replay-cards" aria-label=${label}>
    ${cards.map((c, i) => html`<li key=${`${c}${i}`} data-card=${c}><${CardFace} card=${c} /></li>`)}
  </ul>`;
}

function Backs({ count, label }) {
  return html`<ul class="replay-cards backs-row" aria-label=${label}>
    ${Array.from({ length: count }, (_, i) => html`<li key=${i}><${CardBack} /></li>`)}
  </ul>`;
}

// A seat's name and its match total at this step.
function SeatName({ name, total }) {
  return html`<span class="replay-name">${name}${total == null ? null : html` <small>${total} pts</small>`}</span>`;
}

export function Replay({ id }) {
  const [rep, setRep] = useState(undefined);
  const [error, setError] = useState("");
  const [at, setAt] = useState(0);
  const [revealed, setRevealed] = useState(false);
  const heading = useRef(null);
  useEffect(() => {
    if (id === "imported") {
      setRep(imported);
      return;
    }
    withPlayer(() => api.get(`/api/replays/${encodeURIComponent(id)}`))
      .then(setRep)
      .catch((err) => {
        setError(err instanceof ApiError ? err.message : String(err));
        setRep(null);
      });
  }, [id]);
  const last = rep ? rep.steps.length - 1 : 0;
  const clamp = (n) => Math.max(0, Math.min(last, n));
  useEffect(() => {
    // The hands are shown once the replay has been followed to its end, and stay shown.
    if (rep && at === last && (rep.over || rep.finished)) setRevealed(true);
  }, [at, rep]);
  useEffect(() => {
    // The arrow keys step (Home and End jump), as a player expects of a replay; the slider
    // and other form controls keep their own keys.
    if (!rep) return undefined;
    const steps = { ArrowLeft: -1, ArrowRight: 1 };
    function onKey(e) {
      const t = e.target;
      if (e.altKey || e.ctrlKey || e.metaKey || (t instanceof HTMLElement && t.closest("input, select, textarea"))) return;
      if (e.key in steps) setAt((n) => clamp(n + steps[e.key]));
      else if (e.key === "Home" || e.key === "End") setAt(e.key === "Home" ? 0 : last);
      else return;
      e.preventDefault();
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [rep, last]);
  if (rep === undefined) return html`<section class="screen replay"><h1>Replay</h1><p class="loading">Finding the record…</p></section>`;
  if (!rep) {
    return html`<section class="screen replay"><h1>Replay</h1>
      <p class="error" role="alert">${error || "No replay here: import a record from Records."}</p>
      <a class="btn" href="#/records">Back to records</a></section>`;
  }
  const step = rep.steps[at];
  const names = rep.names;
  const me = rep.seat;
  const go = (n) => setAt(clamp(n));
  const total = (s) => (step.totals ? step.totals[s] : null);
  const recent = rep.steps.slice(Math.max(0, at - 5), at + 1).flatMap((s) => s.lines.map((l) => [s.n, l]));
  async function save() {
    try {
      const record = rep.record || await withPlayer(() => api.getText(`/api/replays/${encodeURIComponent(id)}/record`));
      const blob = new Blob([record], { type: "application/json" });
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = `deadwood-knock-${id === "imported" ? "replay" : id}.json`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    } catch (err) {
      setError(err.message);
    }
  }
  return html`<section class="screen replay">
    <h1 ref=${heading}>Replay: ${rep.title}${rep.town ? html`<small>, ${rep.town}</small>` : null}</h1>
    <p class="lede">${rep.game_title} ${rep.place}. Step through every move as you saw it (the
      arrow keys step too); the other hands are shown once you reach the end.</p>
    <div class="replay-bar" role="group" aria-label="Replay controls">
      <button class="btn small" onClick=${() => go(0)} disabled=${at === 0}>First</button>
      <button class="btn small" onClick=${() => go(at - 1)} disabled=${at === 0}>Back</button>
      <button class="btn small gold" onClick=${() => go(at + 1)} disabled=${at === last}>Next</button>
      <button class="btn small" onClick=${() => go(last)} disabled=${at === last}>End</button>
      <label class="replay-step">Step ${at} of ${last}
        <input type="range" min="0" max=${last} value=${at} onInput=${(e) => go(Number(e.target.value))} />
      </label>
    </div>
    <div class="replay-table card-panel">
      <p class="replay-round">${step.round != null ? `Round ${step.round}${step.rounds ? ` of ${step.rounds}` : ""}` : ""}
        ${step.actor != null ? ` · move by ${names[step.actor]}` : " · the deal"}</p>
      <section class=${`replay-seats ${revealed ? "replay-hands" : "replay-hidden"}`}
        aria-label=${revealed ? "Every hand" : "Other hands"}>
        ${revealed ? html`<h2 class="sr-only">Every hand</h2>` : null}
        ${(revealed ? step.hands : step.hand_sizes || []).map((held, s) => s === me ? null : html`<div key=${s}
          class="replay-seat" data-seat=${s}>
          <${SeatName} name=${names[s]} total=${total(s)} />
          ${revealed
            ? html`<${Cards} cards=${held} label=${`${names[s]}'s hand`} />`
            : html`<${Backs} count=${held} label=${`${names[s]}: ${held} cards, hidden`} />`}</div>`)}
        ${revealed ? null : html`<p class="hint">Hidden until the end of the replay, as they were at the table.</p>`}
      </section>
      <div class="replay-piles">
        <div><span class="pile-label">Stock · ${step.stock_size ?? "?"}</span>
          <ul class="replay-cards" aria-hidden="true"><li><${CardBack} /></li></ul></div>
        <div class="replay-top"><span class="pile-label">Discard</span>
          ${step.discard_top ? html`<${Cards} cards=${[step.discard_top]} label="Top of the discard pile" />` : html`<span class="empty-pile" role="img" aria-label="The discard pile is empty"></span>`}</div>
      </div>
      <ol class="replay-lines" aria-live="polite">
        ${recent.map(([n, l], i) => html`<li key=${`${n}-${i}`} class=${n === at ? "now" : ""}>${l}</li>`)}
      </ol>
      <div class="replay-mine">
        <h2><${SeatName} name="Your hand" total=${total(me)} /></h2>
        <${Cards} cards=${step.hand} label="Your hand" />
      </div>
    </div>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <div class="stack">
      <button class="btn" onClick=${save}>Save the game file</button>
      <a class="btn ghost" href="#/records">Back to records</a>
    </div>
  </section>`;
}

// The Records screen's list of finished matches, and the import of a GameRecord file.
export function ReplayList() {
  const [list, setList] = useState(null);
  const [msg, setMsg] = useState("");
  useEffect(() => {
    withPlayer(() => api.get("/api/replays"))
      .then((r) => setList(r.replays || []))
      .catch(() => setList([]));
  }, []);
  async function load(e) {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    setMsg("");
    try {
      const record = await file.text();
      JSON.parse(record); // a plain error for a file that is not JSON at all
      const replay = await withPlayer(() => api.postText("/api/replays/import", record));
      setImported({ ...replay, record });
      location.hash = "/replay/imported";
    } catch (err) {
      setMsg(err instanceof SyntaxError ? "That file is not JSON." : err.message);
    }
  }
  const words = { won: "Won", shared: "Shared", lost: "Lost", forfeit: "Forfeit" };
  return html`<div class="card-panel">
    <h2>Replays</h2>
    ${list && list.length
      ? html`<ul class="replay-list">${list.map((r) => html`<li key=${r.match_id}>
          <a class="btn small" href=${`#/replay/${encodeURIComponent(r.match_id)}`}>Replay ${r.text}</a>
          <span class="hint">${words[r.outcome] || r.outcome} · ${r.actions} moves</span></li>`)}</ul>`
      : html`<p class="hint">${list ? "Finished matches appear here to replay." : "Loading…"}</p>`}
    <label for="record-file">Open a saved game file</label>
    <input id="record-file" type="file" accept="application/json,.json" onChange=${load} />
    ${msg ? html`<p class="error" role="alert">${msg}</p>` : null}
  </div>`;
}
