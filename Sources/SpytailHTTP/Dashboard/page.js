// The dashboard's shared pieces: its state (`app`), the frame batcher that hands rows to entries.js, DOM helpers
// and limits. Every other module of the page imports from here.
import * as model from './model.js';
import { deliver } from './entries.js';

/// Rows kept in the page; older ones leave the view (they stay in /api/entries' history).
export const MAX_ROWS = 3000;
/// Entries loaded when the page opens or the view changes.
export const HISTORY = 1000;
export const INFO_EVERY_MS = 2000;

export const $ = (selector, root = document) => root.querySelector(selector);
export const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

export const app = {
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
  // A view-only pause: rows held meanwhile (at most MAX_ROWS), how many arrived, how many were dropped.
  paused: false,
  held: [],
  heldNew: 0,
  heldDropped: 0,
  // History (explore) only: the next page's `after=`, and the histogram shown.
  next: null,
  histogram: null,
};

export const batcher = new model.FrameBatcher(MAX_ROWS, model.nextFrame(window), deliver);
