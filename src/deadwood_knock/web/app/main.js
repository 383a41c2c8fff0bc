// @ts-check
// Boot: routing by location hash, the top bar, the service worker, and the version watch that
// offers "update now" when the server's version changes under a running client.
import { html, render, useState, useEffect } from "./lib.js";
import { refreshCardBacks } from "./cards.js";
import { settings, subscribe, isOffline } from "./store.js";
import { health, optional } from "./api.js";
import { TableScreen } from "./table.js";
import { Welcome, Trail, Profile, Records, Gazette, Rules, Scoring } from "./screens.js";
import { UpdateBanner } from "./dialogs.js";
import { Replay } from "./replay.js";
import { useGames } from "./games.js";

let backsAsked = false;

const NAV = [
  ["/trail", "Trail"],
  ["/profile", "Profile"],
  ["/records", "Records"],
  ["/gazette", "Gazette"],
  ["/rules", "Rules"],
];

function currentRoute() {
  const h = location.hash.replace(/^#/, "") || "/trail";
  return h.startsWith("/") ? h : `/${h}`;
}

/** @type {string | null} */
let loadedVersion = null;
/** @type {(version: string) => void} */
let onNewVersion = () => {};

export async function checkVersion() {
  try {
    const h = await health();
    if (!h || !h.version) return;
    if (loadedVersion === null) loadedVersion = h.version;
    else if (h.version !== loadedVersion) onNewVersion(h.version);
  } catch {
    // Offline: nothing to compare against.
  }
}

async function applyUpdate() {
  if ("caches" in window) {
    for (const key of await caches.keys()) await caches.delete(key);
  }
  if (navigator.serviceWorker) {
    const reg = await navigator.serviceWorker.getRegistration();
    if (reg) await reg.update().catch(() => {});
  }
  location.reload();
}

function App() {
  const [route, setRoute] = useState(currentRoute());
  const [, setTick] = useState(0);
  const [newVersion, setNewVersion] = useState(null);
  const [characters, setCharacters] = useState(null);
  useGames(); // titles and rule words: every screen is drawn again when they arrive

  useEffect(() => {
    const onHash = () => {
      setRoute(currentRoute());
      checkVersion();
    };
    window.addEventListener("hashchange", onHash);
    const unsub = subscribe(() => setTick((t) => t + 1));
    onNewVersion = setNewVersion;
    checkVersion();
    const timer = setInterval(checkVersion, 30000);
    const onVis = () => document.visibilityState === "visible" && checkVersion();
    document.addEventListener("visibilitychange", onVis);
    window.addEventListener("focus", checkVersion);
    optional("/api/characters")
      .then((c) => setCharacters(c ? c.characters || c : null))
      .catch(() => {});
    return () => {
      window.removeEventListener("hashchange", onHash);
      document.removeEventListener("visibilitychange", onVis);
      window.removeEventListener("focus", checkVersion);
      clearInterval(timer);
      unsub();
    };
  }, []);

  // Move focus to the new screen's heading so keyboard and screen-reader users follow along.
  useEffect(() => {
    const hd = document.querySelector("main h1, main [aria-label]");
    if (hd instanceof HTMLElement && !route.startsWith("/table/")) {
      hd.setAttribute("tabindex", "-1");
      hd.focus({ preventScroll: true });
    }
    document.body.classList.toggle("large-print", !!settings().largePrint);
    // The card backs (names, art, unlocks) for the table and the profile: once a session,
    // and only once there is a player (asking for them would make one).
    if (!backsAsked && settings().token) {
      backsAsked = true;
      refreshCardBacks()
        .then((list) => list && setTick((t) => t + 1))
        .catch(() => {
          backsAsked = false;
        });
    }
  }, [route]);

  const s = settings();
  let screen;
  if (!s.name && route !== "/rules" && route !== "/scoring") screen = html`<${Welcome} />`;
  else if (route.startsWith("/table/")) {
    const id = decodeURIComponent(route.slice("/table/".length));
    screen = html`<${TableScreen} key=${id} matchId=${id} characters=${characters} />`;
  } else if (route.startsWith("/replay/")) {
    const id = decodeURIComponent(route.slice("/replay/".length));
    screen = html`<${Replay} key=${id} id=${id} />`;
  } else if (route === "/welcome") screen = html`<${Welcome} />`;
  else if (route === "/profile") screen = html`<${Profile} />`;
  else if (route === "/records") screen = html`<${Records} />`;
  else if (route === "/gazette") screen = html`<${Gazette} />`;
  else if (route === "/rules") screen = html`<${Rules} />`;
  else if (route === "/scoring") screen = html`<${Scoring} />`;
  else screen = html`<${Trail} />`;

  const atTable = route.startsWith("/table/");
  const bare = atTable || !s.name; // the table and the welcome screen have no top bar
  return html`
    ${newVersion
      ? html`<${UpdateBanner} onUpdate=${applyUpdate} onLater=${() => setNewVersion(null)} />`
      : null}
    ${bare
      ? null
      : html`<nav class="topnav" aria-label="Main">
          <a class="brand" href="#/trail">Deadwood Knock</a>
          <ul>${NAV.map(([r, label]) => html`<li key=${r}><a href=${`#${r}`}
            aria-current=${route === r ? "page" : undefined}>${label}</a></li>`)}</ul>
        </nav>`}
    ${isOffline()
      ? html`<p class="offline-banner" role="status"><strong>You're offline.</strong> The map, the rules
          and your records are here; tables, backups and the Gazette need the saloon's server and
          open again when you're back online.</p>`
      : null}
    <main id="main" class=${atTable ? "at-table" : ""}>${screen}</main>`;
}

window.addEventListener("beforeinstallprompt", (e) => {
  e.preventDefault();
  /** @type {any} */ (window).__dkInstallPrompt = e; // offered later, after a win
});

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}

const root = document.getElementById("app");
root.textContent = ""; // drop the "Saddling up…" placeholder
render(html`<${App} />`, root);
