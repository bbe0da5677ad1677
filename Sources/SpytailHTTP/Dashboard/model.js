// The dashboard's logic that is not layout: view filters, their labels and their place in the URL, how a
// message is made safe to show, and the per-frame batching of arriving rows. No DOM here; tests.js runs it.
// Matching itself is the server's (the config's own code): filters only travel to /api/entries and /api/stream.

export const MODES = ['contains', 'prefix', 'tag', 'category', 'integration'];

/// The seed's labels for an active filter.
export function filterLabel(filter) {
  switch (filter.mode) {
    case 'contains': return `Message contains "${filter.value}"`;
    case 'prefix': return `Message starts with "${filter.value}"`;
    case 'tag': return `Tag is ${filter.value}`;
    case 'category': return `Category is ${filter.value}`;
    case 'integration': return `Ignorable prefixes of ${filter.value}`;
    default: return `${filter.mode}: ${filter.value}`;
  }
}

/// A view: the filters that exclude (in the order they were added) and the search text.
export function emptyView() { return { filters: [], query: '' }; }

/// The view a URL's query holds: `exclude=MODE:VALUE` (repeated) and `q=TEXT`. Unknown modes are kept out and
/// listed in `ignored`, so a bad bookmark says what it dropped.
export function parseView(search) {
  const params = new URLSearchParams(search);
  const view = emptyView();
  view.ignored = [];
  for (const text of params.getAll('exclude')) {
    const colon = text.indexOf(':');
    const filter = colon > 0 ? { mode: text.slice(0, colon), value: text.slice(colon + 1) } : null;
    if (filter && MODES.includes(filter.mode) && filter.value !== '') {
      if (!hasFilter(view, filter)) view.filters.push(filter);
    } else {
      view.ignored.push(text);
    }
  }
  view.query = params.get('q') || '';
  return view;
}

/// The query string of a view (`?exclude=…&q=…`, or '' for the empty view): for the URL and for the API.
export function viewQuery(view) {
  const params = new URLSearchParams();
  for (const f of view.filters) params.append('exclude', `${f.mode}:${f.value}`);
  if (view.query) params.set('q', view.query);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function hasFilter(view, filter) {
  return view.filters.some((f) => f.mode === filter.mode && f.value === filter.value);
}

/// A new view with `filter` added at the end (unchanged when it is there already or empty).
export function addFilter(view, filter) {
  if (!MODES.includes(filter.mode) || filter.value === '' || hasFilter(view, filter)) return view;
  return { ...view, filters: [...view.filters, { mode: filter.mode, value: filter.value }] };
}

export function removeFilter(view, filter) {
  return { ...view, filters: view.filters.filter((f) => !(f.mode === filter.mode && f.value === filter.value)) };
}

/// The seed's binding of a category toggle: off adds a `category` exclusion, on removes it.
export function setCategoryShown(view, name, shown) {
  const filter = { mode: 'category', value: name };
  return shown ? removeFilter(view, filter) : addFilter(view, filter);
}

export function categoryShown(view, name) { return !hasFilter(view, { mode: 'category', value: name }); }

export function withQuery(view, query) { return { ...view, query }; }

/// Text as shown: C0 controls other than tab and newline (ANSI escapes, bells, NULs) become their visible
/// Control Pictures (ESC → ␛), so a message can neither hide text nor move the cursor; `limit` characters at most,
/// the rest counted.
export function displayText(text, limit = 2000) {
  if (typeof text !== 'string') return { text: '', hidden: 0 };
  const shown = text.length > limit ? text.slice(0, limit) : text;
  // eslint-disable-next-line no-control-regex
  const safe = shown.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => (c === '\u007f' ? '\u2421' : String.fromCharCode(0x2400 + c.charCodeAt(0))));
  return { text: safe, hidden: text.length - shown.length };
}

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
