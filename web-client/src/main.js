// @ts-check
//! The page's entry: a hash router over the lobby (`#/`), a table to play (`#/t/CODE`, the link
//! friends are sent), a table to watch (`#/t/CODE/watch`), its replay (`#/t/CODE/replay`, at
//! action N: `#/t/CODE/replay/N`), and the referee's desk (`#/referee`, a table officiated:
//! `#/referee/t/CODE`).

import { renderLobby } from './lobby.js';
import { openTable } from './table.js';
import { openReplay } from './replay.js';
import { renderDesk, openRefereeTable } from './referee.js';
import { onChange, settings } from './settings.js';

const root = /** @type {HTMLElement} */ (document.getElementById('app'));
/** Closes what the current page opened (a table's socket). */
let leave = () => {};

/** Goes to a place; the same place again is re-opened (e.g. after sitting down). @param {string} hash */
function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function route() {
  leave();
  leave = () => {};
  document.documentElement.lang = settings().lang === 'en' ? 'en' : 'zh-CN';
  const m = location.hash.match(/^#\/t\/([A-Za-z0-9_-]+)(\/watch)?$/);
  const replay = location.hash.match(/^#\/t\/([A-Za-z0-9_-]+)\/replay(?:\/(\d+))?$/);
  const desk = location.hash.match(/^#\/referee(?:\/t\/([A-Za-z0-9_-]+))?$/);
  if (replay) {
    leave = openReplay(root, { id: replay[1], at: replay[2] === undefined ? null : Number(replay[2]), go });
  } else if (desk) {
    leave = desk[1] ? openRefereeTable(root, { id: desk[1], go }) : renderDesk(root, go);
  } else if (m) {
    leave = openTable(root, { id: m[1], watch: !!m[2], go });
  } else {
    renderLobby(root, go);
    const off = onChange((key) => key !== 'name' && renderLobby(root, go));
    leave = () => off();
  }
}

/** The page's language and the 大字 / 大牌 switches, on the root element (style.css reads them). */
function applySettings() {
  const s = settings();
  const root = document.documentElement;
  root.lang = s.lang === 'en' ? 'en' : 'zh-CN';
  root.classList.toggle('big-text', s.bigText);
  root.classList.toggle('big-cards', s.bigCards);
}

onChange(applySettings);
applySettings();
addEventListener('hashchange', route);
route();
