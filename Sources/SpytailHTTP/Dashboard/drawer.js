// The drawer: state, reload, build, files, outputs and problems, from /api/info every few seconds.
import * as model from './model.js';
import { $, app, el } from './page.js';
import { setConnection } from './entries.js';
import { renderCategories, renderSources, updateCategoryCounts } from './filters.js';

export async function refreshInfo() {
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
  showState(info.mode === 'history' ? 'history' : info.state);
  renderDrawer(info);
}

export function names(info) {
  return [(info.categories || []).map((c) => c.name), (info.tags || []).map((t) => t.name), (info.sources || []).map((s) => s.name)];
}

export function showState(state) {
  const badge = $('[data-state-badge]');
  badge.textContent = state;
  badge.dataset.state = state;
  for (const button of document.querySelectorAll('[data-set-state]')) {
    button.setAttribute('aria-pressed', String(button.dataset.setState === state));
  }
}

export function renderDrawer(info) {
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
    if (info.mode === 'history') {  // explore: what each file gave the index
      tr.append(el('td', 'path', file.path), el('td', 'num', model.humanBytes(file.bytes)),
        el('td', 'num', String(file.entries)), el('td', 'status', 'indexed'));
    } else {
      tr.append(el('td', 'path', file.path), el('td', 'num', model.humanBytes(file.offset)),
        el('td', 'num', model.humanBytes(file.behind)), el('td', `status s-${file.status}`, file.status));
    }
    return tr;
  }));
  $('[data-outputs]').replaceChildren(...(info.outputs || []).map((out) => el('li', '', `${out.name}: ${out.records} records`)));
  const problems = info.problems || [];
  $('[data-problems]').replaceChildren(...(problems.length ? problems.map((p) => el('li', '', p)) : [el('li', 'none', 'none')]));
}

export async function post(path, body) {
  const reply = await fetch(path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${app.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return reply;
}

export async function setState(state) {
  const hint = $('[data-state-hint]');
  hint.textContent = `asking for ${state}…`;
  const reply = await post('/api/state', { state });
  const answer = await reply.json().catch(() => ({}));
  hint.textContent = reply.ok ? `state: ${answer.state}${answer.state !== state ? ` (asked for ${state}; applied at the next batch)` : ''}`
    : `refused: ${answer.error || reply.status}`;
  if (answer.state) showState(answer.state);
}

export async function reloadConfig() {
  const result = $('[data-reload-result]');
  result.textContent = 'reload requested…';
  const reply = await post('/api/reload');
  result.textContent = reply.ok ? 'reload requested: the drawer shows the outcome under "Last problems" if it was refused' : `refused: ${reply.status}`;
  setTimeout(refreshInfo, 500);
}

export function openDrawer(open) {
  const drawer = $('[data-drawer]');
  drawer.hidden = !open;
  $('[data-open-drawer]').setAttribute('aria-expanded', String(open));
  if (open) { refreshInfo(); $('[data-close-drawer]').focus(); } else { $('[data-open-drawer]').focus(); }
}
