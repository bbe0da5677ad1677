// The detail of one entry: its message, source, id and fields as a tree, with + / − beside a value to show only
// or hide the entries with it.
import * as model from './model.js';
import { $, app, el } from './page.js';
import { apiQuery, appendParts, errorText, setView } from './entries.js';
import { isHistory, showContext } from './history.js';

export function openDetail(row) {
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
  const message = model.messageParts(record.message, 65536, app.view.query || '');
  const detail = model.messageParts(record.detail || '', 65536);
  const hidden = message.hidden + detail.hidden;
  const box = $('[data-detail-text]');
  box.replaceChildren();
  appendParts(box, message.parts);
  if (detail.parts.length > 0) { box.append('\n'); appendParts(box, detail.parts); }
  if (hidden > 0) box.append(`\n… ${hidden} more characters (the record in /api/entries has them all)`);
  const context = $('[data-context]');
  context.replaceChildren();
  const button = $('[data-show-context]');
  button.hidden = !isHistory();
  button.onclick = () => showContext(record, context);
  const panel = $('[data-detail]');
  panel.hidden = false;
  $('[data-close-detail]').focus();
}

/// + (show only) and − (hide) for a condition, as the detail offers them beside a value.
export function picks(condition, what) {
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
export function renderFieldTree(fields) {
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
    if (isHistory() && row.kind !== 'object' && row.kind !== 'array') item.append(topButton(row.path));
    return item;
  }));
  $('[data-top-values]').replaceChildren();
}

/// History only: a field's most common values in the view (a sample of it), each with + and −.
function topButton(path) {
  const button = el('button', 'pick', 'top');
  button.type = 'button';
  button.dataset.topValues = path;
  button.title = `The most common values of ${path} in this view`;
  button.addEventListener('click', async () => {
    const list = $('[data-top-values]');
    const reply = await fetch(`/api/facets${apiQuery(model.viewQuery(app.view), `field=${encodeURIComponent(path)}`)}`, { cache: 'no-store' });
    if (!reply.ok) { list.replaceChildren(el('li', 'none', await errorText(reply))); return; }
    const field = (await reply.json()).field;
    const head = el('li', 'top-title', `${path}: top values in ${field.sampled.toLocaleString('en')} entries`
      + (field.missing > 0 ? ` (${field.missing.toLocaleString('en')} without it)` : ''));
    list.replaceChildren(head, ...field.values.map((v) => {
      const item = el('li');
      item.dataset.topValue = v.value;
      const share = field.sampled > 0 ? Math.round(v.count / field.sampled * 100) : 0;
      item.append(el('span', 'value', model.displayText(v.value, 200).text), el('span', 'count', `${v.count.toLocaleString('en')} · ${share} %`),
        picks({ field: path, equals: model.typedValue(v.value) }, `${path} = ${v.value}`));
      return item;
    }));
  });
  return button;
}

export function closeDetail() {
  $('[data-detail]').hidden = true;
  if (app.selected) { app.selected.focus(); }
}

export async function copyText(text, button) {
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
