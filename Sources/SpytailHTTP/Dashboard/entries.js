// The view (filters, search) and the entries it shows: history from /api/entries, live rows from /api/stream,
// one row per entry (text only: nothing from a log line is parsed as HTML).
import * as model from './model.js';
import { $, HISTORY, MAX_ROWS, app, batcher, el } from './page.js';
import { renderCategories, renderFilters, renderSources, showFilterError } from './filters.js';
import { showState } from './drawer.js';
import { isHistory, setHistoryView } from './history.js';

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
}

export function clearRows() {
  $('[data-rows]').replaceChildren();
  app.unseen = 0;
  app.following = true;
  updateNewBelow();
}

/// One frame's rows: appended together, the oldest dropped beyond MAX_ROWS, the tail followed if it was.
export function deliver(items, dropped) {
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

export function markerRow(count, why) {
  const row = el('li', 'row marker', `${count} entries not shown (${why})`);
  row.dataset.skipped = String(count);
  return row;
}

export function entryRow(record) {
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
