// @ts-check
//! Pieces both tables use: card faces, a row of cards, name plates, the clock, the refusal box.

import { h } from './dom.js';
import { card, colourClass, cardName, rankSymbol, SUIT_SYMBOL } from './cards.js';
import { settings } from './settings.js';
import { t, pick, lang } from './i18n.js';

/**
 * A card face. With `onClick` it is a toggle button (tap to select, tap again to unselect).
 * @param {string} code
 * `dim`: the engine says this card is part of no legal play now (drawn paler, still tappable).
 * @param {{ small?: boolean, selected?: boolean, onClick?: () => void, dim?: boolean, key?: string }} [opts]
 */
export function cardFace(code, opts = {}) {
  const c = card(code);
  const cls = ['card', colourClass(c, settings().fourColour)];
  if (c.joker) cls.push('joker');
  if (opts.small) cls.push('small');
  if (opts.dim) cls.push('dim');
  const label = cardName(c, lang());
  const face = c.joker
    ? [h('span', { class: 'r', 'aria-hidden': 'true' }, c.joker === 'RJ' ? '大王' : '小王'), h('span', { class: 's', 'aria-hidden': 'true' }, '★')]
    : [
        h('span', { class: 'r', 'aria-hidden': 'true' }, rankSymbol(c.rank)),
        h('span', { class: 's', 'aria-hidden': 'true' }, SUIT_SYMBOL[/** @type {'S'|'H'|'D'|'C'} */ (c.suit)]),
      ];
  if (opts.onClick) {
    return h(
      'button',
      {
        class: cls.join(' '),
        type: 'button',
        'aria-pressed': String(!!opts.selected),
        'aria-label': label,
        'data-card': c.code,
        'data-playable': opts.dim ? 'false' : undefined,
        'data-key': opts.key,
        'on:click': opts.onClick,
      },
      face,
    );
  }
  return h('span', { class: cls.join(' '), role: 'img', 'aria-label': label, 'data-card': c.code }, face);
}

/** A row of small face-up cards. @param {string[]} codes */
export function cardRow(codes, small = true) {
  return h('span', { class: 'cards' }, codes.map((c) => cardFace(c, { small })));
}

/**
 * The clock of the seat to act: seconds left, red and pulsing from 10 s.
 * @param {number} remainingMs
 */
export function clockEl(remainingMs) {
  const s = Math.max(0, Math.ceil(remainingMs / 1000));
  return h('span', { class: 'clock' + (s <= 10 ? ' warning' : ''), role: 'timer', 'data-clock': '' }, t('seconds', { n: s }));
}

/** Updates every clock on the page in place (called a few times a second). @param {number} remainingMs */
export function tickClocks(remainingMs) {
  const s = Math.max(0, Math.ceil(remainingMs / 1000));
  for (const el of document.querySelectorAll('[data-clock]')) {
    el.textContent = t('seconds', { n: s });
    el.classList.toggle('warning', s <= 10);
  }
}

/**
 * A refusal from the server: large, next to the cards, until the next action.
 * @param {import('./protocol').Problem | null} problem
 */
export function refusalBox(problem) {
  if (!problem) return h('div', { id: 'refusal', role: 'alert', 'aria-live': 'assertive', hidden: true });
  return h(
    'div',
    { id: 'refusal', class: 'refusal', role: 'alert', 'aria-live': 'assertive', 'data-code': problem.code },
    pick(problem),
    lang() === 'zh' ? null : h('span', { class: 'code', lang: 'zh' }, problem.zh),
  );
}

/**
 * A seat's name plate: the name, tags (庄家, 对头, …), cards left, and the clock on their turn.
 * @param {object} o
 * @param {string} o.name
 * @param {string[]} o.tags  already translated, each as [class, text]
 * @param {number | null} o.count
 * @param {boolean} o.turn
 * @param {number | null} o.clockMs
 * @param {string} o.key
 * @param {string | null} [o.botLevel]  the computers' level, shown on the 「电脑」 tag
 */
export function nameplate(o) {
  return h(
    'div',
    { class: 'nameplate' + (o.turn ? ' turn' : ''), 'data-seat-plate': o.key },
    h('span', { class: 'name' }, o.name),
    o.tags.length
      ? h('span', { class: 'tags' }, o.tags.map((tag) => {
          const [cls, text] = tag.split('|');
          if (cls !== 'bot' || !o.botLevel) return h('span', { class: 'tag ' + cls }, text);
          // 「电脑·高手」: the level its creator chose, on the seat because the top bar has no room
          // left at tablet width (a second line of it squeezed the dock). Hidden on a phone, where the
          // plates are narrow: the lobby's list says it there.
          return h('span', { class: 'tag bot', 'data-bot-level': o.botLevel }, text, h('span', { class: 'level' }, `·${t(`bot_level_${o.botLevel}`)}`));
        }))
      : null,
    o.count === null ? null : h('span', { class: 'count', 'data-count': String(o.count) }, cardsLeft(o.count)),
    o.turn && o.clockMs !== null ? clockEl(o.clockMs) : null,
  );
}

/**
 * Cards left, 「剩 24 张」: the 「剩」 is a word of its own, left out when the plates fold into one
 * line on a short screen (style.css `.count-word`).
 * @param {number} n
 */
export function cardsLeft(n) {
  const pre = t('cards_left_pre');
  return pre ? [h('span', { class: 'count-word' }, pre), t('cards_left_n', { n })] : t('cards_left', { n });
}

/** A dialog over the table (the result, the review, the opponents' choice). @param {string} title @param {...any} body */
export function dialog(title, ...body) {
  return h(
    'div',
    { class: 'overlay' },
    h('div', { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-label': title }, h('h2', {}, title), ...body),
  );
}
