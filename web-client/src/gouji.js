// @ts-check
//! 够级 table: six seats with my 对头 and 联邦 marked; the hand grouped by printed rank with
//! counts, in the engine's order; a set built from the groups and sent as it is (the engine's
//! refusal says what is wrong with it); 过, 让, 烧 and the burn prompt as the engine's prompt
//! allows; 问牌 (answered to me alone); cards left; the finishing order, 开点 and the scores.

import { h } from './dom.js';
import { t, lang } from './i18n.js';
import { rankGroups, rankLabel, cardsText } from './cards.js';
import { cardRow, nameplate, refusalBox, clockEl, dialog } from './ui.js';
import { seatNames } from './seats.js';
import { goujiModel, goujiActions, opposite, sameTeam, seatIndex } from './gouji-model.js';
import { dw } from './desk.js';

/** @typedef {import('./gouji-model.js').GoujiModel} GoujiModel */

/** Seats on screen: me at the bottom (0), then counter-clockwise: 下家 bottom-right, … */
export function seatAt(/** @type {number} */ me, /** @type {number} */ pos) {
  return (me + pos) % 6;
}

/** @returns {import('./table.js').GameUI} */
export function goujiUI() {
  /** How many cards of each printed rank (`"4"`, `"A"`, `"2"`, `"BJ"`, …) are in the set being built. @type {Map<string, number>} */
  let chosen = new Map();
  let handKey = '';
  /** The last 问牌 answer, shown until the next trick. @type {string | null} */
  let countNote = null;
  /** The sets each seat played in this trick (from the announcements, 报牌). @type {Map<number, string[]>} */
  let played = new Map();
  let resultClosed = false;

  return {
    clearSelection() {
      chosen = new Map();
    },
    describe: describeGouji,
    onSnapshot() {
      played = new Map();
    },
    onAnswer(events) {
      // 问牌: the answer comes to the asker alone (`answer`), never to the table.
      for (const ev of events) {
        if (ev.type !== 'count_answered') continue;
        const who = seatNames('gouji')[seatIndex(ev.about)];
        const a = ev.answer ?? {};
        countNote = a.kind === 'exact' ? t('count_answer', { who, n: a.n }) : t('count_more', { who, n: a.n ?? '' });
      }
    },
    onEvent(ev) {
      if (ev.type === 'led') played = new Map();
      if (ev.type === 'led' || ev.type === 'beat' || ev.type === 'burned') played.set(seatIndex(ev.seat), ev.cards ?? []);
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
      // The hand as the engine orders it, grouped by printed rank (suits do not matter in 够级).
      const hand = m.hand ?? [];
      const groups = rankGroups(hand);
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
      const cards = groups.flatMap((g) => g.cards.slice(0, chosen.get(g.rank) ?? 0));
      // What the engine's prompt says of this turn: whether the seat may beat the top set at all
      // (else only 过), and whether a lead needs a joker. Nothing else is judged here.
      const responding = myTurn && m.prompt === 'respond' && m.turn === me;
      const cannotBeat = responding && !m.mayBeat;
      const jokerNote = myTurn && m.prompt === 'lead' && m.turn === me && m.jokerRequired;

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
        // A computer only by the protocol's flag: a person may be called 「机器人」 too.
        if (seatInfo?.bot) tags.push('bot|' + t('bot'));
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
          count ? h('span', { class: 'count', 'data-count': String(count.n) }, count.exact ? t('cards_left', { n: count.n }) : t('count_more', { who: '', n: count.n }).trim()) : null,
          // What the seat did in this trick; the top set itself is shown in the middle.
          h('span', { class: 'said' }, said === 'pass' ? t('pass') : said === 'yield' ? t('yield') : Array.isArray(said) && m.top?.seat !== s ? cardRow(said) : ''),
        );
      });
      const top = m.top
        ? h('div', { class: 'play winning', id: 'top-set', 'data-gouji': String(m.top.gouji) },
            h('span', { class: 'who' }, `${t('top_set')} · ${nameOf(m.top.seat)}`),
            cardRow(m.top.cards),
            m.top.gouji ? h('span', { class: 'win-tag' }, t('gouji_set')) : null,
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
        const n = chosen.get(g.rank) ?? 0;
        const joker = g.rank === 'BJ' || g.rank === 'RJ';
        return h(
          'button',
          {
            class: 'group-btn' + (joker ? ' special joker' : '') + (g.rank === 'RJ' ? ' red' : ''),
            type: 'button',
            'aria-pressed': String(n > 0),
            'data-key': `g${g.rank}`,
            'data-rank': g.rank,
            'on:click': () => {
              // A tap puts the whole group in the set, or takes it out; − and + change how many.
              if (n > 0) chosen.delete(g.rank);
              else chosen.set(g.rank, g.count);
              ctx.rerender();
            },
          },
          h('span', { class: 'gr' }, rankLabel(g.rank, lang())),
          h('span', { class: 'gc' }, `×${g.count}`),
          n ? h('span', { class: 'gsel' }, `✓ ${n}`) : null,
        );
      });

      // The parts in the hand's order.
      const parts = groups.filter((g) => chosen.has(g.rank)).map((g) => {
        const n = chosen.get(g.rank) ?? 0;
        const label = rankLabel(g.rank, lang());
        return h('span', { class: 'part', 'data-part': g.rank },
          h('button', { 'aria-label': `${t('less')} ${label}`, 'data-key': `less${g.rank}`, 'on:click': () => { if (n <= 1) chosen.delete(g.rank); else chosen.set(g.rank, n - 1); ctx.rerender(); } }, '−'),
          `${label} ×${n}`,
          h('button', { 'aria-label': `${t('more')} ${label}`, 'data-key': `more${g.rank}`, disabled: n >= g.count, 'on:click': () => { chosen.set(g.rank, Math.min(g.count, n + 1)); ctx.rerender(); } }, '+'),
        );
      });
      const canSend = myTurn && cards.length > 0 && !cannotBeat;
      const send = () => {
        if (!canSend) return;
        ctx.act(offer ? act.burn(cards) : act.play(cards));
      };
      const mayYield = responding && m.mayYield;
      const builder = isSeat && hand.length
        ? h('div', { class: 'builder', id: 'builder', 'aria-label': t('set_builder') },
            h('span', {}, `${t('set_builder')}:`),
            parts.length ? parts : h('span', { class: 'hint' }, t('set_empty')),
            cards.length ? h('button', { class: 'selection', id: 'selection', disabled: !canSend, 'on:click': send }, h('span', {}, `${offer ? t('burn') : t('play')}:`), cardRow(cards)) : null,
            cannotBeat ? h('span', { class: 'prompt-note', id: 'prompt-note', 'data-note': 'cannot_beat' }, t('prompt_cannot_beat')) : null,
            jokerNote ? h('span', { class: 'prompt-note', id: 'prompt-note', 'data-note': 'joker' }, t('prompt_joker')) : null,
          )
        : null;
      const actions = isSeat && !m.over
        ? h('div', { class: 'actions' },
            h('button', { class: 'primary', id: 'play', disabled: !canSend, 'on:click': send }, offer ? t('burn') : t('play')),
            offer
              ? h('button', { id: 'decline', disabled: !myTurn, 'on:click': () => ctx.act(act.decline()) }, t('no_burn'))
              : h('button', { id: 'pass', disabled: !(responding && m.mayPass), 'on:click': () => ctx.act(act.pass()) }, t('pass')),
            offer ? null : h('button', { id: 'yield', disabled: !mayYield, 'on:click': () => ctx.act(act.yield()) }, t('yield')),
            cards.length ? h('button', { id: 'clear', 'on:click': () => { chosen = new Map(); ctx.rerender(); } }, t('clear')) : null,
            h('button', { id: 'ask', 'on:click': () => ctx.act(act.askCount()) }, t('ask_count')),
          )
        : null;
      const dock = h('section', { class: 'dock', 'aria-label': t('hand') },
        h('div', { class: 'status' + (myTurn ? ' my-turn' : ''), role: 'status', 'aria-live': 'polite' }, status),
        refusalBox(ctx.model.refusal),
        ctx.notices(),
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
          h('div', { class: 'actions' },
            // The whole game step by step, every hand (replay.js).
            h('button', { id: 'result-replay', 'on:click': () => { location.hash = `#/t/${ctx.model.id}/replay`; } }, dw('replay')),
            h('button', { id: 'result-close', 'on:click': () => { resultClosed = true; ctx.rerender(); } }, t('close'))),
        );
      }
      return { felt, dock, info, overlay };
    },
  };
}

/**
 * What one move did, in words, for the notices: 「出了黑桃4、红桃4」, 「过牌」, 「不烧」.
 * @param {any[]} events  the engine's events of one stored action
 */
export function describeGouji(events) {
  const out = [];
  for (const ev of events) {
    const cards = cardsText(ev.cards ?? [], lang());
    switch (ev.type) {
      case 'led':
        out.push(t('did_play', { cards }));
        break;
      case 'beat':
        out.push(t('did_beat', { cards }));
        break;
      case 'burned':
        out.push(t('did_burn', { cards }));
        break;
      case 'passed':
        out.push(t('did_pass'));
        break;
      case 'yielded':
        out.push(t('did_yield'));
        break;
      case 'burn_declined':
        out.push(t('did_decline'));
        break;
      case 'ruled':
        out.push(t('did_ruling', { ruling: t(`ruling_${ev.ruling}`, { n: ev.points ?? '' }), offence: t(`offence_${ev.offence}`) }));
        break;
    }
  }
  return out.join(t('list_gap'));
}
