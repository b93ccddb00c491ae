import { h, icon } from '../dom';

/** A result card: title bar with an icon, then the body. */
export function card(kind: string, iconName: string, title: string, ...body: Array<Node | null>): HTMLElement {
  return h('section', { class: `card ${kind}`, 'data-testid': `${kind}-card` },
    h('header', { class: 'card-title' }, icon(iconName), h('span', { class: 'card-title-text', title }, title)), ...body);
}

export function refLabel(refId: string, kind: string, summary: string): HTMLElement {
  return h('span', { class: 'node-label' }, h('span', { class: 'ref-id', title: refId }, refId), kind ? h('span', { class: 'kind' }, ` ${kind}`) : null,
    summary ? h('span', { class: 'summary' }, ` — ${summary}`) : null);
}

/** The engine's own figures (sizes, fingerprints, cache state), collapsed: the plain-words summary is above it. */
export function details(rows: Array<[string, string]>): HTMLElement {
  return h('vscode-collapsible', { heading: 'Details', class: 'details', 'data-testid': 'details' },
    h('dl', {}, ...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])));
}
