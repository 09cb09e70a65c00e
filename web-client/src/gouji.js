// @ts-check
//! 够级 table: six seats with my 对头 and 联邦 marked; the hand grouped by rank with counts (2s and
//! jokers apart); a set built from the groups with the rule's verdict before it is sent; 过, 让,
//! 烧 and the burn prompt; 问牌; cards left; the finishing order, 开点 and the scores.

import { h } from './dom.js';
import { t, lang } from './i18n.js';
import { goujiGroups, goujiLabel } from './cards.js';
import { cardRow, nameplate, refusalBox, clockEl, dialog } from './ui.js';
import { seatNames, isBotName } from './table.js';
import { goujiModel, goujiActions, opposite, sameTeam, seatIndex } from './gouji-model.js';
import { verdict } from './gouji-rules.js';

/** @typedef {import('./gouji-model.js').GoujiModel} GoujiModel */

/** Seats on screen: me at the bottom (0), then counter-clockwise: 下家 bottom-right, … */
export function seatAt(/** @type {number} */ me, /** @type {number} */ pos) {
  return (me + pos) % 6;
}

/** @returns {import('./table.js').GameUI} */
export function goujiUI() {
  /** How many cards of each value (4..17) are in the set being built. @type {Map<number, number>} */
  let chosen = new Map();
  let handKey = '';
  /** The last 问牌 answer, shown until the next trick. @type {string | null} */
  let countNote = null;
  /** The sets each seat played in this trick (from the announcements, 报牌). @type {Map<number, string[]>} */
  let played = new Map();
  let resultClosed = false;

  return {
    onSnapshot() {
      played = new Map();
    },
    onEvent(ev, _msg, ctx) {
      if (ev.type === 'led') played = new Map();
      if (ev.type === 'led' || ev.type === 'beat' || ev.type === 'burned') played.set(seatIndex(ev.seat), ev.cards ?? []);
      if (ev.type === 'count_answered' && ctx.model.seat !== null && seatIndex(ev.asker) === ctx.model.seat) {
        const who = seatNames('gouji')[seatIndex(ev.about)];
        const a = ev.answer ?? {};
        countNote = a.kind === 'exact' ? t('count_answer', { who, n: a.n }) : t('count_more', { who });
      }
      if (ev.type === 'trick_won') {
        countNote = null;
        played = new Map();
      }
    },
    render(ctx) {
      const m = goujiModel(ctx.model.view);
      const me = ctx.model.seat ?? 0;
      const isSeat = ctx.model.role === 'seat';
      const names = seatNames('gouji');
      const nameOf = (/** @type {number} */ s) => ctx.model.seats[s]?.name ?? names[s];
      const hand = m.hand ?? [];
      const groups = goujiGroups(hand);
      const key = hand.join(',');
      if (key !== handKey) {
        chosen = new Map();
        handKey = key;
      }
      const myTurn = ctx.model.myTurn;
      const offer = isSeat && m.prompt === 'burn_offer' && m.turn === me && myTurn;
      const clockMs = ctx.model.clock ? ctx.model.clock.deadline - performance.now() : null;
      const act = goujiActions;

      /** The actual cards of the set being built. */
      const cards = groups.flatMap((g) => g.cards.slice(0, chosen.get(g.value) ?? 0));
      // The engine says in the prompt whether this seat may beat the top set; a burn offer may.
      const mayBeat = offer || m.prompt !== 'respond' || m.turn !== me || m.mayBeat;
      const v = verdict(cards, { top: m.top ? m.top.cards : null, topIsGouji: !!m.top?.gouji, mayBeat, jokerRequired: m.prompt === 'lead' && m.turn === me && m.jokerRequired, wholeHand: cards.length === hand.length });

      // ---- Top bar.
      const info = [
        m.game ? h('span', {}, t('game_n', { n: m.game })) : null,
        m.score ? h('span', { 'data-score': `${m.score.a}:${m.score.b}` }, `${t('scores')} `, h('b', {}, `A ${m.score.a} : ${m.score.b} B`)) : null,
        m.freePlay ? h('span', { class: 'chip' }, t('four_free')) : null,
      ].filter((x) => x !== null);

      // ---- Six seats.
      const tagsOf = (/** @type {number} */ s) => {
        const seatInfo = ctx.model.seats[s];
        const tags = [`|${names[s]}`];
        if (isSeat && s === opposite(me)) tags.push('opposite|' + t('opposite'));
        if (isSeat && s !== me && sameTeam(s, me)) tags.push('team|' + t('team'));
        const place = m.places[s];
        if (place !== null && place !== undefined) tags.push('placed|' + t(`place_${place + 1}`));
        if (m.opened[s]) tags.push('|' + t('opened'));
        if (m.marked[s]) tags.push('opposite|' + t('marked'));
        if (m.burning[s]) tags.push('opposite|' + t('burning'));
        if (m.status[s] === 'failed') tags.push('opposite|' + t('burn_failed'));
        if (seatInfo?.bot && !isBotName(seatInfo.name)) tags.push('|' + t('bot'));
        if (seatInfo && !seatInfo.bot && !seatInfo.name) tags.push('offline|' + t('empty_seat'));
        if (seatInfo && !seatInfo.bot && seatInfo.name && !seatInfo.connected) tags.push('offline|' + t('offline'));
        if (seatInfo?.auto) tags.push('offline|' + t('auto_play'));
        return tags;
      };
      const positions = isSeat ? [1, 2, 3, 4, 5] : [0, 1, 2, 3, 4, 5];
      const plates = positions.map((pos) => {
        const s = seatAt(me, pos);
        const tags = tagsOf(s);
        const turn = ctx.model.toAct.includes(s) && ctx.model.tableState === 'playing';
        const count = m.counts[s];
        const said = m.passed[s] ? 'pass' : m.yielded[s] ? 'yield' : played.get(s) ?? null;
        return h(
          'div',
          { class: 'seat', style: `grid-area:p${pos}`, 'data-seat': String(s) },
          nameplate({ name: nameOf(s), tags, count: null, turn, clockMs: turn && s !== me ? clockMs : null, key: String(s) }),
          count ? h('span', { class: 'count', 'data-count': String(count.n) }, count.exact ? t('cards_left', { n: count.n }) : t('count_more', { who: '' }).trim()) : null,
          // What the seat did in this trick; the top set itself is shown in the middle.
          h('span', { class: 'said' }, said === 'pass' ? t('pass') : said === 'yield' ? t('yield') : Array.isArray(said) && m.top?.seat !== s ? cardRow(said) : ''),
        );
      });
      const top = m.top
        ? h('div', { class: 'play winning', id: 'top-set', 'data-gouji': String(m.top.gouji) },
            h('span', { class: 'who' }, `${t('top_set')} · ${nameOf(m.top.seat)}`),
            cardRow(m.top.cards),
            m.top.gouji ? h('span', { class: 'win-tag' }, t('verdict_gouji')) : null,
          )
        : null;
      const felt = h('section', { class: 'felt six' + (ctx.model.role === 'seat' ? '' : ' watch'), tabindex: 0, 'aria-label': t('current_trick') }, plates,
        h('div', { class: 'trick' }, top, countNote ? h('div', { class: 'notice', id: 'count-note' }, countNote) : null));

      // ---- Dock.
      const status = [];
      if (isSeat) status.push(h('span', { class: 'me' }, nameOf(me), tagsOf(me).map((x) => h('span', { class: 'tag ' + x.split('|')[0] }, x.split('|')[1]))));
      if (m.over || ctx.model.tableState === 'over') status.push(h('span', {}, t('game_result')));
      else if (offer) status.push(h('span', {}, t('burn_prompt', { who: m.top ? nameOf(m.top.seat) : '' })));
      else if (myTurn) status.push(h('span', {}, t('your_turn')));
      else {
        const who = ctx.model.toAct.map(nameOf).join('、');
        if (who) status.push(h('span', {}, t('waiting_for', { name: who })));
      }
      if (myTurn && clockMs !== null) status.push(clockEl(clockMs));

      const groupButtons = groups.map((g) => {
        const n = chosen.get(g.value) ?? 0;
        const special = g.value >= 15;
        const joker = g.value >= 16;
        return h(
          'button',
          {
            class: 'group-btn' + (special ? ' special' : '') + (joker ? ' joker' : '') + (g.value === 17 ? ' red' : ''),
            type: 'button',
            'aria-pressed': String(n > 0),
            'data-key': `g${g.value}`,
            'data-value': String(g.value),
            'on:click': () => {
              if (n > 0) chosen.delete(g.value);
              else {
                // One natural rank per set: choosing another replaces it.
                if (g.value <= 14) for (const k of [...chosen.keys()]) if (k <= 14) chosen.delete(k);
                chosen.set(g.value, g.count);
              }
              ctx.rerender();
            },
          },
          h('span', { class: 'gr' }, goujiLabel(g.value, lang())),
          h('span', { class: 'gc' }, `×${g.count}`),
          n ? h('span', { class: 'gsel' }, `✓ ${n}`) : null,
        );
      });

      const parts = [...chosen.entries()].sort((a, b) => b[0] - a[0]).map(([value, n]) => {
        const max = groups.find((g) => g.value === value)?.count ?? 0;
        const label = goujiLabel(value, lang());
        return h('span', { class: 'part', 'data-part': String(value) },
          h('button', { 'aria-label': `${t('less')} ${label}`, 'data-key': `less${value}`, 'on:click': () => { if (n <= 1) chosen.delete(value); else chosen.set(value, n - 1); ctx.rerender(); } }, '−'),
          `${label} ×${n}`,
          h('button', { 'aria-label': `${t('more')} ${label}`, 'data-key': `more${value}`, disabled: n >= max, 'on:click': () => { chosen.set(value, Math.min(max, n + 1)); ctx.rerender(); } }, '+'),
        );
      });
      const canSend = myTurn && cards.length > 0 && v.kind !== 'bad';
      const send = () => {
        if (!canSend) return;
        ctx.act(offer ? act.burn(cards) : act.play(cards));
      };
      const mayYield = myTurn && m.prompt === 'respond' && m.mayYield;
      const builder = isSeat && hand.length
        ? h('div', { class: 'builder', id: 'builder', 'aria-label': t('set_builder') },
            h('span', {}, `${t('set_builder')}:`),
            parts.length ? parts : h('span', { class: 'hint' }, t('set_empty')),
            cards.length ? h('button', { class: 'selection', id: 'selection', disabled: !canSend, 'on:click': send }, h('span', {}, `${offer ? t('burn') : t('play')}:`), cardRow(cards)) : null,
            v.kind !== 'none' ? h('span', { class: 'verdict ' + v.kind, id: 'verdict', 'data-verdict': v.kind }, t(v.key, v.params)) : null,
          )
        : null;
      const actions = isSeat && !m.over
        ? h('div', { class: 'actions' },
            h('button', { class: 'primary', id: 'play', disabled: !canSend, 'on:click': send }, offer ? t('burn') : t('play')),
            offer
              ? h('button', { id: 'decline', disabled: !myTurn, 'on:click': () => ctx.act(act.decline()) }, t('no_burn'))
              : h('button', { id: 'pass', disabled: !myTurn || m.prompt !== 'respond', 'on:click': () => ctx.act(act.pass()) }, t('pass')),
            offer ? null : h('button', { id: 'yield', disabled: !mayYield, 'on:click': () => ctx.act(act.yield()) }, t('yield')),
            cards.length ? h('button', { id: 'clear', 'on:click': () => { chosen = new Map(); ctx.rerender(); } }, t('clear')) : null,
            h('button', { id: 'ask', 'on:click': () => ctx.act(act.askCount()) }, t('ask_count')),
          )
        : null;
      const dock = h('section', { class: 'dock', 'aria-label': t('hand') },
        h('div', { class: 'status' + (myTurn ? ' my-turn' : ''), role: 'status', 'aria-live': 'polite' }, status),
        refusalBox(ctx.model.refusal),
        builder,
        hand.length ? h('div', { class: 'groups', id: 'hand', 'data-count': String(hand.length) }, groupButtons) : null,
        actions,
      );

      /** @type {HTMLElement | null} */
      let overlay = null;
      if ((m.over || ctx.model.tableState === 'over') && !resultClosed) {
        const order = [0, 1, 2, 3, 4, 5].filter((s) => m.places[s] !== null).sort((a, b) => /** @type {number} */ (m.places[a]) - /** @type {number} */ (m.places[b]));
        overlay = dialog(
          t('game_result'),
          m.score ? h('p', { id: 'result', style: 'font-size:30px;font-weight:800', 'data-score': `${m.score.a}:${m.score.b}` }, `${t('team_a')} ${m.score.a} : ${m.score.b} ${t('team_b')}`) : null,
          h('h3', {}, t('finishing_order')),
          h('table', {}, order.map((s) => h('tr', {}, h('th', {}, t(`place_${/** @type {number} */ (m.places[s]) + 1}`)), h('td', {}, `${nameOf(s)} (${names[s]})`, m.marked[s] ? ` · ${t('marked')}` : '')))),
          h('div', { class: 'actions' }, h('button', { id: 'result-close', 'on:click': () => { resultClosed = true; ctx.rerender(); } }, t('close'))),
        );
      }
      return { felt, dock, info, overlay };
    },
  };
}
