import { h, icon } from '../dom';

/** A result card: title bar with an icon, then the body. */
export function card(kind: string, iconName: string, title: string, ...body: Array<Node | null>): HTMLElement {
  return h('section', { class: `card ${kind}`, 'data-testid': `${kind}-card` },
    h('header', { class: 'card-title' }, icon(iconName), h('span', {}, title)), ...body);
}

export function refLabel(refId: string, kind: string, summary: string): HTMLElement {
  return h('span', { class: 'node-label' }, h('span', { class: 'ref-id' }, refId), kind ? h('span', { class: 'kind' }, ` ${kind}`) : null,
    summary ? h('span', { class: 'summary' }, ` — ${summary}`) : null);
}
