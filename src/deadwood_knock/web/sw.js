// @ts-check
// Service worker: keeps the app shell, every piece of art and the public content so the saloon
// opens offline. Network first (so a running
// server always wins and updates show at once), the cache only when the network fails.
// Game state is never cached: it must always come from the server. Only public content is
// (characters, likenesses, the games' rule facts).
// Bump on every release that changes the shell: the new worker installs beside the old one and
// the app's version watch offers "Update now".
const CACHE = "dk-shell-v48";
/** This worker's own scope (a worker's `self`, typed as the service worker it is). */
const scope = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const SHELL = [
  "/",
  "/index.html",
  "/styles.css",
  "/manifest.webmanifest",
  "/icons/icon.svg",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/app/main.js",
  "/app/lib.js",
  "/app/api.js",
  "/app/store.js",
  "/app/cards.js",
  "/app/table.js",
  "/app/talk.js",
  "/app/dialogs.js",
  "/app/portraits.js",
  "/app/screens.js",
  "/app/matchstore.js",
  "/app/playback.js",
  "/app/tablelog.js",
  "/app/motion.js",
  "/app/sound.js",
  "/app/showdown.js",
  "/app/focus.js",
  "/app/trailmap.js",
  "/app/replay.js",
  "/app/examples.js",
  "/app/games.js",
  "/app/seats.js",
  "/app/piles.js",
  "/app/hand.js",
  "/app/controls.js",
  "/vendor/preact/dist/preact.mjs",
  "/vendor/preact/hooks/dist/hooks.mjs",
  "/vendor/htm/dist/htm.mjs",
];

// The art (portraits, likenesses, card backs) and public content the server lists at
// /api/offline; each is cached on its own, so one missing file never loses the rest.
async function cacheContent(cache) {
  const res = await fetch("/api/offline", { cache: "no-store" });
  if (!res.ok) return;
  const list = await res.json();
  const urls = [...(list.art || []), ...(list.api || [])];
  await Promise.all(urls.map((u) => cache.add(u).catch(() => undefined)));
}

self.addEventListener("install", (/** @type {ExtendableEvent} */ event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL).then(() => cacheContent(cache)))
      .catch(() => undefined)
      .then(() => scope.skipWaiting()),
  );
});

// Public content (no player's data) may come from the cache when the network is down.
const PUBLIC_API = new Set(["/api/characters", "/api/likenesses", "/api/games"]);

self.addEventListener("activate", (/** @type {ExtendableEvent} */ event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => scope.clients.claim()),
  );
});

self.addEventListener("fetch", (/** @type {FetchEvent} */ event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") && !PUBLIC_API.has(url.pathname)) return;
  event.respondWith(
    fetch(event.request)
      .then((res) => {
        if (res.ok) {
          const copy = res.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return res;
      })
      .catch(() =>
        caches
          .match(event.request, { ignoreSearch: true })
          .then((hit) => hit || (event.request.mode === "navigate" ? caches.match("/") : hit))
          .then((hit) => hit || new Response("Offline", { status: 503 })),
      ),
  );
});
