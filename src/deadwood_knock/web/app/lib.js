// @ts-check
// One place that binds htm to Preact, so every module writes the same `html` tag.
import { h, render, Fragment } from "preact";
import htm from "htm";

export const html = htm.bind(h);
export { h, render, Fragment };
export { useState, useEffect, useRef, useMemo, useCallback, useReducer } from "preact/hooks";

// Honour the OS "reduce motion" choice; animations are short either way so they never hold play up.
/** @returns {boolean} */
export function prefersReducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** @param {string} route a hash route such as "/trail" */
export function navigate(route) {
  if (location.hash !== `#${route}`) location.hash = route;
}
