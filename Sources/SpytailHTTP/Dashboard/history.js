// The history view (`spytail explore`): the same rows, filters and search as the live view, over a time window
// of the indexed files, with a histogram of the window stacked by category (drag across it to zoom; the window
// is in the URL), "Load more" for the next page, the count of matches, a link to download the view as jsonl,
// and the context of an entry in its own file. With `explore --follow`, entries that join the history show up
// at the end of a view that reaches the present (no `to`), and its count and histogram follow. Nothing from a
// log line is parsed as HTML.
import * as model from './model.js';
import { $, HISTORY, app, el } from './page.js';
import { apiQuery, clearRows, deliver, entryRow, errorText, setConnection, updateNewBelow } from './entries.js';
import { renderCategories, renderFilters, renderSources, showFilterError } from './filters.js';

/// Whether the page shows a history (explore) rather than a run.
export function isHistory() { return Boolean(app.info && app.info.mode === 'history'); }

/// Shows the history's own controls and hides the run's.
export function enterHistory() {
  document.body.dataset.mode = 'history';
  $('[data-histogram-panel]').hidden = false;
  for (const node of document.querySelectorAll('[data-live-only]')) node.hidden = true;
  for (const node of document.querySelectorAll('[data-history-only]')) node.hidden = false;
  $('[data-whole-history]').addEventListener('click', () => setHistoryView(model.withWindow(app.view, null, null)));
  $('[data-load-more]').addEventListener('click', loadMore);
  bindDrag($('[data-histogram]'));
}

/// Loads `view`: its first page (a search reads only as far as that page needs), then its histogram and its
/// count, which go through the whole window. A view the server refuses (400) is not taken.
export async function setHistoryView(view) {
  const generation = ++app.generation;
  const query = model.viewQuery(view);
  const reply = await fetch(`/api/entries${apiQuery(query, `limit=${HISTORY}`)}`, { cache: 'no-store' });
  if (generation !== app.generation) return false;
  if (!reply.ok) { showFilterError(await errorText(reply)); return false; }
  showFilterError('');
  app.view = view;
  history.replaceState(null, '', location.pathname + query);
  clearRows();
  app.following = false;
  const entries = await reply.json();
  deliver(entries, 0);
  seen();
  $('[data-entries]').scrollTop = 0;
  app.next = reply.headers.get('X-Spytail-Next');
  app.last = reply.headers.get('X-Spytail-Last');
  $('[data-load-more]').hidden = app.next === null;
  $('[data-window]').textContent = model.windowText(view.from ?? null, view.to ?? null);
  $('[data-whole-history]').hidden = view.from == null && view.to == null;
  $('[data-download]').href = `/api/download${query}`;
  renderFilters();
  renderCategories();
  renderSources();
  showCount(reply, entries.length).then(() => loadHistogram(query, generation));
  return true;
}

async function loadHistogram(query, generation) {
  const reply = await fetch(`/api/histogram${apiQuery(query, 'buckets=120')}`, { cache: 'no-store' });
  if (generation === app.generation && reply.ok) drawHistogram(await reply.json());
}

/// The count of the view: the header when the page went through the window, else /api/count (a search reads
/// only as far as its first page needs).
async function showCount(reply, shown) {
  const generation = app.generation;
  const total = reply.headers.get('X-Spytail-Total');
  const node = $('[data-count]');
  if (total !== null) { node.textContent = countText(Number(total)); return; }
  node.textContent = `${Number(reply.headers.get('X-Spytail-Counted') || shown).toLocaleString('en')}+ entries (counting…)`;
  const counted = await fetch(`/api/count${model.viewQuery(app.view)}`, { cache: 'no-store' });
  if (generation !== app.generation || !counted.ok) return;
  node.textContent = countText((await counted.json()).total);
}

/// A history has nothing "new below": what a page adds is what was asked for.
function seen() {
  app.unseen = 0;
  updateNewBelow();
}

function countText(n) { return `${n.toLocaleString('en')} ${n === 1 ? 'entry' : 'entries'}`; }

async function loadMore() {
  if (app.next === null) return;
  const generation = app.generation;
  const reply = await fetch(`/api/entries${apiQuery(model.viewQuery(app.view), `limit=${HISTORY}&after=${app.next}`)}`, { cache: 'no-store' });
  if (generation !== app.generation || !reply.ok) return;
  deliver(await reply.json(), 0);
  seen();
  app.next = reply.headers.get('X-Spytail-Next');
  app.last = reply.headers.get('X-Spytail-Last') ?? app.last;
  $('[data-load-more]').hidden = app.next === null;
}

/// How often a followed history is asked whether it grew.
const FOLLOW_EVERY_MS = 2000;

/// `explore --follow`: when the history grew, a view that reaches the present and whose last page is shown
/// gets the new entries at its end; its count and histogram are asked again.
async function followHistory() {
  if (document.hidden) return;
  const reply = await fetch('/api/info', { cache: 'no-store' });
  if (!reply.ok) return;
  const entries = (await reply.json()).entries;
  if (entries === app.followedEntries) return;
  app.followedEntries = entries;
  const view = app.view;
  if (view.to != null) return;
  const generation = app.generation;
  const query = model.viewQuery(view);
  if (app.next !== null) {
    // Pages remain before the end: "Load more" reaches the new entries; the count and histogram show them now.
    const counted = await fetch(`/api/entries${apiQuery(query, 'limit=0')}`, { cache: 'no-store' });
    if (generation === app.generation && counted.ok) showCount(counted, 0).then(() => loadHistogram(query, generation));
    return;
  }
  const after = app.last === null ? '' : `&after=${app.last}`;
  const page = await fetch(`/api/entries${apiQuery(query, `limit=${HISTORY}${after}`)}`, { cache: 'no-store' });
  if (generation !== app.generation || !page.ok) return;
  const fresh = await page.json();
  deliver(fresh, 0);
  seen();
  app.next = page.headers.get('X-Spytail-Next');
  app.last = page.headers.get('X-Spytail-Last') ?? app.last;
  $('[data-load-more]').hidden = app.next === null;
  showCount(page, fresh.length).then(() => loadHistogram(query, generation));
}

/// The histogram: one column a bucket, its categories stacked in their colours; a title says what it holds.
export function drawHistogram(histogram) {
  app.histogram = histogram;
  const box = $('[data-histogram]');
  const columns = model.histogramColumns(histogram);
  const highest = Math.max(1, ...columns.map((c) => c.total));
  box.replaceChildren(...columns.map((column) => {
    const bar = el('div', 'bucket');
    bar.title = `${model.windowText(column.start, column.end)}: ${column.total.toLocaleString('en')}`
      + column.segments.map((s) => `\n${s.category}: ${s.count.toLocaleString('en')}`).join('');
    for (const segment of column.segments) {
      const part = el('div', 'segment');
      const label = app.categories.get(segment.category);
      part.classList.add(`c-${model.categoryColor(label, histogram.categories.indexOf(segment.category))}`);
      part.dataset.segment = segment.category;
      part.style.height = `${(segment.count / highest) * 100}%`;
      bar.append(part);
    }
    return bar;
  }));
  $('[data-bucket-width]').textContent = `${model.widthText(histogram.width)} a bar`;
}

/// Drag across the histogram to zoom into the buckets covered; a click zooms into one bucket.
function bindDrag(box) {
  let start = null;
  const shade = $('[data-drag-shade]');
  const x = (event) => event.clientX - box.getBoundingClientRect().left;
  box.addEventListener('pointerdown', (event) => {
    start = x(event);
    box.setPointerCapture(event.pointerId);
    shade.hidden = false;
    shade.style.left = `${start}px`;
    shade.style.width = '1px';
  });
  box.addEventListener('pointermove', (event) => {
    if (start === null) return;
    const now = x(event);
    shade.style.left = `${Math.min(start, now)}px`;
    shade.style.width = `${Math.abs(now - start)}px`;
  });
  box.addEventListener('pointerup', (event) => {
    if (start === null || !app.histogram) return;
    const window = model.dragWindow(app.histogram, start, x(event), box.clientWidth);
    start = null;
    shade.hidden = true;
    if (window) setHistoryView(model.withWindow(app.view, window.from, window.to));
  });
}

/// The detail's "Show context": the entries around this one in its own file.
export async function showContext(record, list) {
  const reply = await fetch(`/api/context?id=${encodeURIComponent(record.id)}&before=10&after=10`, { cache: 'no-store' });
  if (!reply.ok) { list.replaceChildren(el('li', 'none', await errorText(reply))); return; }
  const answer = await reply.json();
  list.replaceChildren(...answer.entries.map((entry, i) => {
    const row = entryRow(entry);
    if (i === answer.at) row.classList.add('selected');
    return row;
  }));
}

export function historyStatus() {
  const following = (app.info.following ?? []).length > 0;
  setConnection(following ? 'following' : 'history');
  if (!following) return;
  app.followedEntries = app.info.entries;
  $('[data-connection]').title = `Following ${app.info.following.join(', ')}: new entries join the view`;
  setInterval(followHistory, FOLLOW_EVERY_MS);
}

/// The live view shows the histogram of the rows it holds (no zoom: a live view has no window), and not what
/// only a history has.
export function enterLive() {
  $('[data-histogram-panel]').hidden = false;
  for (const node of document.querySelectorAll('[data-history-only]')) node.hidden = true;
  $('[data-histogram]').title = 'Entries in this view over time';
}
