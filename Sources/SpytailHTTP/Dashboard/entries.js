// The view (filters, search) and the entries it shows: history from /api/entries, live rows from /api/stream,
// one row per entry (text only: nothing from a log line is parsed as HTML).
import * as model from './model.js';
import { $, HISTORY, MAX_ROWS, app, batcher, el } from './page.js';
import { renderCategories, renderFilters, renderSources, showFilterError } from './filters.js';
import { showState } from './drawer.js';
import { drawHistogram, isHistory, setHistoryView } from './history.js';

/// Loads `view`'s history and streams it; a view the server refuses (400) is not taken, its message shown.
export async function setView(view) {
  if (isHistory()) return setHistoryView(view);
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

export function apiQuery(viewQuery, extra) {
  return viewQuery ? `${viewQuery}&${extra}` : `?${extra}`;
}

export async function errorText(reply) {
  // Ours are {"error": "text"}; Hummingbird's HTTPError is {"error": {"message": "text"}}.
  try {
    const error = (await reply.json()).error;
    return (error && error.message) || error || `${reply.status} ${reply.statusText}`;
  } catch { return `${reply.status} ${reply.statusText}`; }
}

export function connect(query, through) {
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

export function setConnection(text) {
  const node = $('[data-connection]');
  node.textContent = text;
  node.dataset.connection = text;
  showLiveStatus();
}

/// The header's status: live, paused (with the rows held meanwhile), or the connection's trouble.
export function showLiveStatus() {
  const pill = $('[data-live-status]');
  if (!pill) return;
  const connection = $('[data-connection]').dataset.connection || 'connecting…';
  const state = app.paused ? 'paused' : connection;
  pill.dataset.live = state;
  pill.textContent = app.paused ? `❚❚ paused · ${app.heldNew.toLocaleString('en')} new` : (connection === 'live' ? '● live' : connection);
  const button = $('[data-pause]');
  button.setAttribute('aria-pressed', String(app.paused));
  button.textContent = app.paused ? '▶ Resume' : '❚❚ Pause';
}

/// Pauses this view (rows that arrive are held, at most the page's limit, and shown on resume) or resumes it.
/// Export and every other viewer go on: this is not the run's idle state.
export function togglePause() {
  app.paused = !app.paused;
  if (!app.paused) {
    const held = app.held, dropped = app.heldDropped;
    app.held = [];
    app.heldDropped = 0;
    app.heldNew = 0;
    if (held.length > 0 || dropped > 0) deliver(held, dropped);
  }
  showLiveStatus();
}

export function clearRows() {
  $('[data-rows]').replaceChildren();
  app.unseen = 0;
  app.following = true;
  updateNewBelow();
}

/// One frame's rows: appended together, the oldest dropped beyond MAX_ROWS, the tail followed if it was.
export function deliver(items, dropped) {
  if (app.paused) {
    app.held.push(...items);
    app.heldNew += items.length;
    app.heldDropped += dropped;
    if (app.held.length > MAX_ROWS) app.heldDropped += app.held.splice(0, app.held.length - MAX_ROWS).length;
    showLiveStatus();
    return;
  }
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
  if (!isHistory()) scheduleLiveHistogram();
}

/// The live view's histogram: the rows the page holds, redrawn at most once a second.
let histogramTimer = 0;
export function scheduleLiveHistogram() {
  if (histogramTimer) return;
  histogramTimer = setTimeout(() => {
    histogramTimer = 0;
    const records = [...$('[data-rows]').children].map((row) => row.entry).filter(Boolean);
    drawHistogram(model.rowsHistogram(records, [...app.categories.keys()], 60));
    $('[data-count]').textContent = `${records.length.toLocaleString('en')} rows in view`;
    $('[data-window]').textContent = 'this view';
  }, 1000);
}

export function markerRow(count, why) {
  const row = el('li', 'row marker', `${count} entries not shown (${why})`);
  row.dataset.skipped = String(count);
  return row;
}

/// One entry's row, in aligned columns: date and time, level (glyph and word), tags, source (with two sources or
/// more), message (the rest of the width; search matches marked, control characters in caret notation).
export function entryRow(record) {
  const row = el('li', 'row');
  row.dataset.entryId = String(record.id);
  row.dataset.category = String(record.category);
  row.tabIndex = -1;
  row.entry = record;
  const category = app.categories.get(record.category);
  const when = model.rowTime(record.timestamp);
  const time = el('time', 'time');
  if (when.date) time.append(el('span', 'date', when.date), ' ');
  time.append(el('span', 'clock', when.clock));
  if (record.timestamp) time.title = String(record.timestamp);
  const glyphText = model.glyphOnly(category && category.display, record.category);
  const level = el('span', 'level', glyphText ? `${glyphText} ${record.category}` : String(record.category));
  level.classList.add(`c-${model.categoryColor(category || { name: record.category }, 0)}`);
  row.append(time, level);
  const tags = el('span', 'tags');
  for (const name of record.tags || []) tags.append(glyph(app.tags.get(name), name, 'tag-glyph'));
  tags.title = (record.tags || []).join(', ');
  row.append(tags);
  if (app.sources.length > 1) {
    const name = record.source && record.source.name ? record.source.name : '';
    const source = el('span', 'source-name', name);
    source.title = name ? `source ${name}` : '';
    row.append(source);
  }
  const message = model.messageParts(record.message, 1000, app.view.query || '');
  const text = el('span', 'message');
  appendParts(text, message.parts);
  if (message.hidden > 0) text.append(' …');
  if (category && category.color) text.classList.add(`c-${category.color}`);
  row.append(text);
  if (record.detail) row.append(el('span', 'has-detail', `+${record.detail.split('\n').length}`));
  return row;
}

/// Appends a message's parts (`model.messageParts`) to `node`: text as text nodes, a match in <mark>, a control
/// character in a span of its own. Never HTML.
export function appendParts(node, parts) {
  for (const part of parts) {
    if (part.kind === 'text') node.append(part.text);
    else node.append(el(part.kind === 'match' ? 'mark' : 'span', part.kind === 'match' ? 'match' : 'control', part.text));
  }
}

/// A category's or tag's glyph (the config's `display`), or its name when it has none.
export function glyph(label, name, className) {
  const display = (label && label.display) || name;
  const node = el('span', className, display);
  if (display === name) node.classList.add('named');
  node.title = name;
  if (label && label.color) node.classList.add(`c-${label.color}`);
  return node;
}

export function updateNewBelow() {
  const button = $('[data-new-below]');
  button.hidden = app.following || app.unseen === 0;
  button.textContent = `${app.unseen} new ↓`;
}
