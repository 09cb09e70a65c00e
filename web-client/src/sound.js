// @ts-check
//! The turn sound: a soft two-note chime made by WebAudio, so no sound file is fetched.
//! Switched off in the settings, it stays silent.

import { settings } from './settings.js';

/** @type {AudioContext | null} */
let ctx = null;

/** Counts chimes, so tests can see one was asked for even in a silent headless browser. */
export let chimes = 0;

/** Plays the chime if the sound is on. */
export function turnChime() {
  if (!settings().sound) return;
  chimes += 1;
  try {
    ctx ??= new AudioContext();
    const now = ctx.currentTime;
    for (const [i, freq] of [660, 880].entries()) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.25, now + i * 0.18 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.18 + 0.35);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + i * 0.18);
      osc.stop(now + i * 0.18 + 0.4);
    }
  } catch {
    // No audio device: the turn is still shown on screen.
  }
}
