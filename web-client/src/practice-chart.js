// @ts-check
//! 我的成绩图 (the practice page's chart): a player's percentage over the weeks, drawn as SVG
//! built here — no chart library, nothing fetched. Each set is a dot at its week; a line joins
//! each week's average (weeks with no set are left as gaps on the axis); 50 % (the middle of the
//! field) is marked. Drawn at the box's width in pixels (no viewBox scaling), so its text is the
//! size it says: never under 18 px (22 px with 大字). Redrawn when the box changes width.

import { pw } from './practice-words.js';
import { lang } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';
const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * One set on the chart: when it was begun and its percentage (sets without one are left out).
 * @typedef {{ set: string, name: string, began_ms: number, percent?: number }} ChartLine
 */

/** @param {string} tag @param {Record<string, string | number>} [attrs] @param {(Element | string)[]} [children] */
function s(tag, attrs = {}, children = []) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/** The Monday 00:00 (local time) of the week of `ms`. @param {number} ms */
function weekStart(ms) {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return d.getTime();
}

/** 「12/1」 @param {number} ms */
function dayLabel(ms) {
  const d = new Date(ms);
  return lang() === 'en' ? `${d.getDate()}/${d.getMonth() + 1}` : `${d.getMonth() + 1}/${d.getDate()}`;
}

/** A percentage as the server gives it (two decimals at most). @param {number} p */
export function percentText(p) {
  return String(Math.round(p * 100) / 100);
}

/**
 * The weeks from the first set's to the last's, each with its sets' percentages and their mean.
 * @param {ChartLine[]} lines
 */
export function weeks(lines) {
  const points = lines.filter((l) => typeof l.percent === 'number');
  if (!points.length) return [];
  const first = Math.min(...points.map((l) => weekStart(l.began_ms)));
  const last = Math.max(...points.map((l) => weekStart(l.began_ms)));
  /** @type {{ start: number, sets: ChartLine[], mean: number | null }[]} */
  const out = [];
  // Step by dates, not by 7 × 24 h: a summer-time change moves midnight by an hour.
  for (let w = first, i = 0; w <= last && i < 520; i++) {
    const sets = points.filter((l) => weekStart(l.began_ms) === w);
    out.push({ start: w, sets, mean: sets.length ? sets.reduce((a, l) => a + /** @type {number} */ (l.percent), 0) / sets.length : null });
    w = weekStart(w + WEEK_MS + 12 * 3600 * 1000);
  }
  return out;
}

/**
 * Draws the chart into `box` (its width), and again when the box's width changes. Nothing (and
 * the box hidden) when no set has a percentage yet.
 * @param {HTMLElement} box @param {ChartLine[]} lines @param {{ big: boolean }} o
 */
export function historyChart(box, lines, o) {
  const ws = weeks(lines);
  box.hidden = ws.length === 0;
  if (!ws.length) return;
  let drawnAt = 0;
  const draw = () => {
    const width = Math.max(240, Math.floor(box.clientWidth));
    if (width === drawnAt) return;
    drawnAt = width;
    box.replaceChildren(chart(ws, width, o.big));
  };
  draw();
  const observer = new ResizeObserver(() => {
    if (!box.isConnected) observer.disconnect();
    else draw();
  });
  observer.observe(box);
}

/**
 * @param {ReturnType<typeof weeks>} ws @param {number} width @param {boolean} big
 */
function chart(ws, width, big) {
  const font = big ? 22 : 18;
  const left = font * 3.2;
  const right = font;
  const top = font;
  const bottom = font * 2.2;
  const height = Math.round(Math.min(360, Math.max(220, width * 0.5)));
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const n = ws.length;
  const x = (/** @type {number} */ i) => left + (n === 1 ? plotW / 2 : (plotW * i) / (n - 1));
  const y = (/** @type {number} */ p) => top + plotH * (1 - Math.max(0, Math.min(100, p)) / 100);
  const label = pw('chart_label', { weeks: ws.filter((w) => w.mean !== null).map((w) => pw('chart_week', { day: dayLabel(w.start), p: percentText(/** @type {number} */ (w.mean)) })).join(lang() === 'en' ? '; ' : '；') });
  const svg = s('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label, class: 'chart', 'data-weeks': n, 'font-size': font });
  svg.append(s('title', {}, [label]));
  // The scale: 0, 25, 50, 75, 100 %, 50 % marked as the middle of the field.
  for (const p of [0, 25, 50, 75, 100]) {
    svg.append(
      s('line', { x1: left, x2: width - right, y1: y(p), y2: y(p), stroke: p === 50 ? '#ffd21f' : '#3d7f5d', 'stroke-width': p === 50 ? 3 : 1, 'stroke-dasharray': p === 50 ? '8 6' : '' }),
      s('text', { x: left - 8, y: y(p) + font * 0.35, 'text-anchor': 'end', fill: '#ffffff', 'font-size': font }, [`${p}%`]),
    );
  }
  // Week labels, as many as fit side by side.
  const every = Math.max(1, Math.ceil((font * 3.4 * n) / plotW));
  ws.forEach((w, i) => {
    if (i % every !== 0) return;
    svg.append(s('text', { x: x(i), y: height - font * 0.6, 'text-anchor': 'middle', fill: '#ffffff', 'font-size': font, 'data-week': dayLabel(w.start) }, [dayLabel(w.start)]));
  });
  // Each week's mean, joined where weeks follow one another.
  const means = ws.map((w, i) => (w.mean === null ? null : [x(i), y(w.mean)]));
  let d = '';
  means.forEach((m, i) => {
    if (!m) return;
    d += `${i > 0 && means[i - 1] ? 'L' : 'M'}${m[0].toFixed(1)} ${m[1].toFixed(1)} `;
  });
  if (d) svg.append(s('path', { d: d.trim(), fill: 'none', stroke: '#ffd21f', 'stroke-width': 4, 'stroke-linejoin': 'round' }));
  ws.forEach((w, i) => {
    for (const l of w.sets) svg.append(s('circle', { cx: x(i), cy: y(/** @type {number} */ (l.percent)), r: big ? 7 : 6, fill: '#ffffff', stroke: '#08331f', 'stroke-width': 2, 'data-set': l.set, 'data-percent': String(l.percent) }));
    if (w.mean !== null) svg.append(s('circle', { cx: x(i), cy: y(w.mean), r: big ? 9 : 8, fill: '#ffd21f', stroke: '#08331f', 'stroke-width': 2, 'data-mean': percentText(w.mean) }));
  });
  return svg;
}
