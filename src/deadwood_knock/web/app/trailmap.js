// @ts-check
// The trail map: the American West drawn in SVG, each town at its real latitude and longitude
// (from the content), the route between them in journey order, and each town's state. It pans
// (drag), zooms (pinch, wheel, the + and − buttons) and a tap on a town opens its tables. The
// town lists below the map stay as the accessible alternative.
import { html, useState, useRef, useEffect } from "./lib.js";

// The main map: an equirectangular projection of 125°W–93°W, 25.5°N–50°N, with longitude
// shrunk by cos(37.5°) so shapes keep their proportions at the trail's middle latitude.
const LON0 = -125;
const LON1 = -93;
const LAT0 = 25.5;
const LAT1 = 50;
const K = 40;
const SHRINK = Math.cos((37.5 * Math.PI) / 180);
export const WIDTH = Math.round((LON1 - LON0) * SHRINK * K);
export const HEIGHT = Math.round((LAT1 - LAT0) * K);

function mainXY(lat, lon) {
  return [(lon - LON0) * SHRINK * K, (LAT1 - lat) * K];
}

// Alaska and the Klondike lie far off the main map: an inset (its own projection, at a smaller
// scale) in the Pacific corner, as atlases draw them.
const INSET = { lon0: -170, lon1: -130, lat0: 56, lat1: 67, x: 8, y: HEIGHT - 208, k: 6.2, shrink: Math.cos((61 * Math.PI) / 180) };
INSET.w = (INSET.lon1 - INSET.lon0) * INSET.shrink * INSET.k * 2;
INSET.h = (INSET.lat1 - INSET.lat0) * INSET.k * 2;

function inInset(lat, lon) {
  return lat > LAT1 || lon < LON0;
}

/** @param {number} lat @param {number} lon @returns {number[]} [x, y] on the map */
export function project(lat, lon) {
  if (!inInset(lat, lon)) return mainXY(lat, lon);
  return [
    INSET.x + (lon - INSET.lon0) * INSET.shrink * INSET.k * 2,
    INSET.y + (INSET.lat1 - lat) * INSET.k * 2,
  ];
}

const path = (pts) => pts.map(([lat, lon], i) => `${i ? "L" : "M"}${mainXY(lat, lon).map((v) => v.toFixed(1)).join(" ")}`).join(" ");

// Coarse outlines, (latitude, longitude) pairs: the Pacific, the Gulf of California and the
// Gulf of Mexico as water; the borders with Mexico and Canada as lines.
const PACIFIC = [[50, -125], [50, -124.9], [48.4, -124.7], [46.3, -124.05], [44, -124.1], [42, -124.35],
  [40.4, -124.4], [38.9, -123.7], [37.8, -122.5], [36.6, -121.9], [35.2, -120.8], [34.45, -120.45],
  [34, -118.8], [33.7, -118.2], [32.55, -117.1], [31.8, -116.6], [30, -115.8], [28, -114.2],
  [26.5, -113.2], [25.5, -112.1], [25.5, -125]];
const CORTEZ = [[31.7, -114.7], [30.3, -114.6], [29, -113.6], [27.8, -112.8], [25.5, -111.3],
  [25.5, -109.3], [27.2, -110.5], [28.4, -111.6], [29.3, -112.3], [30.5, -113.1], [31.3, -113.6]];
const GULF = [[29.8, -93], [29.6, -94.6], [29.3, -94.8], [28.4, -96.4], [27.8, -97.2], [26, -97.2],
  [25.5, -97.3], [25.5, -93]];
const MEXICO = [[32.53, -117.12], [32.72, -114.72], [31.33, -111.07], [31.33, -108.21],
  [31.78, -108.21], [31.78, -106.53], [30.6, -105], [29.8, -104.4], [29.2, -103.2], [29.5, -102.4],
  [29.8, -101.4], [28.7, -100.5], [27.5, -99.5], [26.4, -98.9], [25.95, -97.15]];
const CANADA = [[49, -123.3], [49, -95.2]];

const STATUS_WORDS = { completed: "cleared", open: "open", current: "you are here", locked: "locked" };

function townState(town, currentId) {
  if (town.id === currentId) return "current";
  return town.status === "completed" ? "completed" : town.status === "locked" ? "locked" : "open";
}

export function TrailMap({ towns, currentId, chosen, onChoose }) {
  const full = { x: 0, y: 0, w: WIDTH, h: HEIGHT };
  const [view, setView] = useState(full);
  const svg = useRef(null);
  const pointers = useRef(new Map());
  const gesture = useRef(null);
  const moved = useRef(0);
  const scale = WIDTH / view.w;

  // Start on the current town, a little zoomed in, so a phone shows where the player is.
  useEffect(() => {
    const here = towns.find((t) => t.id === currentId);
    if (here) zoomAt(2, ...project(here.latitude, here.longitude), full);
  }, [currentId]);

  function clamp(v) {
    const w = Math.min(WIDTH, Math.max(WIDTH / 8, v.w));
    const h = (w * HEIGHT) / WIDTH;
    return { w, h, x: Math.min(WIDTH - w, Math.max(0, v.x)), y: Math.min(HEIGHT - h, Math.max(0, v.y)) };
  }
  function zoomAt(factor, cx, cy, from = view) {
    const w = from.w / factor;
    const h = (w * HEIGHT) / WIDTH;
    setView(clamp({ w, h, x: cx - (cx - from.x) / factor, y: cy - (cy - from.y) / factor }));
  }
  function toMap(clientX, clientY) {
    const r = svg.current.getBoundingClientRect();
    return [view.x + ((clientX - r.left) / r.width) * view.w, view.y + ((clientY - r.top) / r.height) * view.h];
  }
  function onDown(e) {
    pointers.current.set(e.pointerId, [e.clientX, e.clientY]);
    moved.current = 0;
    gesture.current = { view, pts: new Map(pointers.current) };
  }
  function onMove(e) {
    if (!pointers.current.has(e.pointerId) || !gesture.current) return;
    pointers.current.set(e.pointerId, [e.clientX, e.clientY]);
    const r = svg.current.getBoundingClientRect();
    const start = gesture.current;
    const ids = [...pointers.current.keys()];
    if (ids.length === 1) {
      const [sx, sy] = start.pts.get(ids[0]) || [e.clientX, e.clientY];
      const dx = e.clientX - sx;
      const dy = e.clientY - sy;
      moved.current = Math.max(moved.current, Math.hypot(dx, dy));
      if (moved.current < 4) return;
      if (e.target.setPointerCapture && !e.target.hasPointerCapture(e.pointerId)) {
        svg.current.setPointerCapture(e.pointerId);
      }
      setView(clamp({ ...start.view, x: start.view.x - (dx / r.width) * start.view.w,
        y: start.view.y - (dy / r.height) * start.view.h }));
    } else if (ids.length >= 2) {
      // Pinch: the distance between two fingers now against when they touched down.
      const [a, b] = ids;
      const a0 = start.pts.get(a);
      const b0 = start.pts.get(b);
      if (!a0 || !b0) {
        gesture.current = { view, pts: new Map(pointers.current) };
        return;
      }
      const [a1, b1] = [pointers.current.get(a), pointers.current.get(b)];
      const d0 = Math.hypot(a0[0] - b0[0], a0[1] - b0[1]) || 1;
      const d1 = Math.hypot(a1[0] - b1[0], a1[1] - b1[1]) || 1;
      moved.current = 99;
      const mx = (a0[0] + b0[0]) / 2;
      const my = (a0[1] + b0[1]) / 2;
      const cx = start.view.x + ((mx - r.left) / r.width) * start.view.w;
      const cy = start.view.y + ((my - r.top) / r.height) * start.view.h;
      const f = d1 / d0;
      const w = start.view.w / f;
      setView(clamp({ w, h: (w * HEIGHT) / WIDTH, x: cx - (cx - start.view.x) / f, y: cy - (cy - start.view.y) / f }));
    }
  }
  function onUp(e) {
    pointers.current.delete(e.pointerId);
    gesture.current = pointers.current.size ? { view, pts: new Map(pointers.current) } : null;
  }
  function onWheel(e) {
    e.preventDefault();
    zoomAt(e.deltaY < 0 ? 1.25 : 0.8, ...toMap(e.clientX, e.clientY));
  }
  useEffect(() => {
    const el = svg.current;
    if (!el) return undefined;
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  });
  const choose = (id) => {
    if (moved.current < 6) onChoose(id);
  };

  const placed = towns.map((t) => ({ t, xy: project(t.latitude, t.longitude), state: townState(t, currentId) }));
  const route = placed.map(({ xy }, i) => `${i ? "L" : "M"}${xy[0].toFixed(1)} ${xy[1].toFixed(1)}`).join(" ");
  const grid = [];
  for (let lon = -120; lon <= -95; lon += 5) {
    const [x] = mainXY(30, lon);
    grid.push(html`<line key=${`m${lon}`} x1=${x} y1="0" x2=${x} y2=${HEIGHT} class="graticule" />`);
  }
  for (let lat = 30; lat <= 45; lat += 5) {
    const [, y] = mainXY(lat, -110);
    grid.push(html`<line key=${`p${lat}`} x1="0" y1=${y} x2=${WIDTH} y2=${y} class="graticule" />`);
  }
  const r = 9 / Math.sqrt(scale);
  const showNames = scale >= 2.4;
  return html`<div class="trail-map">
    <svg ref=${svg} class="map-svg" viewBox=${`${view.x} ${view.y} ${view.w} ${view.h}`}
      role="group" aria-label="Trail map of the American West" data-scale=${scale.toFixed(2)}
      onPointerDown=${onDown} onPointerMove=${onMove} onPointerUp=${onUp} onPointerCancel=${onUp}>
      <rect x="0" y="0" width=${WIDTH} height=${HEIGHT} class="land" />
      ${grid}
      <path d=${`${path(PACIFIC)} Z`} class="water" />
      <path d=${`${path(CORTEZ)} Z`} class="water" />
      <path d=${`${path(GULF)} Z`} class="water" />
      <path d=${path(MEXICO)} class="border" />
      <path d=${path(CANADA)} class="border" />
      <rect x=${INSET.x} y=${INSET.y} width=${INSET.w} height=${INSET.h} class="inset" />
      <text x=${INSET.x + 6} y=${INSET.y + 16} class="map-note" aria-hidden="true">Alaska & Yukon (inset, smaller scale)</text>
      <path d=${route} class="route" />
      ${placed.map(({ t, xy, state }) => {
        const posters = (t.wanted || []).length;
        const label = `${t.name}: ${STATUS_WORDS[state]}${posters ? `, wanted poster${posters > 1 ? "s" : ""}` : ""}`;
        const named = showNames || state === "current" || chosen === t.id;
        return html`<g key=${t.id} class=${`town-pin ${state}${chosen === t.id ? " chosen" : ""}`}
          data-town=${t.id} data-x=${xy[0].toFixed(2)} data-y=${xy[1].toFixed(2)}
          transform=${`translate(${xy[0].toFixed(1)} ${xy[1].toFixed(1)})`}
          role="button" tabindex="0" aria-label=${label} aria-pressed=${chosen === t.id ? "true" : "false"}
          onClick=${() => choose(t.id)}
          onKeyDown=${(e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onChoose(t.id); } }}>
          <circle r=${r * 2.2} class="hit" />
          <circle r=${state === "current" ? r * 1.35 : r} class="dot" />
          ${state === "completed" ? html`<path d=${`M${-r * 0.55} 0 L${-r * 0.1} ${r * 0.5} L${r * 0.6} ${-r * 0.5}`} class="tick" />` : null}
          ${posters ? html`<text x=${r * 0.9} y=${-r * 0.9} class="star" font-size=${r * 2.8} aria-hidden="true">★</text>` : null}
          ${named ? html`<text x=${r * 1.6} y=${r * 0.45} class="pin-name" font-size=${Math.max(10, 15 / Math.sqrt(scale))}>${t.name}</text>` : null}
        </g>`;
      })}
    </svg>
    <div class="map-tools">
      <button type="button" class="btn small" onClick=${() => zoomAt(1.5, view.x + view.w / 2, view.y + view.h / 2)} aria-label="Zoom in">+</button>
      <button type="button" class="btn small" onClick=${() => zoomAt(1 / 1.5, view.x + view.w / 2, view.y + view.h / 2)} aria-label="Zoom out">−</button>
      <button type="button" class="btn small ghost" onClick=${() => setView(full)}>Whole map</button>
      <span class="map-key" aria-hidden="true"><i class="k current"></i>here <i class="k completed"></i>cleared <i class="k open"></i>open <i class="k locked"></i>locked ★ poster</span>
    </div>
  </div>`;
}
