/**
 * The one way the panel makes DOM: elements, attributes from a short allow-list, and text through textContent.
 * Nothing here parses HTML, so workspace text (code, docs, answers) can only ever become text.
 */
type Child = Node | string | number | false | null | undefined;

const ALLOWED_ATTRS = new Set(['class', 'title', 'role', 'tabindex', 'aria-label', 'aria-expanded', 'aria-live', 'aria-hidden', 'data-path', 'data-line',
  'data-testid', 'data-n', 'data-ref', 'open', 'appearance', 'icon', 'placeholder', 'rows', 'resize', 'heading', 'checked', 'disabled', 'secondary',
  'viewBox', 'width', 'height', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'd', 'text-anchor', 'marker-end', 'id', 'refX', 'refY',
  'markerWidth', 'markerHeight', 'orient', 'points', 'href', 'lang']);

export function h(tag: string, attrs: Record<string, string | number | boolean | undefined> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag: string, attrs: Record<string, string | number | boolean | undefined> = {}, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el: Element, attrs: Record<string, string | number | boolean | undefined>): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    // Event handler attributes and anything unexpected never reach the DOM; href is only ever set to '#'.
    if (!ALLOWED_ATTRS.has(k) || (k === 'href' && v !== '#')) throw new Error(`attribute ${k} is not allowed`);
    el.setAttribute(k, v === true ? '' : String(v));
  }
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

export function icon(name: string): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}

/** A link-looking button that runs `action` on click and Enter (keyboard use without href targets). */
export function actionLink(label: Child, title: string, action: () => void, attrs: Record<string, string | undefined> = {}): HTMLElement {
  const a = h('a', { href: '#', title, class: `action ${attrs.class ?? ''}`.trim(), ...withoutClass(attrs) }, label);
  a.addEventListener('click', (e) => {
    e.preventDefault();
    action();
  });
  return a;
}

function withoutClass(attrs: Record<string, string | undefined>): Record<string, string | undefined> {
  const { class: _ignored, ...rest } = attrs;
  return rest;
}
