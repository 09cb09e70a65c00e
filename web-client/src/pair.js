// @ts-check
//! 本对比赛 (a pair's own page, pair.html?e=ID#TOKEN): with a player token from their seating card
//! a pair sees where it plays this round (round, table, direction, opponents, boards), the round
//! clock, a button to sit down at its current board, its table's results to confirm (NS record,
//! EW check, or call the referee), its earlier rounds and its standing so far. The token stays in
//! the address's fragment (never sent to the server in a URL) and in this browser.
//!
//! With a 够级 team token (本队比赛) the same page shows the team's own match: the round, its
//! opponent (or, in the final, its group and the tables of its rotation), the game played now and
//! the team's side, its games so far with their results, the totals, and 「入座打牌」.
//!
//! Everything shown is the server's (docs/tournaments.md): the page computes no score and no
//! time of its own; the calls are the pair's calls of the events API (`/pair`, `/join`,
//! `/confirm`), the same ones the standings page uses. On a browser that keeps a practice
//! player's personal code (练习), opening the page with a card puts the event in their history
//! (`POST /api/players/me/events`).

import { h, replace } from './dom.js';
import { setTicket, pairToken, setPairToken, playerCode } from './settings.js';
import { linkEvent } from './practice-api.js';
import {
  clockLine, errorBox, eventCall, eventId, header, playerNames, runPage, scrollBox, tableResults, wordIn,
} from './standings.js';

/** The page's own words (the event pages' words are shared). @type {import('./standings.js').Words} */
const WORDS = {
  page: { zh: '本对比赛', en: 'Our pair' },
  enter_h: { zh: '进入本对页面', en: 'Open your pair’s page' },
  enter_hint: { zh: '输入座位卡上的比赛号和您自己的选手凭证（例如 ab3d-7kfm-q2xw）：每位选手一张卡，只坐自己的座位。', en: 'Type the event number and your own player token from your seating card (e.g. ab3d-7kfm-q2xw): a card a player, each in their own seat.' },
  event_no: { zh: '比赛号', en: 'Event number' },
  enter: { zh: '进入', en: 'Open' },
  other_pair: { zh: '换一对', en: 'Another pair' },
  we_are: { zh: '本对：{dir} 第 {n} 对 · {names}', en: 'We are {dir} pair {n} · {names}' },
  not_started: { zh: '比赛还没开始：请等裁判长开始第 1 轮。', en: 'The event has not started: wait for the director to start round 1.' },
  between: { zh: '第 {r} 轮已结束：请等裁判长开始下一轮。', en: 'Round {r} is closed: wait for the director to start the next one.' },
  finished: { zh: '比赛已结束。', en: 'The event is finished.' },
  where: { zh: '第 {r} 轮 · 第 {t} 桌 · 本对坐{dir}（{seats}）', en: 'Round {r} · table {t} · we sit {dir} ({seats})' },
  seats_NS: { zh: '北、南', en: 'North and South' },
  seats_EW: { zh: '东、西', en: 'East and West' },
  opponents: { zh: '对手：{dir} 第 {n} 对 · {names}', en: 'Opponents: {dir} pair {n} · {names}' },
  sit_out: { zh: '本轮轮空（半桌，对手为空位）：每副得平均分，不用入座。', en: 'We sit out this round (half table): an average on each board; no need to sit down.' },
  forfeited: { zh: '本对本轮已判迟到弃权。', en: 'Our pair has forfeited this round for lateness.' },
  boards: { zh: '本轮的牌：第 {list} 副', en: 'Boards this round: {list}' },
  sit: { zh: '入座打牌', en: 'Sit down and play' },
  all_played: { zh: '本轮的牌都打完了：请核对成绩并确认。', en: 'Every board of this round is played: check the results and confirm.' },
  results_h: { zh: '本轮成绩', en: 'This round’s results' },
  earlier_h: { zh: '前几轮', en: 'Earlier rounds' },
  round_n: { zh: '第 {r} 轮', en: 'Round {r}' },
  standing_h: { zh: '目前成绩', en: 'Our standing' },
  standing: { zh: '截至第 {r} 轮：比赛分 {mp}，{dir}第 {place} 名', en: 'Through round {r}: {mp} match points, place {place} in {dir}' },
  standing_none: { zh: '还没有结束的轮次。', en: 'No round closed yet.' },
  team_page: { zh: '本队比赛', en: 'Our team' },
  we_team: { zh: '本队：第 {n} 队 · {name} · {names}', en: 'We are team {n} · {name} · {names}' },
  t_knockout: { zh: '第 {r} 轮 · 淘汰赛 · 第 {t} 桌', en: 'Round {r} · knockout · table {t}' },
  t_opponent: { zh: '对手：{team}', en: 'Opponents: {team}' },
  t_final: { zh: '第 {r} 轮 · 决赛 · 本队在 {grp} 组', en: 'Round {r} · final · we are in group {grp}' },
  t_groups: { zh: 'A 组：{a}；B 组：{b}。每局后 A 组按 1-2-3、B 组按 3-2-1 换桌。', en: 'Group A: {a}; group B: {b}. After each game A teams move 1→2→3, B teams 3→2→1.' },
  t_now: { zh: '现在打第 {g} 局{extra} · 第 {t} 桌 · 本队坐 {side} 方（{seats}）', en: 'Now: game {g}{extra} · table {t} · we sit {side} ({seats})' },
  t_extra: { zh: '（加赛）', en: ' (extra)' },
  seats_a: { zh: 'A1、A2、A3，A1 先出', en: 'A1, A2, A3; A1 leads' },
  seats_b: { zh: 'B1、B2、B3', en: 'B1, B2, B3' },
  t_wait: { zh: '下一局还没开始：等其他桌打完这一局，或等裁判长。', en: 'The next game has not started: the other tables are finishing theirs, or wait for the director.' },
  t_bye: { zh: '第 {r} 轮本队轮空，直接进入下一轮。', en: 'Round {r}: we have a bye and go through to the next round.' },
  t_out: { zh: '本队在第 {r} 轮被淘汰。', en: 'We went out in round {r}.' },
  t_won: { zh: '本场胜队：{team}', en: 'Winner of the match: {team}' },
  t_lot: { zh: '（抽签决定：{reason}）', en: ' (by lot: {reason})' },
  t_games_h: { zh: '本队各局', en: 'Our games' },
  t_totals_h: { zh: '本场总分', en: 'Totals' },
  t_totals_final_h: { zh: '本队决赛总分', en: 'Our final totals' },
  t_game: { zh: '局', en: 'Game' },
  t_table: { zh: '桌', en: 'Table' },
  t_side: { zh: '本队坐', en: 'We sit' },
  t_vs: { zh: '对手', en: 'Opponents' },
  t_score: { zh: '比分（本队 : 对手）', en: 'Score (us : them)' },
  t_state: { zh: '状态', en: 'State' },
  t_done: { zh: '已打完', en: 'Played' },
  t_signed_agreed: { zh: '本队已确认', en: 'We confirmed' },
  t_signed_disputed: { zh: '本队有异议', en: 'We disputed' },
  t_signed_no: { zh: '待本队确认', en: 'To confirm' },
  t_sign: { zh: '每局打完，由队长核对本队成绩后确认（有异议请写明原因，裁判长会来处理）。', en: 'After each game the captain checks our result and confirms it (or disputes it with a note: the director will come).' },
  t_playing: { zh: '正在打', en: 'Now' },
  t_coming: { zh: '未开始', en: 'To come' },
  t_us: { zh: '本队', en: 'us' },
  t_them: { zh: '对手', en: 'them' },
  t_first: { zh: '头科 {who}', en: '头科 {who}' },
  t_last: { zh: '大落 {who}', en: '大落 {who}' },
  t_ruled: { zh: '改判：{reason}', en: 'Ruling: {reason}' },
  t_team: { zh: '队', en: 'Team' },
  t_points: { zh: '总分', en: 'Points' },
  t_firsts: { zh: '头科', en: '头科 (1st)' },
  t_lasts: { zh: '大落', en: '大落 (last)' },
  t_deducted: { zh: '罚分', en: 'Deducted' },
  t_mine: { zh: '本队只看到本队各局的成绩；其他对阵的成绩在比赛结束后公布。', en: 'We see our own games’ results only; the other matches’ are published when the event ends.' },
  other_team: { zh: '换一队', en: 'Another team' },
  we_confirmed: { zh: '本对已确认本轮成绩。', en: 'We have confirmed this round’s results.' },
  confirm_later: { zh: '本轮的牌打完后，在这里核对成绩并确认。', en: 'Once every board of the round is played, check the results and confirm them here.' },
  standing_dq: { zh: '本对已被取消比赛资格。', en: 'Our pair has been disqualified.' },
};

/** A word of this page. @param {string} key @param {Record<string, string | number>} [params] */
function p(key, params = {}) {
  return wordIn(WORDS, key, params);
}


/** The token in the address's fragment (`#ab3d-7kfm-q2xw`). */
function fragmentToken() {
  return decodeURIComponent(location.hash.replace(/^#/, '')).trim();
}

/** The form asking for the event number and the player token. @param {HTMLElement} root @param {() => void} redraw */
function enterForm(root, redraw) {
  const idInput = h('input', { id: 'event-no', type: 'text', inputmode: 'numeric', autocomplete: 'off', value: eventId() ?? '' });
  const tokenInput = h('input', { id: 'pair-token', type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false' });
  const go = () => {
    const id = idInput.value.trim();
    const token = tokenInput.value.trim();
    if (!/^[A-Za-z0-9_-]+$/.test(id) || !token) return;
    setPairToken(id, token);
    history.replaceState(null, '', `pair.html?e=${encodeURIComponent(id)}#${encodeURIComponent(token)}`);
    redraw();
  };
  root.replaceChildren(
    header(p('page')),
    h(
      'main',
      { class: 'event-page' },
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'enter-h' },
        h('h1', { id: 'enter-h' }, p('enter_h')),
        h('p', { class: 'hint' }, p('enter_hint')),
        h('div', { class: 'field' }, h('label', { for: 'event-no' }, p('event_no')), idInput),
        h('div', { class: 'field' }, h('label', { for: 'pair-token' }, wordIn(WORDS, 'pair_token')), tokenInput),
        h('div', { class: 'row' }, h('button', { class: 'primary', id: 'enter', 'on:click': go }, p('enter'))),
      ),
    ),
  );
}

/** A wide table in its own scrolling box, as on the other event pages. @param {Record<string, string>} attrs @param {string} caption @param {string[]} heads @param {HTMLElement[]} rows */
function table(attrs, caption, heads, rows) {
  return h(
    'div',
    scrollBox(caption),
    h('table', { class: 'results', ...attrs }, h('caption', {}, caption), h('thead', {}, h('tr', {}, heads.map((x) => h('th', { scope: 'col' }, x)))), h('tbody', {}, rows)),
  );
}

/** A game's result from the team's side: our points, theirs, who took 头科 and 大落. @param {any} x */
function ourScore(x) {
  const r = x.result;
  if (!r) return '';
  const ours = x.side;
  const who = (/** @type {string} */ s) => p(s === ours ? 't_us' : 't_them');
  const us = ours === 'a' ? r.a : r.b;
  const them = ours === 'a' ? r.b : r.a;
  const first = r.first ? ` · ${p('t_first', { who: who(r.first) })}` : '';
  const last = r.last && r.last.length ? ` · ${p('t_last', { who: r.last.map(who).join('、') })}` : '';
  return `${us} : ${them}${first}${last}`;
}

/**
 * A 够级 team's own match (its token's view, `me.team`): where it plays, its games, its totals.
 * @param {any} ev @param {any} me @returns {{ where: (HTMLElement | null)[], games: HTMLElement | null, totals: HTMLElement | null, canSit: boolean }}
 */
function teamMatch(ev, me) {
  const t = me.team;
  const playing = ev.round > ev.closed && ev.state !== 'finished';
  /** @type {(HTMLElement | null)[]} */
  const where = [];
  if (ev.state === 'finished') where.push(h('p', { class: 'big' }, p('finished')));
  else if (ev.round === 0) where.push(h('p', { class: 'big' }, p('not_started')));
  else if (!playing && t.stage !== 'out') where.push(h('p', { class: 'big' }, p('between', { r: ev.closed })));
  const now = (t.games ?? []).find((/** @type {any} */ x) => x.now);
  if (t.stage === 'bye') where.push(h('p', { class: 'big', 'data-team-stage': 'bye' }, p('t_bye', { r: t.round })));
  if (t.stage === 'out') where.push(h('p', { class: 'big', 'data-team-stage': 'out' }, p('t_out', { r: t.out_round })));
  if (t.stage === 'knockout' || t.stage === 'out') {
    const table = t.games[0]?.table ?? '';
    where.push(
      h('p', { class: t.stage === 'out' ? '' : 'big', 'data-team-stage': t.stage === 'out' ? null : 'knockout' }, p('t_knockout', { r: t.round, t: table })),
      h('p', { 'data-opponent': t.opponent }, p('t_opponent', { team: t.opponent })),
    );
  }
  if (t.stage === 'final') {
    where.push(
      h('p', { class: 'big', 'data-team-stage': 'final', 'data-group': t.final_group }, p('t_final', { r: t.round, grp: t.final_group })),
      h('p', {}, p('t_groups', { a: t.final_groups.a.join('、'), b: t.final_groups.b.join('、') })),
    );
  }
  if (t.winner) where.push(h('p', { class: 'big', 'data-winner': t.winner }, p('t_won', { team: t.winner }), t.lot ? p('t_lot', { reason: t.lot }) : ''));
  if (playing && now) {
    where.push(h('p', { class: 'big', 'data-now': `${now.table}:${now.game}:${now.side}` }, p('t_now', { g: now.game, extra: now.extra ? p('t_extra') : '', t: now.table, side: now.side.toUpperCase(), seats: p(`seats_${now.side}`) })));
  } else if (playing && (t.stage === 'knockout' || t.stage === 'final') && !t.winner && t.games.some((/** @type {any} */ x) => !x.done)) {
    where.push(h('p', {}, p('t_wait')));
  }
  return { where, games: teamGames(t), totals: teamTotals(t), canSit: Boolean(playing && now) };
}

/** A team's games of one round, from its side. @param {any} t */
function teamGames(t) {
  return t.games && t.games.length
    ? table(
        { 'data-team-games': t.round },
        p('t_games_h'),
        [p('t_game'), p('t_table'), p('t_vs'), p('t_side'), p('t_score'), p('t_state')],
        t.games.map((/** @type {any} */ x) =>
          h(
            'tr',
            { 'data-game': x.game, 'data-done': x.done ? 'yes' : 'no' },
            h('td', {}, x.extra ? `${x.game}${p('t_extra')}` : String(x.game)),
            h('td', {}, String(x.table)),
            h('td', {}, x.opponent),
            h('td', {}, x.side.toUpperCase()),
            h('td', {}, ourScore(x), x.adjusted ? h('div', { 'data-adjusted': '' }, p('t_ruled', { reason: x.adjusted })) : null),
            h('td', { 'data-signed': x.signed ?? 'no' }, p(x.done ? 't_done' : x.now ? 't_playing' : 't_coming'), x.done ? h('div', {}, p(`t_signed_${x.signed ?? 'no'}`)) : null),
          ),
        ),
      )
    : null;
}

/** A team's totals of one round (its knockout match's two teams, or itself in the final). @param {any} t */
function teamTotals(t) {
  return t.totals && t.totals.length
    ? table(
        { 'data-totals': '' },
        p(t.stage === 'final' ? 't_totals_final_h' : 't_totals_h'),
        [p('t_team'), p('t_points'), p('t_firsts'), p('t_lasts'), p('t_deducted')],
        t.totals.map((/** @type {any} */ l) =>
          h('tr', { 'data-total': l.team }, h('td', {}, l.team), h('td', {}, String(l.points)), h('td', {}, String(l.firsts)), h('td', {}, String(l.lasts)), h('td', {}, l.deducted ? String(l.deducted) : '')),
        ),
      )
    : null;
}

/** The knockout matches a team played before this round. @param {any[]} rounds */
function teamEarlier(rounds) {
  return rounds.map((r) =>
    h(
      'div',
      { 'data-earlier': r.round },
      h('h3', {}, p('t_knockout', { r: r.round, t: r.games[0]?.table ?? '' }), ' · ', p('t_opponent', { team: r.opponent ?? '' })),
      r.winner ? h('p', {}, p('t_won', { team: r.winner }), r.lot ? p('t_lot', { reason: r.lot }) : '') : null,
      teamGames(r),
      teamTotals(r),
    ),
  );
}

/**
 * The pair's page, refreshed every 5 seconds.
 * @param {HTMLElement} root @param {string} id @param {string} token @param {() => void} redraw
 */
function pairPage(root, id, token, redraw) {
  const base = `/api/events/${encodeURIComponent(id)}`;
  const err = errorBox();
  const done = h('p', { class: 'ok-text', role: 'status', hidden: true });
  const top = h('section', { class: 'panel', 'aria-labelledby': 'pair-h' }, h('h1', { id: 'pair-h' }, p('page')));
  const results = h('section', { class: 'panel', 'aria-labelledby': 'results-h', hidden: true });
  const earlier = h('section', { class: 'panel', 'aria-labelledby': 'earlier-h', hidden: true });
  const standing = h('section', { class: 'panel', 'aria-labelledby': 'standing-h' });
  const note = h('input', { id: 'dispute-note', type: 'text', maxlength: 200 });
  /** @type {string} */
  let game = 'shengji';

  const sit = async () => {
    err.hide();
    try {
      const j = await eventCall('POST', `${base}/join`, { token });
      setTicket(j.table, { token: j.token, seat: j.seat, game, event: id });
      location.href = `./#/t/${encodeURIComponent(j.table)}`;
    } catch (e) {
      err.show(e);
    }
  };
  /** @param {boolean} agree */
  const confirmResults = async (agree) => {
    err.hide();
    done.hidden = true;
    try {
      await eventCall('POST', `${base}/confirm`, { token, agree, note: agree ? undefined : note.value });
      replace(done, wordIn(WORDS, agree ? 'sent_ok' : 'sent_dispute'));
      done.hidden = false;
      await refresh();
    } catch (e) {
      err.show(e);
    }
  };
  const confirmBox = h(
    'div',
    {},
    h('div', { class: 'field', style: 'margin-top:14px' }, h('label', { for: 'dispute-note' }, wordIn(WORDS, 'note')), note),
    h('div', { class: 'row' }, h('button', { id: 'confirm', 'on:click': () => confirmResults(true) }, wordIn(WORDS, 'confirm_ok')), h('button', { class: 'danger', id: 'dispute', 'on:click': () => confirmResults(false) }, wordIn(WORDS, 'dispute'))),
  );

  async function refresh() {
    let ev;
    let me;
    let st;
    let fetchedAt;
    try {
      [ev, me, st] = await Promise.all([eventCall('GET', base), eventCall('POST', `${base}/pair`, { token }), eventCall('GET', `${base}/standings`)]);
      fetchedAt = Date.now();
      err.hide();
    } catch (e) {
      err.show(e);
      return;
    }
    game = ev.game;
    document.title = `${ev.name} · ${p('page')}`;
    if (me.direction === 'team' && me.team) {
      // A 够级 team token: the team's own match.
      document.title = `${ev.name} · ${p('team_page')}`;
      // The bar was drawn before the token said it is a team's.
      const bar = root.querySelector('.topbar .title');
      if (bar) bar.textContent = p('team_page');
      const t = teamMatch(ev, me);
      replace(
        top,
        h('h1', { id: 'pair-h' }, ev.name),
        h('p', { class: 'big', 'data-team': me.number }, p('we_team', { n: me.number, name: me.team.name, names: playerNames(me) })),
        h('div', { class: 'where' }, t.where),
        t.canSit ? h('div', { class: 'row' }, h('button', { class: 'primary', id: 'sit', 'on:click': sit }, p('sit'))) : null,
        h('div', { class: 'links', style: 'margin-top:12px' }, h('a', { href: `standings.html?e=${encodeURIComponent(id)}` }, wordIn(WORDS, 'standings')), h('button', { id: 'other-pair', 'on:click': () => { history.replaceState(null, '', 'pair.html'); redraw(); } }, p('other_team'))),
      );
      results.hidden = !t.games;
      // The captain signs the games finished so far (「由队长或领队签字确认该局比赛结果」).
      const toSign = ev.round > ev.closed && ev.state !== 'finished' && !me.bot && (me.team.games ?? []).some((/** @type {any} */ x) => x.done && x.signed !== 'agreed');
      if (t.games) replace(results, h('h2', { id: 'results-h' }, p('t_games_h')), t.games, h('p', { class: 'hint' }, p('t_mine')), toSign ? [h('p', {}, p('t_sign')), confirmBox] : null, done);
      earlier.hidden = !me.team.earlier || me.team.earlier.length === 0;
      if (!earlier.hidden) replace(earlier, h('h2', { id: 'earlier-h' }, p('earlier_h')), teamEarlier(me.team.earlier));
      standing.hidden = !t.totals;
      if (t.totals) replace(standing, h('h2', { id: 'standing-h' }, p(me.team.stage === 'final' ? 't_totals_final_h' : 't_totals_h')), t.totals);
      return;
    }
    const dir = me.direction;
    const other = dir === 'NS' ? 'EW' : 'NS';
    const t = me.table;
    const playing = ev.round > ev.closed && ev.state !== 'finished';
    /** @type {(HTMLElement | null)[]} */
    const where = [];
    if (ev.state === 'finished') where.push(h('p', { class: 'big' }, p('finished')));
    else if (ev.round === 0) where.push(h('p', { class: 'big' }, p('not_started')));
    else if (!playing) where.push(h('p', { class: 'big' }, p('between', { r: ev.closed })));
    let canSit = false;
    if (playing && t) {
      const opp = dir === 'NS' ? t.ew : t.ns;
      const oppPair = ev.pairs.find((/** @type {any} */ x) => x.direction === other && x.number === opp);
      const forfeited = (t.forfeits ?? []).includes(dir);
      const unplayed = t.boards.some((/** @type {any} */ b) => !b.done);
      where.push(
        h('p', { class: 'big', 'data-where': `${me.round}:${t.table}:${dir}` }, p('where', { r: me.round, t: t.table, dir: wordIn(WORDS, dir), seats: p(`seats_${dir}`) })),
        opp == null
          ? h('p', { class: 'big', 'data-sit-out': '' }, p('sit_out'))
          : h('p', { 'data-opponents': `${other}${opp}` }, p('opponents', { dir: wordIn(WORDS, other), n: opp, names: oppPair ? playerNames(oppPair) : '' })),
        h('p', {}, p('boards', { list: t.boards.map((/** @type {any} */ b) => b.board).join('、') })),
        clockLine(ev, fetchedAt),
        forfeited ? h('p', { class: 'error-text' }, p('forfeited')) : null,
        opp != null && !unplayed ? h('p', {}, p('all_played')) : null,
      );
      canSit = opp != null && unplayed && !forfeited;
    }
    replace(
      top,
      h('h1', { id: 'pair-h' }, ev.name),
      h('p', { class: 'big', 'data-pair': `${dir}${me.number}` }, p('we_are', { dir: wordIn(WORDS, dir), n: me.number, names: playerNames(me) })),
      h('div', { class: 'where' }, where),
      canSit ? h('div', { class: 'row' }, h('button', { class: 'primary', id: 'sit', 'on:click': sit }, p('sit'))) : null,
      h('div', { class: 'links', style: 'margin-top:12px' }, h('a', { href: `standings.html?e=${encodeURIComponent(id)}` }, wordIn(WORDS, 'standings')), h('button', { id: 'other-pair', 'on:click': () => { history.replaceState(null, '', 'pair.html'); redraw(); } }, p('other_pair'))),
    );
    // The round it plays, or the last it played (between rounds, and once the event is over, with
    // its match points then): its results stay on the page.
    const showResults = !!t && t.ns != null && t.ew != null;
    results.hidden = !showResults;
    // Something to confirm: every board of the round played, and this pair has not yet (a
    // confirmation or a dispute is the pair's word on the whole table).
    const confirmed = dir === 'NS' ? t?.ns_confirmed : t?.ew_confirmed;
    const toConfirm = playing && showResults && !t.boards.some((/** @type {any} */ b) => !b.done) && !confirmed;
    if (showResults) {
      replace(
        results,
        h('h2', { id: 'results-h' }, playing ? p('results_h') : p('round_n', { r: me.round })),
        tableResults(t, dir),
        !playing ? null : toConfirm ? confirmBox : confirmed ? h('p', { class: 'ok-text', 'data-confirmed': '' }, p('we_confirmed')) : h('p', { class: 'hint', 'data-confirm-later': '' }, p('confirm_later')),
        playing ? done : null,
      );
    }
    earlier.hidden = !me.earlier || me.earlier.length === 0;
    if (!earlier.hidden) {
      replace(
        earlier,
        h('h2', { id: 'earlier-h' }, p('earlier_h')),
        me.earlier.map((/** @type {any} */ r) => h('div', { 'data-earlier': r.round }, h('h3', {}, p('round_n', { r: r.round })), tableResults(r.table, dir))),
      );
    }
    const line = (st.ranking?.[dir] ?? []).find((/** @type {any} */ l) => l.number === me.number);
    replace(
      standing,
      h('h2', { id: 'standing-h' }, p('standing_h')),
      h(
        'p',
        { class: 'big', 'data-standing': '' },
        line?.disqualified
          ? p('standing_dq')
          : st.through_round && line
            ? p('standing', { r: st.through_round, mp: line.mp, dir: wordIn(WORDS, dir), place: line.place ?? '—' })
            : p('standing_none'),
      ),
    );
  }

  root.replaceChildren(header(p('page')), h('main', { class: 'event-page' }, top, err.box, results, earlier, standing));
  refresh();
  return setInterval(refresh, 5000);
}

/** Starts the pair's page (pair.html). */
export function main() {
  runPage((root, id, draw) => {
    const token = id ? fragmentToken() || pairToken(id) : '';
    if (id && token) {
      setPairToken(id, token);
      // A practice player's browser (练习): the event goes into their history, the same
      // identity as their practice sets. The server checks the card; a refusal changes nothing
      // here (this page shows the card's own).
      const code = playerCode();
      if (code) linkEvent(code, id, token).catch(() => {});
      return pairPage(root, id, token, draw);
    }
    enterForm(root, draw);
    return undefined;
  });
}
