// @ts-check
//! 够级团体赛 (a 够级 team event) on the event pages: the teams pasted one a line, the draw's
//! groups, every round's matches and games (who sits A and B, the deal, the table's state and
//! the result), the team ranking (总分, 头科, 大落, 罚分) and every game's result. The console
//! (director.js) and the standings page (standings.js) use these; everything shown is the
//! server's (docs/tournaments.md): the page computes no score.

import { h } from './dom.js';
import { boardState, conductMarks, playerNames, rankingColumns, scrollBox, wordIn } from './standings.js';

/** @type {import('./standings.js').Words} */
export const GOUJI_WORDS = {
  game: { zh: '项目', en: 'Game' },
  round: { zh: '轮', en: 'Round' },
  shengji_pairs: { zh: '80分 双人赛（计副制米切尔）', en: '80分 duplicate pairs (Mitchell)' },
  gouji_teams: { zh: '够级 团体赛（小组淘汰赛和决赛）', en: '够级 teams (group knockout and final)' },
  groups: { zh: '小组数', en: 'Groups' },
  final_games: { zh: '决赛局数（3 的倍数）', en: 'Final games (a multiple of 3)' },
  teams_entries: { zh: '报名：每行一队「队名：选手甲 选手乙 选手丙 / 单位」（队名可省）；写「电脑 / 单位」的一行由电脑代打', en: 'Entries: one team a line, "Team: Player A Player B Player C / Organisation" (the team name may be left out); a line "电脑 / Organisation" is a computer team' },
  fill_teams: { zh: '不够 6 队由电脑补齐（练习赛）', en: 'Computers fill up to six teams (practice)' },
  teams_h: { zh: '参赛队', en: 'Teams' },
  team: { zh: '队', en: 'Team' },
  team_no: { zh: '队号', en: 'Team no.' },
  group_h: { zh: '分组', en: 'Groups' },
  group: { zh: '{name}组', en: 'Group {name}' },
  knockout: { zh: '第 {r} 轮 · 淘汰赛', en: 'Round {r} · knockout' },
  final_round: { zh: '第 {r} 轮 · 决赛', en: 'Round {r} · final' },
  drawing: { zh: '抽签中', en: 'Drawing' },
  match_n: { zh: '第 {n} 桌', en: 'Table {n}' },
  a_team: { zh: 'A 队（A1 先出）', en: 'Team A (A1 leads)' },
  b_team: { zh: 'B 队', en: 'Team B' },
  a_short: { zh: 'A 队', en: 'A' },
  b_short: { zh: 'B 队', en: 'B' },
  played: { zh: '已赛局数', en: 'Games played' },
  points: { zh: '总分', en: 'Points' },
  winner: { zh: '胜队', en: 'Winner' },
  extra_needed: { zh: '需加赛', en: 'Extra game' },
  byes: { zh: '轮空：{teams}', en: 'Byes: {teams}' },
  final_groups: { zh: '决赛 A 组：{a}；B 组：{b}（A 队按 1-2-3、B 队按 3-2-1 换桌）', en: 'Final group A: {a}; group B: {b} (A teams move 1→2→3, B teams 3→2→1)' },
  game_n: { zh: '局', en: 'Game' },
  extra: { zh: '加赛', en: 'extra' },
  deal: { zh: '牌号', en: 'Deal' },
  result: { zh: '比分 A:B', en: 'Score A:B' },
  firsts: { zh: '头科', en: '头科 (1st)' },
  lasts: { zh: '大落', en: '大落 (last)' },
  tie_h: { zh: '同分时', en: 'Level on points' },
  tie_firsts: { zh: '同分，头科多', en: 'level on points: more 头科' },
  tie_lasts: { zh: '同分同头科，大落少', en: 'level on points and 头科: fewer 大落' },
  tie_extra: { zh: '三项都同，加赛决出', en: 'level on all three: the extra games' },
  tie_lot: { zh: '抽签决定：{note}', en: 'decided by lot: {note}' },
  stage: { zh: '阶段', en: 'Stage' },
  in_final: { zh: '决赛', en: 'Final' },
  in_final_extra: { zh: '决赛（待加赛）', en: 'Final (extra game)' },
  still_in: { zh: '比赛中', en: 'Playing' },
  out_in: { zh: '第 {r} 轮淘汰', en: 'Out in round {r}' },
  ranking: { zh: '团体名次', en: 'Team ranking' },
  games_h: { zh: '每局成绩', en: 'Games' },
  team_deduct_h: { zh: '团体扣分（扣该队 4 分）', en: 'Team deduction (4 points)' },
  points_off: { zh: '扣分', en: 'Points off' },
  submit_team_deduct: { zh: '登记扣分', en: 'Record the deduction' },
  rule_game_h: { zh: '改判一局（已打完的一局）', en: 'Rule on a finished game' },
  a_points: { zh: 'A 队得分', en: 'Team A points' },
  b_points: { zh: 'B 队得分', en: 'Team B points' },
  first_side: { zh: '头科', en: '头科 (first)' },
  last_side: { zh: '大落', en: '大落 (last)' },
  side_none: { zh: '无', en: 'None' },
  side_both: { zh: 'A 队和 B 队', en: 'A and B' },
  submit_rule_game: { zh: '登记改判', en: 'Record the ruling' },
  ruled: { zh: '改判：{reason}', en: 'Ruling: {reason}' },
  signed: { zh: '队长确认', en: 'Captains' },
  signed_by: { zh: '{team} 已确认', en: '{team} confirmed' },
  disputed_by: { zh: '{team} 有异议：{note}', en: '{team} disputes: {note}' },
  lot_needed: { zh: '加赛用完仍未分胜负：请裁判长主持抽签', en: 'Still level after every extra game: the director draws lots' },
  lot_wins: { zh: '{team} 中签', en: '{team} wins the lot' },
  lot_reason: { zh: '抽签定胜负：{team} 胜。请写明抽签经过（例如「双方队长在裁判长面前抽签」）', en: 'Lot: {team} wins. How was it drawn (e.g. "the two captains drew before the director")?' },
  lot_default: { zh: '双方队长在裁判长面前抽签', en: 'the two captains drew before the director' },
  by_lot: { zh: '抽签：{reason}', en: 'By lot: {reason}' },
  deductions_h: { zh: '扣分记录', en: 'Deductions' },
  print_team_cards: { zh: '打印队卡', en: 'Print team cards' },
  card_team: { zh: '第 {n} 队 · {name}', en: 'Team {n} · {name}' },
  team_token: { zh: '选手凭证', en: 'Player token' },
  join_team_at: { zh: '入座：打开 {url}，输入您自己的选手凭证（三位选手各自入座）', en: 'To sit down: open {url} and type your own player token (each of the three players)' },
  next_knockout: { zh: '下一轮：淘汰赛', en: 'Next: a knockout round' },
  next_final: { zh: '下一轮：决赛', en: 'Next: the final' },
};

/** A word of the 够级 pages. @param {string} key @param {Record<string, string | number>} [params] */
export function g(key, params = {}) {
  return wordIn(GOUJI_WORDS, key, params);
}

/**
 * The pasted teams: one a line, 「队名：甲 乙 丙 / 单位」 (the name may be left out), 「电脑」 or
 * 「电脑 / 单位」 a computer team; with `fill`, computer teams up to six.
 * @param {string} text @param {boolean} fill
 */
export function parseTeams(text, fill) {
  /** @type {{ names: string[], organisation?: string, bot?: boolean, team?: string }[]} */
  const entries = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const [left, org] = line.split(/[/|｜／]/);
    const colon = left.search(/[:：]/);
    const team = colon >= 0 ? left.slice(0, colon).trim() : '';
    const who = colon >= 0 ? left.slice(colon + 1) : left;
    /** @type {{ names: string[], organisation?: string, bot?: boolean, team?: string }} */
    const entry = who.trim() === '电脑' ? { names: [], bot: true } : { names: who.trim().split(/[\s,，、]+/).filter(Boolean) };
    if (org && org.trim()) entry.organisation = org.trim();
    if (team) entry.team = team;
    entries.push(entry);
  }
  while (fill && entries.length < 6) entries.push({ names: [], bot: true });
  return entries;
}

/** A scrolling results table. @param {Record<string, string | number>} attrs @param {string} caption @param {string[]} heads @param {HTMLElement[]} rows */
function table(attrs, caption, heads, rows) {
  return h(
    'div',
    scrollBox(caption),
    h('table', { class: 'results', ...attrs }, h('caption', {}, caption), h('thead', {}, h('tr', {}, heads.map((x) => h('th', { scope: 'col' }, x)))), h('tbody', {}, rows)),
  );
}

/** A game's score and its 头科 / 大落. @param {any} r */
function score(r) {
  if (!r) return '';
  const side = (/** @type {string} */ s) => g(s === 'a' ? 'a_short' : 'b_short');
  const first = r.first ? ` · ${g('firsts')} ${side(r.first)}` : '';
  const last = r.last && r.last.length ? ` · ${g('lasts')} ${r.last.map(side).join('、')}` : '';
  return `${r.a} : ${r.b}${first}${last}`;
}

/** The teams and their players. @param {any[]} teams */
export function teamList(teams) {
  return table(
    { 'data-teams': '' },
    g('teams_h'),
    [g('team_no'), g('team'), wordIn(GOUJI_WORDS, 'players'), wordIn(GOUJI_WORDS, 'organisation')],
    teams.map((t) => h('tr', {}, h('td', {}, t.number), h('td', {}, t.name), h('td', { class: 'names' }, playerNames(t)), h('td', {}, t.organisation ?? ''))),
  );
}

/**
 * One round: its matches (or the final's groups), its games. `lot`, on the console only, draws
 * the lot of a match whose extra games left it level (its buttons appear on that match alone).
 * @param {any} s @param {((table: number, winner: string) => void)} [lot]
 */
export function stageView(s, lot) {
  const title = s.kind === 'final' ? g('final_round', { r: s.round }) : g('knockout', { r: s.round });
  const state = s.state === 'drawing' ? g('drawing') : wordIn(GOUJI_WORDS, s.state === 'closed' ? 'closed' : 'playing');
  return h(
    'details',
    { class: 'panel', open: s.state !== 'closed', 'data-stage': s.round, 'data-kind': s.kind },
    h('summary', { style: 'font-size:24px;font-weight:800;min-height:48px;cursor:pointer' }, `${title} · ${state}`),
    s.final_groups ? h('p', { class: 'hint' }, g('final_groups', { a: s.final_groups.a.join('、'), b: s.final_groups.b.join('、') })) : null,
    s.byes && s.byes.length ? h('p', { class: 'hint' }, g('byes', { teams: s.byes.join('、') })) : null,
    s.matches.length
      ? table(
          { 'data-matches': s.round },
          g('knockout', { r: s.round }),
          [g('match_n', { n: '' }).trim(), g('group', { name: '' }).trim(), g('a_team'), g('b_team'), g('played'), g('points'), g('winner')],
          s.matches.map((/** @type {any} */ m) =>
            h(
              'tr',
              { 'data-match': m.table },
              h('td', {}, m.table),
              h('td', {}, m.group),
              h('td', {}, m.a),
              h('td', {}, m.b),
              h('td', {}, m.played),
              h('td', {}, m.points ? `${m.points[0]} : ${m.points[1]}` : ''),
              h(
                'td',
                {},
                m.winner ?? (m.lot_needed ? g('lot_needed') : m.extra_game_needed ? g('extra_needed') : ''),
                m.lot ? h('div', { 'data-lot-reason': '' }, g('by_lot', { reason: m.lot })) : null,
                m.lot_needed && lot
                  ? h('div', { class: 'row' }, [m.a, m.b].map((team) => h('button', { 'data-lot': `${m.table}:${team}`, 'on:click': () => lot(m.table, team) }, g('lot_wins', { team }))))
                  : null,
              ),
            ),
          ),
        )
      : null,
    table(
      { 'data-games': s.round },
      g('games_h'),
      [g('match_n', { n: '' }).trim(), g('game_n'), g('deal'), g('a_short'), g('b_short'), wordIn(GOUJI_WORDS, 'table_state'), g('result'), g('signed')],
      s.games.map((/** @type {any} */ x) =>
        h(
          'tr',
          { 'data-game': `${x.table}-${x.game}`, 'data-done': x.done ? 'yes' : 'no' },
          h('td', {}, x.table),
          h('td', {}, x.extra ? `${x.game}（${g('extra')}）` : x.game),
          h('td', {}, x.deal),
          h('td', {}, x.a),
          h('td', {}, x.b),
          h('td', {}, boardState(x)),
          h('td', {}, score(x.result), x.adjusted ? h('div', { 'data-adjusted': '' }, g('ruled', { reason: x.adjusted })) : null, conductMarks(x, 'gouji')),
          h('td', { 'data-signed': '' }, (x.confirms ?? []).map((/** @type {any} */ c) => h('div', { class: c.agree ? '' : 'error-text' }, c.agree ? g('signed_by', { team: c.team }) : g('disputed_by', { team: c.team, note: c.note ?? '' })))),
        ),
      ),
    ),
    s.deductions && s.deductions.length
      ? h('ul', {}, s.deductions.map((/** @type {any} */ d) => h('li', {}, `${d.team} −${d.points}：${d.reason}`)))
      : null,
  );
}

/**
 * Why a team is placed where it is when the totals are level: the standings line's `by` (the
 * last tie-break its place needed: more 头科, fewer 大落, the extra games), or `lot` (the reason of a
 * lot drawn by the director, which the server puts on the line).
 * Nothing when the points alone decided.
 * @param {any} l
 */
function tieBreak(l) {
  if (typeof l.lot === 'string') return g('tie_lot', { note: l.lot });
  return l.by === 'firsts' ? g('tie_firsts') : l.by === 'lasts' ? g('tie_lasts') : l.by === 'extra_game' ? g('tie_extra') : '';
}

/** The team ranking of the standings. @param {any} st */
export function teamRanking(st) {
  const lines = st.gouji ? st.gouji.teams : [];
  const stage = (/** @type {any} */ l) =>
    l.stage === 'final' ? g(l.extra_game_needed ? 'in_final_extra' : 'in_final') : l.stage === 'out' ? g('out_in', { r: l.out_round }) : g('still_in');
  const columns = rankingColumns(lines, [
    [wordIn(GOUJI_WORDS, 'place'), (l) => l.place ?? '—'],
    [g('team'), (l) => l.name],
    [g('points'), (l) => l.points],
    [g('tie_h'), tieBreak, true],
    [wordIn(GOUJI_WORDS, 'players'), (l) => playerNames(l)],
    [g('stage'), stage],
    [g('firsts'), (l) => l.firsts],
    [g('lasts'), (l) => l.lasts],
    [wordIn(GOUJI_WORDS, 'organisation'), (l) => l.organisation ?? '', true],
    [wordIn(GOUJI_WORDS, 'deducted'), (l) => l.deducted ?? '', true],
  ]);
  return table(
    { 'data-ranking': 'teams' },
    g('ranking'),
    columns.map(([k]) => k),
    lines.map((/** @type {any} */ l) =>
      h('tr', { class: l.prize ? 'prize' : '' }, columns.map(([k, cell]) => h('td', k === wordIn(GOUJI_WORDS, 'players') ? { class: 'names' } : {}, cell(l)))),
    ),
  );
}

/** Every game's result (the director's, or everyone's once final). @param {any[]} games */
export function gameResults(games) {
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'games-h' },
    h('h2', { id: 'games-h' }, g('games_h')),
    table(
      { 'data-results': '' },
      g('games_h'),
      [wordIn(GOUJI_WORDS, 'round'), g('match_n', { n: '' }).trim(), g('game_n'), g('deal'), g('a_short'), g('b_short'), g('result')],
      games.map((x) =>
        h('tr', {}, h('td', {}, x.kind === 'final' ? g('final_round', { r: x.round }) : x.round), h('td', {}, x.table), h('td', {}, x.extra ? `${x.game}（${g('extra')}）` : x.game), h('td', {}, x.deal), h('td', {}, x.a), h('td', {}, x.b), h('td', {}, score(x.result), x.adjusted ? h('div', { 'data-adjusted': '' }, g('ruled', { reason: x.adjusted })) : null)),
      ),
    ),
  );
}
