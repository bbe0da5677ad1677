// SpyDashboard in the browser: wires the page (index.html) to the API. Logic that is not layout lives in
// model.js (tested by tests.js), the tour's sequence in spotlight.js. Every message is shown through
// textContent: nothing from a log line is ever parsed as HTML.
import * as model from './model.js';
import { Spotlight, BoxOverlay } from './spotlight.js';

/// Rows kept in the page; older ones leave the view (they stay in /api/entries' history).
const MAX_ROWS = 3000;
/// Entries loaded when the page opens or the view changes.
const HISTORY = 1000;
const INFO_EVERY_MS = 2000;

const STEPS = [
  { key: 'entries', title: 'Entries', message: 'Every exported entry, newest at the bottom. The view follows the tail while you are at the bottom and holds still when you scroll up. Click a row (or press Enter on it) for its detail, source, id and fields; + or − beside a value shows only, or hides, the entries with it.' },
  { key: 'categories', title: 'Categories', message: 'One toggle per category of the config, with its count. Switching one off adds a "Category is …" filter; on again removes it.' },
  { key: 'filters', title: 'Active filters', message: 'What this view hides, and what it shows only ("Only: …"). Remove a chip, or add one by message text, prefix, tag, category, source, an integration\'s ignorable prefixes, or any condition of the config as JSON ({"field": "http.status", "gte": 500}). Filters live in the URL (bookmark a view) and never change what the outputs export.' },
  { key: 'search', title: 'Search', message: 'Keeps only messages that contain the text. Press / to get here from anywhere.' },
  { key: 'drawer', title: 'The drawer', message: 'Switch between recording, idle and disabled, reload the config, and see the build, the files, the outputs and the last problems.' },
  { key: 'state', title: 'State', message: 'What spytail is doing now: recording exports, idle only keeps positions current, disabled reads nothing.' },
];

const $ = (selector, root = document) => root.querySelector(selector);
const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const app = {
  token: '',
  info: null,
  view: model.emptyView(),
  source: null,
  following: true,
  unseen: 0,
  categories: new Map(),
  tags: new Map(),
  sources: [],
  selected: null,
  generation: 0,
};

const batcher = new model.FrameBatcher(MAX_ROWS, model.nextFrame(window), deliver);

// MARK: start

async function start() {
  bindControls();
  const session = await fetch('/api/session', { credentials: 'same-origin', cache: 'no-store' });
  if (session.status === 401) { showLogin(); return; }
  app.token = (await session.json()).token;
  const parsed = model.parseView(location.search);
  if (parsed.ignored.length > 0) showFilterError(`Left out of the URL's view: ${parsed.ignored.join(', ')}`);
  await refreshInfo();
  if (!(await setView(parsed))) {
    // A bookmarked view the server refuses (a category since renamed): say why, show everything.
    const why = $('[data-filter-error]').textContent;
    await setView(model.emptyView());
    showFilterError(`The view in the address was not applied: ${why}`);
  }
  setInterval(refreshInfo, INFO_EVERY_MS);
  tour.start();
}

function showLogin() {
  $('[data-login]').hidden = false;
  $('[data-login-token]').focus();
}

// MARK: the view (filters, search) and the entries it shows

/// Loads `view`'s history and streams it; a view the server refuses (400) is not taken, its message shown.
async function setView(view) {
  const generation = ++app.generation;
  const query = model.viewQuery(view);
  const reply = await fetch(`/api/entries${apiQuery(query, `limit=${HISTORY}`)}`, { cache: 'no-store' });
  if (generation !== app.generation) return false;
  if (!reply.ok) {
    showFilterError(await errorText(reply));
    return false;
  }
  showFilterError('');
  const through = reply.headers.get('X-Spytail-Through');
  const entries = await reply.json();
  app.view = view;
  history.replaceState(null, '', location.pathname + query);
  clearRows();
  batcher.pending = [];
  deliver(entries, 0);
  connect(query, through);
  renderFilters();
  renderCategories();
  renderSources();
  return true;
}

function apiQuery(viewQuery, extra) {
  return viewQuery ? `${viewQuery}&${extra}` : `?${extra}`;
}

async function errorText(reply) {
  // Ours are {"error": "text"}; Hummingbird's HTTPError is {"error": {"message": "text"}}.
  try {
    const error = (await reply.json()).error;
    return (error && error.message) || error || `${reply.status} ${reply.statusText}`;
  } catch { return `${reply.status} ${reply.statusText}`; }
}

function connect(query, through) {
  if (app.source) app.source.close();
  const source = new EventSource(`/api/stream${through ? apiQuery(query, `after=${through}`) : query}`);
  app.source = source;
  source.addEventListener('entry', (event) => {
    try { batcher.push(JSON.parse(event.data)); } catch { /* a record that is not JSON is not shown */ }
  });
  source.addEventListener('skipped', (event) => batcher.push({ skipped: Number(event.data) || 0 }));
  source.addEventListener('state', (event) => {
    try { showState(JSON.parse(event.data).state); } catch { /* ignored */ }
  });
  source.addEventListener('open', () => setConnection('live'));
  source.addEventListener('error', () => setConnection(source.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting…'));
}

function setConnection(text) {
  const node = $('[data-connection]');
  node.textContent = text;
  node.dataset.connection = text;
}

function clearRows() {
  $('[data-rows]').replaceChildren();
  app.unseen = 0;
  app.following = true;
  updateNewBelow();
}

/// One frame's rows: appended together, the oldest dropped beyond MAX_ROWS, the tail followed if it was.
function deliver(items, dropped) {
  const rows = $('[data-rows]');
  const fragment = document.createDocumentFragment();
  if (dropped > 0) fragment.append(markerRow(dropped, 'more arrived in one frame than the page keeps'));
  for (const item of items) fragment.append(item.skipped !== undefined ? markerRow(item.skipped, 'viewer fell behind') : entryRow(item));
  rows.append(fragment);
  const extra = model.rowsToDrop(rows.childElementCount, 0, MAX_ROWS);
  if (extra > 0) {  // one removal for the lot: a node at a time would lay the list out again and again
    const range = document.createRange();
    range.setStartBefore(rows.firstElementChild);
    range.setEndAfter(rows.children[extra - 1]);
    range.deleteContents();
  }
  const entries = $('[data-entries]');
  if (app.following) entries.scrollTop = entries.scrollHeight;
  else app.unseen += items.length;
  updateNewBelow();
}

function markerRow(count, why) {
  const row = el('li', 'row marker', `${count} entries not shown (${why})`);
  row.dataset.skipped = String(count);
  return row;
}

function entryRow(record) {
  const row = el('li', 'row');
  row.dataset.entryId = String(record.id);
  row.dataset.category = String(record.category);
  row.tabIndex = -1;
  row.entry = record;
  const category = app.categories.get(record.category);
  row.append(
    el('time', 'time', model.shortTime(record.timestamp)),
    glyph(category, record.category, 'category-glyph'),
  );
  const tags = el('span', 'tags');
  for (const name of record.tags || []) tags.append(glyph(app.tags.get(name), name, 'tag-glyph'));
  const message = model.displayText(record.message, 400);
  const text = el('span', 'message', message.text + (message.hidden > 0 ? ' …' : ''));
  if (category && category.color) text.classList.add(`c-${category.color}`);
  row.append(tags);
  if (app.sources.length > 1 && record.source && record.source.name) {
    const source = el('span', 'source-name', record.source.name);
    source.title = `source ${record.source.name}`;
    row.append(source);
  }
  row.append(text);
  if (record.detail) row.append(el('span', 'has-detail', `+${record.detail.split('\n').length}`));
  return row;
}

/// A category's or tag's glyph (the config's `display`), or its name when it has none.
function glyph(label, name, className) {
  const display = (label && label.display) || name;
  const node = el('span', className, display);
  if (display === name) node.classList.add('named');
  node.title = name;
  if (label && label.color) node.classList.add(`c-${label.color}`);
  return node;
}

function updateNewBelow() {
  const button = $('[data-new-below]');
  button.hidden = app.following || app.unseen === 0;
  button.textContent = `${app.unseen} new ↓`;
}

// MARK: filters and categories

function renderFilters() {
  const list = $('[data-filter-list]');
  list.replaceChildren();
  for (const filter of app.view.filters) {
    const chip = el('li', 'chip');
    chip.dataset.filter = `${filter.action}=${model.conditionText(filter.condition)}`;
    const label = model.filterLabel(filter);
    chip.append(el('span', 'chip-label', label));
    const remove = el('button', 'chip-remove', '✕');
    remove.type = 'button';
    remove.dataset.removeFilter = '';
    remove.setAttribute('aria-label', `Remove filter ${label}`);
    remove.addEventListener('click', () => setView(model.removeFilter(app.view, filter)));
    chip.append(remove);
    list.append(chip);
  }
  if (app.view.query) {
    const chip = el('li', 'chip search-chip', `Search "${app.view.query}"`);
    list.append(chip);
  }
  const search = $('[data-search]');
  if (document.activeElement !== search) search.value = app.view.query;
  suggestValues();
}

/// One row of a toggle menu: a checkbox (its data attribute `toggle` set to `name`, checked when `shown`) that
/// calls `change` with its new state, then `parts` after it.
function toggleRow(toggle, name, shown, change, ...parts) {
  const item = el('li');
  const label = el('label');
  const box = el('input');
  box.type = 'checkbox';
  box.dataset[toggle] = name;
  box.checked = shown;
  box.addEventListener('change', () => change(box.checked));
  label.append(box, ...parts);
  item.append(label);
  return item;
}

function renderCategories() {
  $('[data-category-list]').replaceChildren(...[...app.categories.values()].map((category) => {
    const count = el('span', 'count', String(category.count || 0));
    count.dataset.categoryCount = category.name;
    const mark = category.display && category.display !== category.name ? glyph(category, category.name, 'category-glyph') : el('span', 'category-glyph');
    return toggleRow('categoryToggle', category.name, model.categoryShown(app.view, category.name),
      (shown) => setView(model.setCategoryShown(app.view, category.name, shown)), mark, el('span', 'name', category.name), count);
  }));
}

/// The sources menu: one toggle per source of the config (shown when there are two or more).
function renderSources() {
  $('[data-sources-menu]').hidden = app.sources.length < 2;
  $('[data-source-list]').replaceChildren(...app.sources.map((source) => toggleRow('sourceToggle', source.name,
    model.sourceShown(app.view, source.name), (shown) => setView(model.setSourceShown(app.view, source.name, shown)),
    el('span', 'name', source.name), el('span', 'count', source.parser || ''))));
}

function updateCategoryCounts() {
  for (const category of app.categories.values()) {
    const node = document.querySelector(`[data-category-count="${CSS.escape(category.name)}"]`);
    if (node) node.textContent = String(category.count || 0);
  }
}

/// The values the add-filter form suggests for its mode: category, tag and integration names.
function suggestValues() {
  const mode = $('[data-filter-mode]').value;
  const info = app.info || {};
  const names = mode === 'category' ? (info.categories || []).map((c) => c.name)
    : mode === 'tag' ? (info.tags || []).map((t) => t.name)
      : mode === 'integration' ? (info.integrations || []).map((i) => i.name)
        : mode === 'source' ? (info.sources || []).map((s) => s.name) : [];
  $('[data-filter-value]').placeholder = mode === 'json' ? '{"field": "http.status", "gte": 500}' : 'value';
  $('[data-filter-values]').replaceChildren(...names.map((name) => { const o = el('option'); o.value = name; return o; }));
}

function showFilterError(text) {
  const node = $('[data-filter-error]');
  node.textContent = text;
  node.hidden = text === '';
}

// MARK: the detail of one entry

function openDetail(row) {
  const record = row.entry;
  if (!record) return;
  if (app.selected) app.selected.classList.remove('selected');
  app.selected = row;
  row.classList.add('selected');
  const fields = $('[data-detail-fields]');
  fields.replaceChildren();
  const add = (name, value, extra) => {
    const dd = el('dd', '', value);
    if (extra) dd.append(extra);
    fields.append(el('dt', '', name), dd);
  };
  const copy = el('button', 'copy', 'Copy');
  copy.type = 'button';
  copy.dataset.copyId = '';
  copy.addEventListener('click', () => copyText(String(record.id), copy));
  add('id', String(record.id), copy);
  add('time', String(record.timestamp ?? '—'));
  add('category', String(record.category));
  add('tags', (record.tags || []).join(', ') || '—');
  const where = `${record.source ? record.source.path : '?'} @ ${record.source ? record.source.offset : '?'}`;
  if (record.source && record.source.name) {
    add('source', `${record.source.name}: ${where}`, picks({ source: record.source.name }, `source ${record.source.name}`));
  } else {
    add('source', where);
  }
  if (record.parseError) add('parse error', model.displayText(String(record.parseError)).text);
  renderFieldTree(record.fields);
  if (record.truncated) add('truncated', 'yes: the line was longer than parse.maxLineBytes');
  const message = model.displayText(record.message, 65536);
  const detail = model.displayText(record.detail || '', 65536);
  const hidden = message.hidden + detail.hidden;
  $('[data-detail-text]').textContent = message.text + (detail.text ? `\n${detail.text}` : '')
    + (hidden > 0 ? `\n… ${hidden} more characters (the record in /api/entries has them all)` : '');
  const panel = $('[data-detail]');
  panel.hidden = false;
  $('[data-close-detail]').focus();
}

/// + (show only) and − (hide) for a condition, as the detail offers them beside a value.
function picks(condition, what) {
  const box = el('span', 'picks');
  for (const [action, sign, verb] of [['include', '+', 'Show only entries with'], ['exclude', '−', 'Hide entries with']]) {
    const button = el('button', 'pick', sign);
    button.type = 'button';
    button.dataset.pick = action;
    button.title = `${verb} ${what}`;
    button.setAttribute('aria-label', button.title);
    button.addEventListener('click', () => setView(model.addFilter(app.view, { action, condition })));
    box.append(button);
  }
  return box;
}

/// The record's fields as a tree: nested objects and arrays indented under their key, each value with its type.
function renderFieldTree(fields) {
  const rows = model.fieldRows(fields);
  $('[data-field-tree-title]').hidden = rows.length === 0;
  $('[data-field-tree]').replaceChildren(...rows.map((row) => {
    const item = el('li');
    item.dataset.fieldPath = row.path;
    item.dataset.kind = row.kind;
    item.style.paddingLeft = `${row.depth * 1.4}em`;
    const value = el('span', `value v-${row.kind}`, model.displayText(row.text, 2000).text);
    const condition = model.fieldCondition(row);
    const what = 'equals' in condition ? `${row.path} = ${JSON.stringify(row.value)}` : `a field ${row.path}`;
    item.append(el('span', 'key', row.key), value, picks(condition, what));
    return item;
  }));
}

function closeDetail() {
  $('[data-detail]').hidden = true;
  if (app.selected) { app.selected.focus(); }
}

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    const range = document.createRange();
    range.selectNodeContents(button.parentElement.firstChild);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    button.textContent = 'Selected: press Ctrl+C';
  }
}

// MARK: the drawer: state, reload, build, files, outputs, problems

async function refreshInfo() {
  const reply = await fetch('/api/info', { cache: 'no-store' }).catch(() => null);
  if (!reply || !reply.ok) { setConnection(reply && reply.status === 401 ? 'token no longer valid: reopen the printed URL' : 'spytail is not answering'); return; }
  const info = await reply.json();
  const firstTime = app.info === null;
  const vocabularyChanged = firstTime || JSON.stringify(names(info)) !== JSON.stringify(names(app.info));
  app.info = info;
  app.categories = new Map((info.categories || []).map((c) => [c.name, c]));
  app.tags = new Map((info.tags || []).map((t) => [t.name, t]));
  app.sources = info.sources || [];
  if (vocabularyChanged) { renderCategories(); renderSources(); } else updateCategoryCounts();
  showState(info.state);
  renderDrawer(info);
}

function names(info) {
  return [(info.categories || []).map((c) => c.name), (info.tags || []).map((t) => t.name), (info.sources || []).map((s) => s.name)];
}

function showState(state) {
  const badge = $('[data-state-badge]');
  badge.textContent = state;
  badge.dataset.state = state;
  for (const button of document.querySelectorAll('[data-set-state]')) {
    button.setAttribute('aria-pressed', String(button.dataset.setState === state));
  }
}

function renderDrawer(info) {
  const build = $('[data-build]');
  build.replaceChildren();
  const row = (name, value) => build.append(el('dt', '', name), el('dd', '', String(value ?? '')));
  row('version', info.version);
  row('commit', info.commit);
  row('built', info.buildDate);
  row('swift', info.swift);
  for (const [name, version] of Object.entries(info.libraries || {})) row(name, version);
  row('config', info.config);
  row('uptime', model.humanDuration(info.uptimeSeconds || 0));
  row('viewers', info.viewers);

  $('[data-files]').replaceChildren(...(info.files || []).map((file) => {
    const tr = el('tr');
    tr.append(el('td', 'path', file.path), el('td', 'num', model.humanBytes(file.offset)),
      el('td', 'num', model.humanBytes(file.behind)), el('td', `status s-${file.status}`, file.status));
    return tr;
  }));
  $('[data-outputs]').replaceChildren(...(info.outputs || []).map((out) => el('li', '', `${out.name}: ${out.records} records`)));
  const problems = info.problems || [];
  $('[data-problems]').replaceChildren(...(problems.length ? problems.map((p) => el('li', '', p)) : [el('li', 'none', 'none')]));
}

async function post(path, body) {
  const reply = await fetch(path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${app.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return reply;
}

async function setState(state) {
  const hint = $('[data-state-hint]');
  hint.textContent = `asking for ${state}…`;
  const reply = await post('/api/state', { state });
  const answer = await reply.json().catch(() => ({}));
  hint.textContent = reply.ok ? `state: ${answer.state}${answer.state !== state ? ` (asked for ${state}; applied at the next batch)` : ''}`
    : `refused: ${answer.error || reply.status}`;
  if (answer.state) showState(answer.state);
}

async function reloadConfig() {
  const result = $('[data-reload-result]');
  result.textContent = 'reload requested…';
  const reply = await post('/api/reload');
  result.textContent = reply.ok ? 'reload requested: the drawer shows the outcome under "Last problems" if it was refused' : `refused: ${reply.status}`;
  setTimeout(refreshInfo, 500);
}

function openDrawer(open) {
  const drawer = $('[data-drawer]');
  drawer.hidden = !open;
  $('[data-open-drawer]').setAttribute('aria-expanded', String(open));
  if (open) { refreshInfo(); $('[data-close-drawer]').focus(); } else { $('[data-open-drawer]').focus(); }
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
    setView(model.addFilter(app.view, { action, condition })).then((ok) => { if (ok) value.value = ''; });
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
