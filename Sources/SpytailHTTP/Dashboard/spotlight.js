// Spotlight: a first-visit tour. `Spotlight` is the sequence (which step, next, back, skip, remembered per
// browser); how a step looks is a renderer behind one small interface, the seed's FocusOverlay:
//
//   renderer.show({ step, target, index, count, next, back, skip })   // focus `target`, say `step.message`
//   renderer.hide()
//
// `BoxOverlay` is the page's renderer; tests.js swaps in a spy. Nothing in Spotlight touches the DOM but
// `find(key)`, which the page passes in.

export const TOUR_DONE_KEY = 'spytail.tour.v1.done';

export class Spotlight {
  /// steps: [{ key, title, message }]; find(key) → the element or null; storage: localStorage-like.
  constructor(steps, renderer, find, storage) {
    this.steps = steps;
    this.renderer = renderer;
    this.find = find;
    this.storage = storage;
    this.index = -1;
  }

  get done() { return this.storage.getItem(TOUR_DONE_KEY) === '1'; }
  get running() { return this.index >= 0; }

  /// Starts the tour unless this browser finished or skipped it already (`force` starts it anyway).
  start(force = false) {
    if (this.steps.length === 0 || (this.done && !force)) return false;
    this.index = 0;
    this.present(1);
    return true;
  }

  next() { if (this.running) { this.index += 1; this.present(1); } }
  back() { if (this.running && this.index > 0) { this.index -= 1; this.present(-1); } }
  skip() { this.finish(); }

  /// Shows the current step; a step whose element is not on the page (hidden, not rendered) is passed over in
  /// the direction of travel.
  present(direction) {
    while (this.index >= 0 && this.index < this.steps.length) {
      const step = this.steps[this.index];
      const target = this.find(step.key);
      if (target) {
        this.renderer.show({
          step, target, index: this.index, count: this.steps.length,
          next: () => this.next(), back: () => this.back(), skip: () => this.skip(),
        });
        return;
      }
      this.index += direction;
    }
    if (this.index >= this.steps.length) this.finish();
    else { this.index = 0; this.present(1); }
  }

  finish() {
    this.index = -1;
    this.renderer.hide();
    this.storage.setItem(TOUR_DONE_KEY, '1');
  }
}

/// The page's look of a step: the page dimmed around the focused element (one box whose shadow covers the
/// rest) and a bubble with the message and Back / Next / Skip. Esc skips.
export class BoxOverlay {
  constructor(document) {
    this.document = document;
    this.root = null;
    this.onKey = null;
  }

  show(view) {
    this.hide();
    const d = this.document;
    const root = d.createElement('div');
    root.className = 'spotlight';
    root.setAttribute('data-spotlight', String(view.index));
    const rect = view.target.getBoundingClientRect();
    const hole = d.createElement('div');
    hole.className = 'spotlight-hole';
    hole.style.left = `${Math.max(0, rect.left - 6)}px`;
    hole.style.top = `${Math.max(0, rect.top - 6)}px`;
    hole.style.width = `${rect.width + 12}px`;
    hole.style.height = `${rect.height + 12}px`;
    const bubble = d.createElement('div');
    bubble.className = 'spotlight-bubble';
    bubble.setAttribute('role', 'dialog');
    bubble.setAttribute('aria-label', view.step.title);
    const below = rect.bottom + 180 < d.documentElement.clientHeight;
    bubble.style.top = below ? `${rect.bottom + 14}px` : `${Math.max(8, rect.top - 170)}px`;
    bubble.style.left = `${Math.min(Math.max(8, rect.left), Math.max(8, d.documentElement.clientWidth - 340))}px`;
    const title = d.createElement('h2');
    title.textContent = view.step.title;
    const text = d.createElement('p');
    text.textContent = view.step.message;
    const count = d.createElement('p');
    count.className = 'spotlight-count';
    count.textContent = `${view.index + 1} of ${view.count}`;
    const buttons = d.createElement('div');
    buttons.className = 'spotlight-buttons';
    const last = view.index === view.count - 1;
    buttons.append(
      this.button('Skip', 'skip', view.skip),
      this.button('Back', 'back', view.back, view.index === 0),
      this.button(last ? 'Done' : 'Next', 'next', view.next),
    );
    bubble.append(title, text, count, buttons);
    root.append(hole, bubble);
    d.body.append(root);
    this.root = root;
    this.onKey = (event) => { if (event.key === 'Escape') { event.preventDefault(); event.stopPropagation(); view.skip(); } };
    d.addEventListener('keydown', this.onKey, true);
    buttons.lastChild.focus();
  }

  button(label, action, handler, disabled = false) {
    const b = this.document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.disabled = disabled;
    b.setAttribute('data-spotlight-action', action);
    b.addEventListener('click', handler);
    return b;
  }

  hide() {
    if (this.root) this.root.remove();
    if (this.onKey) this.document.removeEventListener('keydown', this.onKey, true);
    this.root = null;
    this.onKey = null;
  }
}
