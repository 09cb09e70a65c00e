// @ts-check
//! 提示 (notices): what a player must read about moves they did not make themselves — the
//! clock's (时间到: a play, a warning, a penalty, for any seat), 托管's (for any seat; one line a
//! seat, the latest), a referee's with the reason the referee gave, a seat that lost its line or
//! came back (掉线), what happened while their own line was down, an action of theirs that
//! arrived after the table had moved on (`stale`).
//! Each stays in the dock, above the hand, until the player taps 知道了: whoever looked away
//! misses nothing. The words are built when drawn, so they follow the language switch.

import { h } from './dom.js';
import { t, pick, lang } from './i18n.js';
import { cardsText } from './cards.js';

/** @typedef {import('./protocol').Actor} Actor */
/** @typedef {import('./protocol').Problem} Problem */

/**
 * One stored action as the page received it (an `events` frame without the view).
 * @typedef {{ seq: number, seat: number, by: Actor, reason?: string, events: any[] }} Entry
 */

/**
 * A notice. `entries`: the moves it is about. `lost`: (away, caught up by a snapshot) cards that
 * left my hand meanwhile. `notSent`: an action of mine was given up, not sent again. `problem`:
 * (stale) the server's words.
 * `seat` and `change` (kind `seat`): a seat lost its line, came back, went on or off 托管.
 * @typedef {object} Notice
 * @property {'clock' | 'auto' | 'referee' | 'away' | 'stale' | 'seat'} kind
 * @property {number} id
 * @property {Entry[]} entries
 * @property {string[]} [lost]
 * @property {boolean} [notSent]
 * @property {number} [others]  (away) how many moves the others made meanwhile
 * @property {Problem} [problem]
 * @property {number} [seat]
 * @property {'offline' | 'back' | 'auto_on' | 'auto_off'} [change]
 */

/**
 * What drawing a notice needs from the table.
 * @typedef {object} Speaker
 * @property {number | null} me  my seat
 * @property {(seat: number) => string} nameOf
 * @property {(events: any[]) => { text: string, move: boolean }} describe  the game's words for what a move did (「出了黑桃3」); `move`: cards were played (not a warning alone)
 */

/** Does this move call for a notice of its own? The clock, 托管 and a referee: always. @param {Entry} e @param {number | null} _me */
export function noticeKind(e, _me) {
  if (e.by === 'clock') return 'clock';
  if (e.by === 'referee' || e.reason) return 'referee';
  if (e.by === 'auto') return 'auto';
  return null;
}

/** One move in words: 「时间到，系统替您出了黑桃3」. @param {Entry} e @param {Speaker} s */
export function entryText(e, s) {
  const who = e.seat === s.me ? t('you') : s.nameOf(e.seat);
  const said = s.describe(e.events);
  const what = said.text || t('did_move');
  let text;
  if (e.by === 'clock' && said.text && !said.move) text = t('note_clock_warn', { who, what });
  else if (e.by === 'clock') text = t('note_clock', { who, what });
  else if (e.by === 'auto') text = t('note_auto', { who, what });
  else if (e.by === 'referee') text = t('note_referee', { who, what });
  else text = t('note_moved', { who, what });
  return e.reason ? `${text}${t('sentence_gap')}${t('note_reason', { reason: e.reason })}` : text;
}

/** A notice in words, in the current language. @param {Notice} n @param {Speaker} s */
export function noticeText(n, s) {
  const items = n.entries.map((e) => entryText(e, s)).join(t('list_gap'));
  const parts = [];
  if (n.kind === 'away') {
    if (items) parts.push(t('note_away', { items }));
    else if (n.lost?.length) parts.push(t('note_away_lost', { cards: cardsText(n.lost, lang()) }));
    else if (n.others) parts.push(t('note_away_moved'));
    else parts.push(t('note_back'));
    if (n.notSent) parts.push(t('note_not_sent'));
  } else if (n.kind === 'seat' && n.seat !== undefined && n.change) {
    const key = { offline: 'seat_offline', back: 'seat_back', auto_on: 'seat_auto_on', auto_off: 'seat_auto_off' }[n.change];
    parts.push(t(key, { who: s.nameOf(n.seat) }));
  } else if (n.kind === 'stale') {
    parts.push(n.problem ? pick(n.problem) : t('note_not_sent'));
    if (items) parts.push(items);
  } else {
    parts.push(items);
  }
  return parts.join(t('sentence_gap'));
}

/**
 * The notices box in the dock: one line each, newest last, and one 知道了 that clears them.
 * Hidden (but present, for the live region) when there is nothing to read.
 * @param {Notice[]} notices @param {Speaker} s @param {() => void} dismiss
 */
export function noticeBox(notices, s, dismiss) {
  if (!notices.length) return h('div', { id: 'notices', role: 'status', 'aria-live': 'polite', hidden: true });
  return h(
    'div',
    { id: 'notices', class: 'notices', role: 'status', 'aria-live': 'polite' },
    h('ul', {}, notices.map((n) => h('li', { 'data-notice': n.kind }, noticeText(n, s)))),
    h('button', { id: 'notices-ok', 'data-key': 'notices-ok', 'on:click': dismiss }, t('notices_ok')),
  );
}
