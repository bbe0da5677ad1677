// The dashboard's logic that is not layout: view filters, their labels and their place in the URL, how a
// message is made safe to show, and the per-frame batching of arriving rows. No DOM here; tests.js runs it.
// Matching itself is the server's (the config's own code): filters only travel to /api/entries and /api/stream.

/// The modes a filter is written in as `MODE:VALUE` (in the form and in the URL); any other condition is the
/// config's JSON (`{"field": "http.status", "gte": 500}`).
export const MODES = ['contains', 'prefix', 'tag', 'category', 'integration', 'source'];

const FIELD_TESTS = { equals: '=', in: 'in', contains: 'contains', prefix: 'starts with', regex: 'matches', gt: '>', gte: '≥', lt: '<', lte: '≤' };

/// A filter: a condition (the config's grammar) and whether the view hides what it matches (`exclude`) or
/// shows only that (`include`). `{mode, value}` is the seed's short form of an exclusion.
export function makeFilter(filter) {
  if (filter && filter.condition) return { action: filter.action === 'include' ? 'include' : 'exclude', condition: filter.condition };
  if (filter && MODES.includes(filter.mode)) {
    return { action: filter.action === 'include' ? 'include' : 'exclude', condition: { [filter.mode]: filter.value } };
  }
  return null;
}

/// The condition as the URL holds it: `MODE:VALUE` when it is one of those, its JSON otherwise.
export function conditionText(condition) {
  const keys = Object.keys(condition);
  if (keys.length === 1 && MODES.includes(keys[0]) && typeof condition[keys[0]] === 'string') return `${keys[0]}:${condition[keys[0]]}`;
  return JSON.stringify(condition);
}

/// A URL's or the form's condition text back to a condition; null when it is neither form.
export function parseCondition(text) {
  if (typeof text !== 'string') return null;
  if (text.trim().startsWith('{')) {
    try {
      const value = JSON.parse(text);
      return value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0 ? value : null;
    } catch { return null; }
  }
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  const mode = text.slice(0, colon), value = text.slice(colon + 1);
  return MODES.includes(mode) && value !== '' ? { [mode]: value } : null;
}

/// A condition in words: the seed's labels for its modes, `http.status ≥ 500` for a field.
export function describeCondition(c) {
  if (!c || typeof c !== 'object') return String(c);
  if ('contains' in c) return `Message contains "${c.contains}"`;
  if ('prefix' in c) return `Message starts with "${c.prefix}"`;
  if ('regex' in c && !('field' in c)) return `Message matches /${c.regex}/`;
  if ('tag' in c) return `Tag is ${c.tag}`;
  if ('category' in c) return `Category is ${c.category}`;
  if ('integration' in c) return `Ignorable prefixes of ${c.integration}`;
  if ('source' in c) return `Source is ${c.source}`;
  if ('field' in c) {
    if ('exists' in c) return `${c.field} ${c.exists ? 'exists' : 'is absent'}`;
    const tests = Object.keys(FIELD_TESTS).filter((k) => k in c);
    return tests.map((k) => `${c.field} ${FIELD_TESTS[k]} ${JSON.stringify(c[k])}`).join(' and ') || JSON.stringify(c);
  }
  if (Array.isArray(c.all)) return c.all.map(describeCondition).join(' and ');
  if (Array.isArray(c.any)) return `(${c.any.map(describeCondition).join(' or ')})`;
  if ('not' in c) return `not (${describeCondition(c.not)})`;
  return JSON.stringify(c);
}

/// A filter's chip label: an exclusion is described as its condition (the chips list what the view hides),
/// an inclusion starts with "Only".
export function filterLabel(filter) {
  const f = makeFilter(filter);
  if (!f) return String(filter);
  const text = describeCondition(f.condition);
  return f.action === 'include' ? `Only: ${text}` : text;
}

/// A view: the filters (in the order they were added), the search text, and (history only) a time window:
/// `from` and `to` in milliseconds since 1970, `to` exclusive, null for open.
export function emptyView() { return { filters: [], query: '', from: null, to: null }; }

/// The view a URL's query holds: `include=` and `exclude=` (repeated; `MODE:VALUE` or a JSON condition) and
/// `q=TEXT`. What is neither form is kept out and listed in `ignored`, so a bad bookmark says what it dropped
/// (the server judges the rest: an unknown category, a bad field test).
export function parseView(search) {
  const params = new URLSearchParams(search);
  const view = emptyView();
  view.ignored = [];
  for (const [name, text] of params) {
    if (name !== 'include' && name !== 'exclude') continue;
    const condition = parseCondition(text);
    if (condition) {
      const filter = { action: name, condition };
      if (!hasFilter(view, filter)) view.filters.push(filter);
    } else {
      view.ignored.push(text);
    }
  }
  view.query = params.get('q') || '';
  for (const bound of ['from', 'to']) {
    const text = params.get(bound);
    if (text === null) continue;
    if (/^\d{1,15}$/.test(text)) view[bound] = Number(text); else view.ignored.push(`${bound}=${text}`);
  }
  return view;
}

/// The query string of a view (`?exclude=…&include=…&q=…`, or '' for the empty view): for the URL and the API.
export function viewQuery(view) {
  const params = new URLSearchParams();
  for (const f of view.filters) params.append(f.action, conditionText(f.condition));
  if (view.query) params.set('q', view.query);
  if (view.from !== null && view.from !== undefined) params.set('from', String(view.from));
  if (view.to !== null && view.to !== undefined) params.set('to', String(view.to));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function sameFilter(a, b) {
  return a.action === b.action && conditionText(a.condition) === conditionText(b.condition);
}

export function hasFilter(view, filter) {
  const f = makeFilter(filter);
  return f !== null && view.filters.some((g) => sameFilter(g, f));
}

/// A new view with `filter` added at the end (unchanged when it is there already, empty or not a filter).
/// The same condition with the other action replaces it: a value cannot be both hidden and the only one shown.
export function addFilter(view, filter) {
  const f = makeFilter(filter);
  if (f === null || f.condition[Object.keys(f.condition)[0]] === '' || hasFilter(view, f)) return view;
  const others = view.filters.filter((g) => conditionText(g.condition) !== conditionText(f.condition));
  return { ...view, filters: [...others, f] };
}

export function removeFilter(view, filter) {
  const f = makeFilter(filter);
  return f === null ? view : { ...view, filters: view.filters.filter((g) => !sameFilter(g, f)) };
}

/// The seed's binding of a category toggle: off adds a `category` exclusion, on removes it.
export function setCategoryShown(view, name, shown) {
  const filter = { mode: 'category', value: name };
  return shown ? removeFilter(view, filter) : addFilter(view, filter);
}

export function categoryShown(view, name) { return !hasFilter(view, { mode: 'category', value: name }); }

/// Sources toggle like categories.
export function setSourceShown(view, name, shown) {
  const filter = { mode: 'source', value: name };
  return shown ? removeFilter(view, filter) : addFilter(view, filter);
}

export function sourceShown(view, name) { return !hasFilter(view, { mode: 'source', value: name }); }

export function withQuery(view, query) { return { ...view, query }; }

/// The view over another time window (null, null: all of the history).
export function withWindow(view, from, to) { return { ...view, from, to }; }

// MARK: the history's histogram

/// The columns of a histogram answer (`/api/histogram`): each bucket's time span, total and its categories'
/// counts, largest stack first in the order of the config's categories (bottom to top).
export function histogramColumns(histogram) {
  const names = histogram.categories || [];
  return (histogram.counts || []).map((row, i) => {
    const start = histogram.start + i * histogram.width;
    const segments = row.map((count, k) => ({ category: names[k], count })).filter((s) => s.count > 0);
    return { start, end: start + histogram.width, total: row.reduce((a, b) => a + b, 0), segments };
  });
}

/// A top value as the API writes it (text), back to what a condition compares: a number or a boolean when it
/// reads as one, else the text.
export function typedValue(text) {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/// A category's colour in the histogram: the config's, else one by its usual meaning (error red, warning
/// yellow, debug dim, gap magenta), else one of a few others by its place in the config's list.
export function categoryColor(label, index) {
  if (label && label.color) return label.color;
  const usual = { error: 'red', fatal: 'red', critical: 'red', warning: 'yellow', warn: 'yellow', debug: 'dim', trace: 'dim', gap: 'magenta' };
  const name = label && label.name ? String(label.name).toLowerCase() : '';
  if (usual[name]) return usual[name];
  return ['blue', 'cyan', 'green'][index % 3];
}

/// The window a drag from x0 to x1 (pixels, either direction) over a histogram `width` pixels wide selects:
/// whole buckets, at least one. null when the histogram has no buckets.
export function dragWindow(histogram, x0, x1, width) {
  const n = (histogram.counts || []).length;
  if (n === 0 || width <= 0) return null;
  const bucket = (x) => Math.min(n - 1, Math.max(0, Math.floor(x / width * n)));
  const [a, b] = [bucket(Math.min(x0, x1)), bucket(Math.max(x0, x1))];
  return { from: histogram.start + a * histogram.width, to: histogram.start + (b + 1) * histogram.width };
}

/// A window in words, UTC: `2026-11-20 10:03:00 – 10:05:00`, the date once when both ends share it.
export function windowText(from, to) {
  if (from === null && to === null) return 'all of the history';
  const iso = (ms) => new Date(ms).toISOString().replace('T', ' ').replace(/\.000Z$|Z$/, '');
  if (from === null) return `until ${iso(to)}`;
  if (to === null) return `from ${iso(from)}`;
  const [a, b] = [iso(from), iso(to)];
  return a.slice(0, 10) === b.slice(0, 10) ? `${a} – ${b.slice(11)}` : `${a} – ${b}`;
}

/// A bucket width in words (1 ms … 1 year).
export function widthText(ms) {
  const units = [[31536000000, 'y'], [604800000, 'w'], [86400000, 'd'], [3600000, 'h'], [60000, 'min'], [1000, 's'], [1, 'ms']];
  for (const [size, unit] of units) if (ms >= size && ms % size === 0) return `${ms / size} ${unit}`;
  return `${ms} ms`;
}

// MARK: a record's fields as a tree

/// The kind of a JSON value as the tree shows it.
export function kindOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/// A field path as the config writes it: components joined by dots, a dot or backslash inside a key escaped
/// with a backslash (`labels.app\.kubernetes\.io/name`); an array element by its index (`tags.0`).
export function fieldPath(components) {
  return components.map((c) => String(c).replace(/[\\.]/g, (m) => `\\${m}`)).join('.');
}

/// The rows of the tree of `fields` (a record's `fields` object), parents before their children: each with
/// its depth, key, path, kind, and the text shown for a value (strings as they are, other scalars as JSON;
/// objects and arrays by their size).
export function fieldRows(fields, path = [], depth = 0, rows = []) {
  const entries = Array.isArray(fields) ? fields.map((v, i) => [i, v]) : Object.entries(fields || {});
  for (const [key, value] of entries) {
    const components = [...path, key];
    const kind = kindOf(value);
    const text = kind === 'object' ? `{${Object.keys(value).length}}` : kind === 'array' ? `[${value.length}]`
      : kind === 'string' ? value : JSON.stringify(value);
    rows.push({ depth, key: String(key), path: fieldPath(components), kind, value, text });
    if (kind === 'object' || kind === 'array') fieldRows(value, components, depth + 1, rows);
  }
  return rows;
}

/// The condition a click on a tree row adds: the value itself for a scalar, the field's presence for an
/// object or array.
export function fieldCondition(row) {
  // An object, an array, or a number JavaScript cannot hold (1e400): tested by its presence.
  if (row.kind === 'object' || row.kind === 'array' || (row.kind === 'number' && !Number.isFinite(row.value))) {
    return { field: row.path, exists: true };
  }
  return { field: row.path, equals: row.value };
}

/// Text as shown: C0 controls other than tab and newline (ANSI escapes, bells, NULs) become their visible
/// Control Pictures (ESC → ␛), so a message can neither hide text nor move the cursor; `limit` characters at most,
/// the rest counted.
export function displayText(text, limit = 2000) {
  if (typeof text !== 'string') return { text: '', hidden: 0 };
  const shown = text.length > limit ? text.slice(0, limit) : text;
  return { text: shown.replace(CONTROL, caret), hidden: text.length - shown.length };
}

// Control characters but tab and newline: shown in caret notation (ESC is ^[, BEL ^G, DEL ^?), as `cat -v`
// and less write them; every font has those characters (the ␛ and ␇ symbols are missing from stock fonts).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
function caret(c) {
  const code = c.charCodeAt(0);
  return code === 0x7f ? '^?' : `^${String.fromCharCode(code + 0x40)}`;
}

/// A message as a row or the detail shows it, in parts: `text`, `control` (a control character in caret
/// notation, styled apart so it is not taken for the two characters) and `match` (what the search text
/// matched, smart case: a query without capitals matches any case). At most `limit` characters of `text`.
export function messageParts(text, limit = 2000, query = '') {
  if (typeof text !== 'string') return { parts: [], hidden: 0 };
  const shown = text.length > limit ? text.slice(0, limit) : text;
  const matched = new Uint8Array(shown.length);
  if (query) {
    const anyCase = query === query.toLowerCase();
    const haystack = anyCase ? shown.toLowerCase() : shown;
    for (let at = haystack.indexOf(query); at >= 0; at = haystack.indexOf(query, at + query.length)) matched.fill(1, at, at + query.length);
  }
  const parts = [];
  const push = (kind, piece) => {
    const last = parts[parts.length - 1];
    if (last && last.kind === kind && kind !== 'control') last.text += piece; else parts.push({ kind, text: piece });
  };
  for (let i = 0; i < shown.length; i++) {
    const c = shown[i];
    CONTROL.lastIndex = 0;
    if (CONTROL.test(c)) push('control', caret(c)); else push(matched[i] ? 'match' : 'text', c);
  }
  return { parts, hidden: text.length - shown.length };
}

/// A row's time column: the date as `MM-DD` and the clock `HH:MM:SS.mmm` of an ISO 8601 timestamp (the date
/// goes at phone width), or the text as it came; '—' when the entry has none (a gap record).
export function rowTime(timestamp) {
  if (typeof timestamp !== 'string') return { date: '', clock: '—' };
  const m = /^\d{4}-(\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2}(?:[.,]\d{1,3})?)/.exec(timestamp);
  return m ? { date: m[1], clock: m[2] } : { date: '', clock: timestamp.slice(0, 32) };
}

/// A category's glyph without its name (the gap category's display is "⚠️ gap": a menu that shows the name
/// beside it said "⚠️ gap gap"); '' when the display is only the name.
export function glyphOnly(display, name) {
  if (typeof display !== 'string' || display === name) return '';
  return display.split(/\s+/).filter((word) => word !== name).join(' ');
}

/// A histogram of the rows the page holds (the live view's): the same shape as `/api/histogram`'s answer,
/// round bucket widths, at most `maxBuckets`. Rows without a readable time are not counted.
export function rowsHistogram(records, categories, maxBuckets = 60) {
  const times = records.map((r) => Date.parse(r.timestamp)).filter((t) => !Number.isNaN(t));
  if (times.length === 0) return { start: 0, width: 1000, categories, counts: [] };
  const low = Math.min(...times), high = Math.max(...times) + 1;
  const wanted = Math.ceil((high - low) / maxBuckets);
  const width = WIDTHS.find((w) => w >= wanted) || WIDTHS[WIDTHS.length - 1];
  const start = Math.floor(low / width) * width;
  const counts = Array.from({ length: Math.floor((high - 1 - start) / width) + 1 }, () => categories.map(() => 0));
  for (const r of records) {
    const t = Date.parse(r.timestamp);
    const k = categories.indexOf(r.category);
    if (!Number.isNaN(t) && k >= 0) counts[Math.floor((t - start) / width)][k] += 1;
  }
  return { start, width, categories, counts };
}

const WIDTHS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000,
  1800000, 3600000, 7200000, 10800000, 21600000, 43200000, 86400000];

/// `HH:MM:SS.mmm` of an ISO 8601 timestamp, or the text as it came (up to 32 characters) when it is another form.
export function shortTime(timestamp) {
  if (typeof timestamp !== 'string') return '';
  const m = /^\d{4}-\d{2}-\d{2}[T ](\d{2}:\d{2}:\d{2}(?:[.,]\d{1,3})?)/.exec(timestamp);
  return m ? m[1] : timestamp.slice(0, 32);
}

/// Whether a scrolled box shows its bottom (within `slack` pixels): the view follows the tail only then.
export function atBottom(scrollTop, clientHeight, scrollHeight, slack = 24) {
  return scrollTop + clientHeight >= scrollHeight - slack;
}

/// Collects rows as they arrive and hands them over once per frame (`schedule` is requestAnimationFrame in
/// the page, a hand-driven queue in the tests). Keeps at most `limit` pending: when a burst brings more than the
/// page keeps anyway, the older ones are dropped before they cost a DOM node (`dropped` counts them).
export class FrameBatcher {
  constructor(limit, schedule, deliver) {
    this.limit = limit;
    this.schedule = schedule;
    this.deliver = deliver;
    this.pending = [];
    this.dropped = 0;
    this.scheduled = false;
  }

  push(item) {
    this.pending.push(item);
    if (this.pending.length > 2 * this.limit) this.trim();
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
  }

  trim() {
    const extra = this.pending.length - this.limit;
    if (extra > 0) {
      this.pending.splice(0, extra);
      this.dropped += extra;
    }
  }

  flush() {
    this.scheduled = false;
    this.trim();
    const items = this.pending;
    const dropped = this.dropped;
    this.pending = [];
    this.dropped = 0;
    if (items.length > 0 || dropped > 0) this.deliver(items, dropped);
  }
}

/// Runs a function at the next animation frame, or after `fallbackMs` when no frame comes first (a tab in the
/// background gets no frames at all; its rows still arrive, in larger batches). Once, whichever is first.
export function nextFrame(host, fallbackMs = 100) {
  return (run) => {
    let done = false;
    const once = () => { if (!done) { done = true; run(); } };
    host.requestAnimationFrame(once);
    host.setTimeout(once, fallbackMs);
  };
}

/// How many rows leave the page so that at most `keep` stay after adding `adding`.
export function rowsToDrop(current, adding, keep) {
  return Math.max(0, current + adding - keep);
}

/// Counts per category, from /api/info's categories.
export function categoryCounts(info) {
  const counts = {};
  for (const c of (info && info.categories) || []) counts[c.name] = c.count || 0;
  return counts;
}

/// `1.2 KB`-style sizes for the files table.
export function humanBytes(n) {
  if (!Number.isFinite(n)) return '';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) { value /= 1024; unit += 1; }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/// `3d 4h`, `5m 2s`: uptime as people read it.
export function humanDuration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}
