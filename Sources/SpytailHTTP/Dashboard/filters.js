// Filters and categories: the active filters' chips, the category and source toggles with their counts, the
// filter form's suggestions and errors.
import * as model from './model.js';
import { $, app, el } from './page.js';
import { glyph, setView } from './entries.js';
import { names } from './drawer.js';

export function renderFilters() {
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
export function toggleRow(toggle, name, shown, change, ...parts) {
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

export function renderCategories() {
  $('[data-category-list]').replaceChildren(...[...app.categories.values()].map((category) => {
    const count = el('span', 'count', String(category.count || 0));
    count.dataset.categoryCount = category.name;
    // The glyph alone: the name follows it (the gap category's display, "⚠️ gap", read "⚠️ gap gap").
    const only = model.glyphOnly(category.display, category.name);
    const mark = only ? glyph({ ...category, display: only }, category.name, 'category-glyph') : el('span', 'category-glyph');
    return toggleRow('categoryToggle', category.name, model.categoryShown(app.view, category.name),
      (shown) => setView(model.setCategoryShown(app.view, category.name, shown)), mark, el('span', 'name', category.name), count);
  }));
}

/// The sources menu: one toggle per source of the config (shown when there are two or more).
export function renderSources() {
  $('[data-sources-menu]').hidden = app.sources.length < 2;
  $('[data-source-list]').replaceChildren(...app.sources.map((source) => toggleRow('sourceToggle', source.name,
    model.sourceShown(app.view, source.name), (shown) => setView(model.setSourceShown(app.view, source.name, shown)),
    el('span', 'name', source.name), el('span', 'count', source.parser || ''))));
}

export function updateCategoryCounts() {
  for (const category of app.categories.values()) {
    const node = document.querySelector(`[data-category-count="${CSS.escape(category.name)}"]`);
    if (node) node.textContent = String(category.count || 0);
  }
}

/// The values the add-filter form suggests for its mode: category, tag and integration names.
export function suggestValues() {
  const mode = $('[data-filter-mode]').value;
  const info = app.info || {};
  const names = mode === 'category' ? (info.categories || []).map((c) => c.name)
    : mode === 'tag' ? (info.tags || []).map((t) => t.name)
      : mode === 'integration' ? (info.integrations || []).map((i) => i.name)
        : mode === 'source' ? (info.sources || []).map((s) => s.name) : [];
  $('[data-filter-value]').placeholder = mode === 'json' ? '{"field": "http.status", "gte": 500}' : 'value';
  $('[data-filter-values]').replaceChildren(...names.map((name) => { const o = el('option'); o.value = name; return o; }));
}

export function showFilterError(text) {
  const node = $('[data-filter-error]');
  node.textContent = text;
  node.hidden = text === '';
}
