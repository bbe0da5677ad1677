// SpyDashboard in the browser: wires the page (index.html) to the API. Its jobs live in modules of their own
// (entries.js, filters.js, detail.js, drawer.js; shared state in page.js); logic that is not layout in model.js
// (tested by the unit tests in Tests/EndToEndTests/DashboardUnitTests), the tour's sequence in spotlight.js.
// Every message is shown through textContent: nothing from a log line is ever parsed as HTML.
import * as model from './model.js';
import { Spotlight, BoxOverlay } from './spotlight.js';
import { $, INFO_EVERY_MS, app } from './page.js';
import { setConnection, setView, togglePause, updateNewBelow } from './entries.js';
import { showFilterError, suggestValues } from './filters.js';
import { closeDetail, openDetail } from './detail.js';
import { openDrawer, refreshInfo, reloadConfig, setState } from './drawer.js';
import { enterHistory, enterLive, historyStatus, isHistory } from './history.js';

const STEPS = [
  { key: 'entries', title: 'Entries', message: 'Every exported entry, newest at the bottom. The view follows the tail while you are at the bottom and holds still when you scroll up. Click a row (or press Enter on it) for its detail, source, id and fields; + or − beside a value shows only, or hides, the entries with it.' },
  { key: 'categories', title: 'Categories', message: 'One toggle per category of the config, with its count. Switching one off adds a "Category is …" filter; on again removes it.' },
  { key: 'filters', title: 'Active filters', message: 'What this view hides, and what it shows only ("Only: …"). Remove a chip, or add one by message text, prefix, tag, category, source, an integration\'s ignorable prefixes, or any condition of the config as JSON ({"field": "http.status", "gte": 500}). Filters live in the URL (bookmark a view) and never change what the outputs export.' },
  { key: 'search', title: 'Search', message: 'Keeps only messages that contain the text. Press / to get here from anywhere.' },
  { key: 'drawer', title: 'The drawer', message: 'Switch between recording, idle and disabled, reload the config, and see the build, the files, the outputs and the last problems.' },
  { key: 'state', title: 'State', message: 'What spytail is doing now: recording exports, idle only keeps positions current, disabled reads nothing.' },
];

// MARK: start

async function start() {
  bindControls();
  const session = await fetch('/api/session', { credentials: 'same-origin', cache: 'no-store' });
  if (session.status === 401) { showLogin(new URLSearchParams(location.search).has('token')); return; }
  app.token = (await session.json()).token;
  const parsed = model.parseView(location.search);
  if (parsed.ignored.length > 0) showFilterError(`Left out of the URL's view: ${parsed.ignored.join(', ')}`);
  await refreshInfo();
  if (isHistory()) { enterHistory(); historyStatus(); } else enterLive();
  if (!(await setView(parsed))) {
    // A bookmarked view the server refuses (a category since renamed): say why, show everything.
    const why = $('[data-filter-error]').textContent;
    await setView(model.emptyView());
    showFilterError(`The view in the address was not applied: ${why}`);
  }
  if (!isHistory()) setInterval(refreshInfo, INFO_EVERY_MS);
  tour.start();
}

/// The login form; `wrongToken`: the address held a token spytail refused (it leaves the address bar, and the
/// form says so).
function showLogin(wrongToken) {
  if (wrongToken) {
    const params = new URLSearchParams(location.search);
    params.delete('token');
    const rest = params.toString();
    history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : ''));
    const error = $('[data-login-error]');
    error.textContent = 'That token is not the one spytail printed. Paste the token from its URL (…/?token=…).';
    error.hidden = false;
  }
  $('[data-login]').hidden = false;
  $('[data-login-token]').focus();
}

// MARK: controls and keys

const tour = new Spotlight(STEPS, new BoxOverlay(document), (key) => {
  const node = document.querySelector(`[data-tour="${key}"]`);
  return node && node.getClientRects().length > 0 ? node : null;
}, localStorage);

function bindControls() {
  const entries = $('[data-entries]');
  entries.addEventListener('scroll', () => {
    app.following = model.atBottom(entries.scrollTop, entries.clientHeight, entries.scrollHeight);
    if (app.following) app.unseen = 0;
    updateNewBelow();
  }, { passive: true });
  $('[data-new-below]').addEventListener('click', () => {
    app.following = true;
    app.unseen = 0;
    entries.scrollTop = entries.scrollHeight;
    updateNewBelow();
  });
  $('[data-rows]').addEventListener('click', (event) => {
    const row = event.target.closest('[data-entry-id]');
    if (row) openDetail(row);
  });
  entries.addEventListener('keydown', onRowKey);
  $('[data-close-detail]').addEventListener('click', closeDetail);
  $('[data-open-drawer]').addEventListener('click', () => openDrawer($('[data-drawer]').hidden));
  $('[data-close-drawer]').addEventListener('click', () => openDrawer(false));
  for (const button of document.querySelectorAll('[data-set-state]')) {
    button.addEventListener('click', () => setState(button.dataset.setState));
  }
  $('[data-reload]').addEventListener('click', reloadConfig);
  $('[data-pause]').addEventListener('click', togglePause);
  $('[data-start-tour]').addEventListener('click', () => { openDrawer(false); tour.start(true); });
  $('[data-filter-mode]').addEventListener('change', suggestValues);
  $('[data-add-filter]').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = $('[data-filter-value]');
    const text = value.value.trim();
    if (text === '') return;
    const action = event.submitter && event.submitter.value === 'include' ? 'include' : 'exclude';
    const mode = $('[data-filter-mode]').value;
    const condition = mode === 'json' ? model.parseCondition(text) : { [mode]: text };
    if (condition === null) { showFilterError(`Not a JSON condition: ${text}`); return; }
    setView(model.addFilter(app.view, { action, condition })).then((ok) => {
      if (!ok) return;
      value.value = '';
      $('[data-add-filter-menu]').open = false;
    });
  });
  let searchTimer = 0;
  $('[data-search]').addEventListener('input', (event) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => setView(model.withQuery(app.view, event.target.value)), 250);
  });
  $('[data-login-form]').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = $('[data-login-token]').value.trim();
    const params = new URLSearchParams(location.search);
    params.set('token', token);
    location.href = `/?${params}`;
  });
  document.addEventListener('keydown', onKey);
  // The categories and sources menus close on a click elsewhere, as menus do.
  document.addEventListener('click', (event) => {
    for (const menu of document.querySelectorAll('.menu')) {
      if (menu.open && !menu.contains(event.target)) menu.open = false;
    }
  });
}

function onKey(event) {
  const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || event.target instanceof HTMLTextAreaElement;
  if (event.key === '/' && !typing && !tour.running) {
    event.preventDefault();
    $('[data-search]').focus();
  } else if (event.key === 'Escape' && !tour.running) {
    const menu = [...document.querySelectorAll('.menu')].find((m) => m.open);
    if (menu) menu.open = false;
    else if (!$('[data-detail]').hidden) closeDetail();
    else if (!$('[data-drawer]').hidden) openDrawer(false);
  }
}

/// Arrow keys move through the rows of the focused list, Enter opens one.
function onRowKey(event) {
  const current = document.activeElement && document.activeElement.closest ? document.activeElement.closest('[data-entry-id]') : null;
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    const rows = $('[data-rows]');
    const next = current ? (event.key === 'ArrowDown' ? current.nextElementSibling : current.previousElementSibling)
      : rows.lastElementChild;
    if (next) next.focus();
  } else if (event.key === 'Enter' && current) {
    openDetail(current);
  }
}

start().catch((error) => setConnection(`the dashboard failed to start: ${error}`));
