// @ts-check
// Table sounds, made in the browser with Web Audio (no audio files): a draw, a discard, a
// knock, and a short phrase for winning or losing the pot. Off unless the player turns it on.
import { settings } from "./store.js";

let ctx = null;
let noise = null;
// What was played, newest last (kept short): lets a test see that sound follows the setting.
export const played = [];

function audio() {
  if (!ctx) {
    // Older Safari names it webkitAudioContext.
    const AC = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// Called from the click that turns sound on: browsers start audio only from a gesture.
export function unlockSound() {
  audio();
}

function noiseBuffer(c) {
  if (!noise || noise.sampleRate !== c.sampleRate) {
    noise = c.createBuffer(1, Math.floor(c.sampleRate * 0.3), c.sampleRate);
    const data = noise.getChannelData(0);
    let seed = 7;
    for (let i = 0; i < data.length; i += 1) {
      seed = (seed * 16807) % 2147483647; // a fixed hiss: the same every time
      data[i] = (seed / 2147483647) * 2 - 1;
    }
  }
  return noise;
}

function envelope(c, at, peak, attack, decay) {
  const g = c.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(peak, at + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, at + attack + decay);
  g.connect(c.destination);
  return g;
}

function hiss(c, at, freq, q, peak, decay) {
  const src = c.createBufferSource();
  src.buffer = noiseBuffer(c);
  const filter = c.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = q;
  src.connect(filter);
  filter.connect(envelope(c, at, peak, 0.005, decay));
  src.start(at);
  src.stop(at + decay + 0.05);
}

function tone(c, at, freq, type, peak, decay, glideTo = null) {
  const osc = c.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (glideTo) osc.frequency.exponentialRampToValueAtTime(glideTo, at + decay);
  osc.connect(envelope(c, at, peak, 0.004, decay));
  osc.start(at);
  osc.stop(at + decay + 0.05);
}

const EFFECTS = {
  draw: (c, t) => hiss(c, t, 3200, 0.8, 0.18, 0.11),
  discard: (c, t) => {
    hiss(c, t, 1800, 1.2, 0.22, 0.06);
    tone(c, t, 190, "sine", 0.25, 0.08, 120);
  },
  knock: (c, t) => {
    for (const d of [0, 0.17]) {
      tone(c, t + d, 150, "sine", 0.5, 0.12, 90);
      hiss(c, t + d, 900, 2, 0.2, 0.04);
    }
  },
  win: (c, t) => {
    [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => tone(c, t + i * 0.09, f, "triangle", 0.22, 0.25));
  },
  lose: (c, t) => {
    [392, 311.13, 261.63].forEach((f, i) => tone(c, t + i * 0.16, f, "triangle", 0.2, 0.3));
  },
};

export function playSound(kind) {
  if (!settings().sound || !EFFECTS[kind]) return;
  const c = audio();
  if (!c) return;
  EFFECTS[kind](c, c.currentTime + 0.01);
  played.push(kind);
  if (played.length > 50) played.shift();
}
