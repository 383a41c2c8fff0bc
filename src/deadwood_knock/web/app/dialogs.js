// @ts-check
// Dialogs: an accessible modal (focus moves in, Tab stays in, Escape closes) and the fixed
// dialogs built on it.
import { html, useEffect, useRef, useState } from "./lib.js";
import { settings, update } from "./store.js";

let modalCount = 0;
// Open modals, newest last: Escape closes only the newest.
const openModals = [];

/** Whether a modal is open: it, not the page behind it, owns Escape. */
export function modalOpen() {
  return openModals.length > 0;
}

export function Modal({ title, onClose, backdropCloses = false, children, className = "" }) {
  const box = useRef(null);
  const id = useRef(`modal-${(modalCount += 1)}`);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const before = document.activeElement;
    const first = box.current && box.current.querySelector("button, [href], input, select");
    if (first) first.focus();
    // Escape is heard on the document, so it works even before focus has moved in (a key
    // pressed the moment the dialog appears) or after a click left focus on the page.
    const token = {};
    openModals.push(token);
    const onEscape = (e) => {
      if (e.key !== "Escape" || openModals[openModals.length - 1] !== token || !close.current) {
        return;
      }
      e.stopPropagation();
      close.current();
    };
    document.addEventListener("keydown", onEscape);
    return () => {
      document.removeEventListener("keydown", onEscape);
      openModals.splice(openModals.indexOf(token), 1);
      if (before instanceof HTMLElement && document.contains(before)) before.focus();
    };
  }, []);
  function onKey(e) {
    if (e.key === "Tab" && box.current) {
      const items = [...box.current.querySelectorAll("button:not([disabled]), [href], input, select")];
      if (!items.length) return;
      const first = items[0];
      const last = items[items.length - 1];
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
  }
  return html`<div class="backdrop" data-testid="backdrop"
      onClick=${(e) => { if (backdropCloses && e.target === e.currentTarget && onClose) onClose(); }}>
    <div class=${`modal ${className}`} role="dialog" aria-modal="true" aria-labelledby=${id.current}
      ref=${box} onKeyDown=${onKey}>
      <h2 id=${id.current}>${title}</h2>
      ${children}
    </div>
  </div>`;
}

export function LeaveDialog({ onBreak, onStay, onForfeit }) {
  // Forfeit asks once more: it ends the match for good.
  const [sure, setSure] = useState(false);
  if (sure) {
    return html`<${Modal} title="Forfeit this table?" onClose=${onStay}>
      <p>The match ends now and counts as a loss. This can't be undone.</p>
      <div class="stack">
        <button class="btn gold" onClick=${onStay}>Keep playing</button>
        <button class="btn danger" onClick=${onForfeit}>Forfeit and take the loss</button>
      </div>
    <//>`;
  }
  return html`<${Modal} title="Leave Table?" onClose=${onStay}>
    <p>Step away and come back to this match where you left it, keep playing, or give up the
      table and take the loss?</p>
    <div class="stack">
      <button class="btn" onClick=${onBreak}>Take a break</button>
      <button class="btn gold" onClick=${onStay}>Stay</button>
      <button class="btn danger" onClick=${() => setSure(true)}>Forfeit…</button>
    </div>
  <//>`;
}

export function ConfirmDialog({ title, text, confirmLabel, onConfirm, onCancel }) {
  return html`<${Modal} title=${title} onClose=${onCancel}>
    <p>${text}</p>
    <div class="stack">
      <button class="btn" onClick=${onCancel}>Cancel</button>
      <button class="btn danger" onClick=${onConfirm}>${confirmLabel}</button>
    </div>
  <//>`;
}

// Shown once, after a win: how to put the saloon on the home screen.
export function A2HSHint({ matchId = true }) {
  // Remembered by match, not by mount: if the dialog is mounted again for the same win (a
  // re-render of the table, a reload) the hint must still be there.
  const [show] = useState(() => {
    const seen = settings().a2hsShown;
    return !seen || seen === matchId;
  });
  useEffect(() => {
    if (show) update({ a2hsShown: matchId });
  }, []);
  if (!show) return null;
  const prompt = /** @type {any} */ (window).__dkInstallPrompt;
  return html`<div class="a2hs" role="note">
    <strong>App Shortcut</strong>
    <p>Like having the saloon close at hand? Put Deadwood Knock on your home screen and ride
      back in with one tap.</p>
    ${prompt
      ? html`<button class="btn small" onClick=${() => prompt.prompt()}>Add to home screen</button>`
      : html`<p class="hint">Open your browser's share or menu button and pick “Add to Home
          Screen”.</p>`}
  </div>`;
}

export function UpdateBanner({ onUpdate, onLater }) {
  return html`<div class="update-banner" role="alert">
    <p>A new version of Deadwood Knock is available — update now for the latest fixes and trail
      news.</p>
    <button class="btn gold small" onClick=${onUpdate}>Update now</button>
    <button class="btn ghost small" onClick=${onLater} aria-label="Update later">Later</button>
  </div>`;
}
