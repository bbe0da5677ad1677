// Unit tests of the dashboard's logic (model.js, spotlight.js), run by chromium on a page the test suite serves
// (DashboardTests). Each test is a function that throws on failure; the summary element says `data-done="true"` with the counts when all ran.
import * as model from './model.js';
import { Spotlight, TOUR_DONE_KEY } from './spotlight.js';

const tests = [];
const test = (name, body) => tests.push({ name, body });

function equal(actual, expected, what = '') {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what} expected ${e}, got ${a}`);
}

// MARK: labels

test('filter labels are the seed\'s', () => {
  equal(model.filterLabel({ mode: 'contains', value: 'x' }), 'Message contains "x"');
  equal(model.filterLabel({ mode: 'prefix', value: 'x' }), 'Message starts with "x"');
  equal(model.filterLabel({ mode: 'tag', value: 'net' }), 'Tag is net');
  equal(model.filterLabel({ mode: 'category', value: 'debug' }), 'Category is debug');
  equal(model.filterLabel({ mode: 'integration', value: 'tca' }), 'Ignorable prefixes of tca');
  equal(model.filterLabel({ mode: 'source', value: 'nginx' }), 'Source is nginx');
});

test('field conditions and inclusions in words', () => {
  equal(model.filterLabel({ action: 'include', condition: { field: 'http.status', gte: 500 } }), 'Only: http.status ≥ 500');
  equal(model.filterLabel({ action: 'exclude', condition: { field: 'level', equals: 'DEBUG' } }), 'level = "DEBUG"');
  equal(model.describeCondition({ field: 'ms', gt: 1, lte: 9 }), 'ms > 1 and ms ≤ 9');
  equal(model.describeCondition({ field: 'user', exists: false }), 'user is absent');
  equal(model.describeCondition({ any: [{ source: 'a' }, { not: { category: 'x' } }] }), '(Source is a or not (Category is x))');
});

// MARK: the history's window and histogram

test('a time window goes to the URL and comes back; a bad one is left out and said', () => {
  const view = model.withWindow(model.withQuery(model.emptyView(), 'x'), 1795168800000, 1795168860000);
  const query = model.viewQuery(view);
  equal(query, '?q=x&from=1795168800000&to=1795168860000');
  const back = model.parseView(query);
  equal([back.from, back.to, back.query], [1795168800000, 1795168860000, 'x']);
  const bad = model.parseView('?from=yesterday&to=12');
  equal([bad.from, bad.to, bad.ignored], [null, 12, ['from=yesterday']]);
  equal(model.viewQuery(model.withWindow(view, null, null)), '?q=x');
});

test('histogram columns stack the categories with counts, in time order', () => {
  const h = { start: 1000, width: 500, categories: ['error', 'info'], counts: [[1, 2], [0, 0], [0, 5]] };
  const columns = model.histogramColumns(h);
  equal(columns.map((c) => [c.start, c.end, c.total]), [[1000, 1500, 3], [1500, 2000, 0], [2000, 2500, 5]]);
  equal(columns[0].segments, [{ category: 'error', count: 1 }, { category: 'info', count: 2 }]);
  equal(columns[2].segments, [{ category: 'info', count: 5 }]);
});

test('a drag over the histogram selects whole buckets, in either direction', () => {
  const h = { start: 0, width: 60000, counts: [[1], [1], [1], [1]] };
  equal(model.dragWindow(h, 10, 10, 400), { from: 0, to: 60000 });
  equal(model.dragWindow(h, 350, 120, 400), { from: 60000, to: 240000 });
  equal(model.dragWindow(h, -5, 999, 400), { from: 0, to: 240000 });
  equal(model.dragWindow({ start: 0, width: 1, counts: [] }, 0, 1, 400), null);
});

test('a category without a colour gets its usual one, else one by its place', () => {
  equal(model.categoryColor({ name: 'error' }, 0), 'red');
  equal(model.categoryColor({ name: 'error', color: 'cyan' }, 0), 'cyan');
  equal(model.categoryColor({ name: 'WARNING' }, 1), 'yellow');
  equal(model.categoryColor({ name: 'gap' }, 4), 'magenta');
  equal([3, 4, 5].map((i) => model.categoryColor({ name: 'store' }, i)), ['blue', 'cyan', 'green']);
  equal(model.categoryColor(undefined, 0), 'blue');
});

test('a message in parts: control characters in caret notation, search matches smart case', () => {
  const { parts, hidden } = model.messageParts('\u001b[31mRed alert\u0007 red', 100, 'red');
  equal(parts, [{ kind: 'control', text: '^[' }, { kind: 'text', text: '[31m' }, { kind: 'match', text: 'Red' },
    { kind: 'text', text: ' alert' }, { kind: 'control', text: '^G' }, { kind: 'text', text: ' ' }, { kind: 'match', text: 'red' }]);
  equal(hidden, 0);
  equal(model.messageParts('Red red', 100, 'Red').parts, [{ kind: 'match', text: 'Red' }, { kind: 'text', text: ' red' }]);
  equal(model.messageParts('aaaa', 100, 'aa').parts, [{ kind: 'match', text: 'aaaa' }]);
  equal(model.messageParts('x'.repeat(10), 4).parts, [{ kind: 'text', text: 'xxxx' }]);
  equal(model.messageParts('x'.repeat(10), 4).hidden, 6);
  equal(model.messageParts(undefined), { parts: [], hidden: 0 });
});

test('a row\'s time has the date and the clock; a gap record has a dash', () => {
  equal(model.rowTime('2026-11-20T10:00:01.123Z'), { date: '11-20', clock: '10:00:01.123' });
  equal(model.rowTime('Nov 20 10:00:01'), { date: '', clock: 'Nov 20 10:00:01' });
  equal(model.rowTime(null), { date: '', clock: '—' });
});

test('a glyph without its name', () => {
  equal(model.glyphOnly('⚠️ gap', 'gap'), '⚠️');
  equal(model.glyphOnly('🛑', 'error'), '🛑');
  equal(model.glyphOnly('gap', 'gap'), '');
  equal(model.glyphOnly(undefined, 'x'), '');
});

test('the live view\'s histogram counts the rows it holds by round buckets', () => {
  const rows = [
    { timestamp: '2026-11-20T10:00:00Z', category: 'info' }, { timestamp: '2026-11-20T10:00:01.500Z', category: 'error' },
    { timestamp: '2026-11-20T10:00:59Z', category: 'info' }, { timestamp: null, category: 'gap' },
  ];
  const h = model.rowsHistogram(rows, ['error', 'info', 'gap'], 60);
  equal([h.start, h.width, h.counts.length], [Date.UTC(2026, 10, 20, 10), 1000, 60]);
  equal([h.counts[0], h.counts[1], h.counts[59]], [[0, 1, 0], [1, 0, 0], [0, 1, 0]]);
  equal(model.rowsHistogram([], ['info']).counts, []);
});

test('a top value goes back to its type for a condition', () => {
  equal([model.typedValue('503'), model.typedValue('-1.5'), model.typedValue('true'), model.typedValue('ann'), model.typedValue('1e3')],
    [503, -1.5, true, 'ann', '1e3']);
});

test('windows and bucket widths in words', () => {
  equal(model.windowText(null, null), 'all of the history');
  equal(model.windowText(Date.UTC(2026, 10, 20, 10, 3), Date.UTC(2026, 10, 20, 10, 5)), '2026-11-20 10:03:00 – 10:05:00');
  equal(model.windowText(Date.UTC(2026, 10, 20, 23, 0), Date.UTC(2026, 10, 21, 1, 0)), '2026-11-20 23:00:00 – 2026-11-21 01:00:00');
  equal(model.widthText(60000), '1 min');
  equal(model.widthText(500), '500 ms');
  equal(model.widthText(7200000), '2 h');
});

// MARK: the view and the URL

test('a view goes to the URL and comes back', () => {
  let view = model.emptyView();
  view = model.addFilter(view, { mode: 'category', value: 'debug' });
  view = model.addFilter(view, { mode: 'contains', value: 'a b&c=d' });
  view = model.withQuery(view, 'boom');
  const query = model.viewQuery(view);
  equal(query, '?exclude=category%3Adebug&exclude=contains%3Aa+b%26c%3Dd&q=boom');
  const back = model.parseView(query);
  equal(back.filters, view.filters);
  equal(back.query, 'boom');
  equal(back.ignored, []);
});

test('field conditions and inclusions go to the URL as JSON and come back', () => {
  let view = model.addFilter(model.emptyView(), { action: 'include', condition: { field: 'http.status', gte: 500 } });
  view = model.addFilter(view, { action: 'exclude', condition: { source: 'app' } });
  const query = model.viewQuery(view);
  equal(query, `?include=${encodeURIComponent('{"field":"http.status","gte":500}').replace(/%20/g, '+')}&exclude=source%3Aapp`);
  equal(model.parseView(query).filters, view.filters);
  equal(model.parseView('?include={"field":"a"').ignored, ['{"field":"a"']);
  equal(model.parseView('?include=[1]&include={}').ignored, ['[1]', '{}']);
});

test('the empty view has no query string', () => {
  equal(model.viewQuery(model.emptyView()), '');
});

test('a value may hold colons; unknown modes and empty values are left out and named', () => {
  const view = model.parseView('?exclude=prefix:GET%20http://x&exclude=colour:red&exclude=tag:&exclude=nocolon');
  equal(view.filters, [{ action: 'exclude', condition: { prefix: 'GET http://x' } }]);
  equal(view.ignored, ['colour:red', 'tag:', 'nocolon']);
});

test('a filter is added once, removed by action and condition', () => {
  let view = model.addFilter(model.emptyView(), { mode: 'tag', value: 'net' });
  view = model.addFilter(view, { mode: 'tag', value: 'net' });
  view = model.addFilter(view, { mode: 'category', value: 'net' });
  equal(view.filters.length, 2);
  view = model.removeFilter(view, { mode: 'tag', value: 'net' });
  equal(view.filters, [{ action: 'exclude', condition: { category: 'net' } }]);
  equal(model.addFilter(view, { mode: 'bogus', value: 'x' }), view);
  equal(model.addFilter(view, { mode: 'contains', value: '' }), view);
});

test('including what was excluded replaces the exclusion', () => {
  const condition = { field: 'level', equals: 'INFO' };
  let view = model.addFilter(model.emptyView(), { action: 'exclude', condition });
  view = model.addFilter(view, { action: 'include', condition });
  equal(view.filters, [{ action: 'include', condition }]);
});

test('a category toggle: off adds a category filter, on removes it; sources alike', () => {
  let view = model.emptyView();
  equal(model.categoryShown(view, 'debug'), true);
  view = model.setCategoryShown(view, 'debug', false);
  equal(view.filters, [{ action: 'exclude', condition: { category: 'debug' } }]);
  equal(model.categoryShown(view, 'debug'), false);
  view = model.setCategoryShown(view, 'debug', false);
  equal(view.filters.length, 1);
  view = model.setCategoryShown(view, 'debug', true);
  equal(view.filters, []);
  view = model.setSourceShown(view, 'nginx', false);
  equal([model.sourceShown(view, 'nginx'), model.sourceShown(view, 'app')], [false, true]);
  equal(model.viewQuery(view), '?exclude=source%3Anginx');
});

test('views are values: changing one leaves the other', () => {
  const a = model.emptyView();
  const b = model.addFilter(a, { mode: 'tag', value: 'x' });
  equal(a.filters, []);
  equal(b.filters.length, 1);
});

// MARK: the fields tree

test('nested fields become rows, parents first, with typed values and config paths', () => {
  const rows = model.fieldRows({ level: 'ERROR', http: { status: 503, ok: false }, tags: ['a', null], 'a.b': 1 });
  equal(rows.map((r) => [r.depth, r.path, r.kind, r.text]), [
    [0, 'level', 'string', 'ERROR'],
    [0, 'http', 'object', '{2}'],
    [1, 'http.status', 'number', '503'],
    [1, 'http.ok', 'boolean', 'false'],
    [0, 'tags', 'array', '[2]'],
    [1, 'tags.0', 'string', 'a'],
    [1, 'tags.1', 'null', 'null'],
    [0, 'a\\.b', 'number', '1'],
  ]);
});

test('a click on a value makes the condition the config would write', () => {
  const rows = model.fieldRows({ http: { status: 503 }, user: { id: 7 }, big: 1e400, 'x\\y': 'z' });
  equal(model.fieldCondition(rows[1]), { field: 'http.status', equals: 503 });
  equal(model.fieldCondition(rows[2]), { field: 'user', exists: true });
  equal(model.fieldCondition(rows[4]), { field: 'big', exists: true });
  equal(model.fieldCondition(rows[5]), { field: 'x\\\\y', equals: 'z' });
});

// MARK: text

test('control characters become visible pictures; tabs and newlines stay', () => {
  equal(model.displayText('\u001b[31mred\u001b[0m\tok\nnext\u0000\u007f').text, '^[[31mred^[[0m\tok\nnext^@^?');
});

test('long text is cut and the rest counted', () => {
  const shown = model.displayText('x'.repeat(5000), 100);
  equal(shown.text.length, 100);
  equal(shown.hidden, 4900);
  equal(model.displayText(undefined), { text: '', hidden: 0 });
});

test('markup is only text to displayText', () => {
  equal(model.displayText('<img src=x onerror=alert(1)>').text, '<img src=x onerror=alert(1)>');
});

test('short times of ISO timestamps; other forms as they came', () => {
  equal(model.shortTime('2026-11-20T10:00:01.123Z'), '10:00:01.123');
  equal(model.shortTime('2026-11-20 10:00:01,5'), '10:00:01,5');
  equal(model.shortTime('Nov 20 10:00:01'), 'Nov 20 10:00:01');
  equal(model.shortTime(null), '');
});

test('sizes and durations as people read them', () => {
  equal(model.humanBytes(512), '512 B');
  equal(model.humanBytes(1536), '1.5 KiB');
  equal(model.humanBytes(5 * 1024 * 1024 * 1024), '5.0 GiB');
  equal(model.humanDuration(59), '59s');
  equal(model.humanDuration(61), '1m 1s');
  equal(model.humanDuration(3 * 86400 + 4 * 3600 + 5), '3d 4h');
});

// MARK: following the tail, batching

test('at the bottom within the slack only', () => {
  equal(model.atBottom(900, 100, 1000), true);
  equal(model.atBottom(880, 100, 1000), true);
  equal(model.atBottom(800, 100, 1000), false);
});

test('rows arriving in one frame are delivered together, once', () => {
  const frames = [];
  const delivered = [];
  const batcher = new model.FrameBatcher(10, (f) => frames.push(f), (items, dropped) => delivered.push({ items, dropped }));
  for (let i = 0; i < 5; i += 1) batcher.push(i);
  equal(frames.length, 1, 'frames scheduled');
  equal(delivered.length, 0, 'nothing before the frame');
  frames.shift()();
  equal(delivered, [{ items: [0, 1, 2, 3, 4], dropped: 0 }]);
  batcher.push(5);
  equal(frames.length, 1, 'a new frame for new rows');
  frames.shift()();
  equal(delivered[1], { items: [5], dropped: 0 });
});

test('a burst larger than the page keeps is cut to the newest before any DOM work', () => {
  const frames = [];
  let delivered = null;
  const batcher = new model.FrameBatcher(100, (f) => frames.push(f), (items, dropped) => { delivered = { items, dropped }; });
  for (let i = 0; i < 10000; i += 1) batcher.push(i);
  if (batcher.pending.length > 200) throw new Error(`pending grew to ${batcher.pending.length}`);
  frames.shift()();
  equal(delivered.items.length, 100);
  equal(delivered.items[0], 9900);
  equal(delivered.dropped, 9900);
});

test('the next frame runs once, by the frame or by the fallback timer, whichever comes first', () => {
  const frames = [], timers = [];
  const host = { requestAnimationFrame: (f) => frames.push(f), setTimeout: (f, ms) => timers.push({ f, ms }) };
  let runs = 0;
  model.nextFrame(host, 100)(() => { runs += 1; });
  equal(timers[0].ms, 100);
  frames[0]();
  timers[0].f();
  equal(runs, 1, 'frame first');
  model.nextFrame(host, 100)(() => { runs += 1; });
  timers[1].f();
  frames[1]();
  equal(runs, 2, 'timer first (a tab in the background)');
});

test('rows dropped so that the page keeps its limit', () => {
  equal(model.rowsToDrop(2990, 20, 3000), 10);
  equal(model.rowsToDrop(10, 20, 3000), 0);
});

test('category counts from /api/info', () => {
  equal(model.categoryCounts({ categories: [{ name: 'error', count: 3 }, { name: 'info' }] }), { error: 3, info: 0 });
  equal(model.categoryCounts(null), {});
});

// MARK: Spotlight's sequence, with a spy renderer

class SpyRenderer {
  constructor() { this.shown = []; this.hideCount = 0; this.last = null; }
  show(view) { this.shown.push(view.step.key); this.last = view; }
  hide() { this.hideCount += 1; }
}

class MemoryStorage {
  constructor() { this.map = new Map(); }
  getItem(key) { return this.map.has(key) ? this.map.get(key) : null; }
  setItem(key, value) { this.map.set(key, String(value)); }
}

const steps = [{ key: 'a', title: 'A', message: 'a' }, { key: 'b', title: 'B', message: 'b' }, { key: 'c', title: 'C', message: 'c' }];

test('the tour walks every step, then hides and is remembered', () => {
  const spy = new SpyRenderer(), storage = new MemoryStorage();
  const tour = new Spotlight(steps, spy, (key) => ({ key }), storage);
  equal(tour.start(), true);
  spy.last.next();
  spy.last.next();
  equal(spy.shown, ['a', 'b', 'c']);
  equal(spy.last.index, 2);
  equal(spy.last.count, 3);
  spy.last.next();
  equal(spy.hideCount, 1);
  equal(tour.running, false);
  equal(storage.getItem(TOUR_DONE_KEY), '1');
  equal(new Spotlight(steps, new SpyRenderer(), () => ({}), storage).start(), false, 'second visit');
  equal(new Spotlight(steps, new SpyRenderer(), () => ({}), storage).start(true), true, 'asked for again');
});

test('skip ends the tour at once and is remembered', () => {
  const spy = new SpyRenderer(), storage = new MemoryStorage();
  const tour = new Spotlight(steps, spy, () => ({}), storage);
  tour.start();
  spy.last.skip();
  equal(spy.shown, ['a']);
  equal(spy.hideCount, 1);
  equal(tour.done, true);
});

test('back returns a step; not before the first', () => {
  const spy = new SpyRenderer();
  const tour = new Spotlight(steps, spy, () => ({}), new MemoryStorage());
  tour.start();
  spy.last.back();
  spy.last.next();
  spy.last.back();
  equal(spy.shown, ['a', 'b', 'a']);
});

test('a step whose element is missing is passed over in the direction of travel', () => {
  const spy = new SpyRenderer();
  const tour = new Spotlight(steps, spy, (key) => (key === 'b' ? null : {}), new MemoryStorage());
  tour.start();
  spy.last.next();
  equal(spy.shown, ['a', 'c']);
  spy.last.back();
  equal(spy.shown, ['a', 'c', 'a']);
});

test('a tour none of whose elements exist ends at once', () => {
  const spy = new SpyRenderer();
  const tour = new Spotlight(steps, spy, () => null, new MemoryStorage());
  tour.start();
  equal(spy.shown, []);
  equal(tour.running, false);
  equal(tour.done, true);
});

// MARK: the runner

const results = document.querySelector('[data-test-results]');
let failed = 0;
for (const { name, body } of tests) {
  const item = document.createElement('li');
  try {
    body();
    item.textContent = `ok: ${name}`;
    item.dataset.result = 'pass';
  } catch (error) {
    failed += 1;
    item.textContent = `FAILED: ${name}: ${error.message}`;
    item.dataset.result = 'fail';
  }
  results.append(item);
}
const summary = document.querySelector('[data-test-summary]');
summary.textContent = `${tests.length - failed} of ${tests.length} passed`;
summary.dataset.passed = String(tests.length - failed);
summary.dataset.failed = String(failed);
summary.dataset.done = 'true';
