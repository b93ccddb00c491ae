/**
 * The why-tree: what depends on a node (downstream, the impact the command is named for: first and open) and what it
 * depends on (upstream: below, collapsed), with the impact in plain words.
 */
import type { WhyResult, WhyTreeNode } from '../../src/protocol/webview';
import { actionLink, h } from '../dom';
import { send } from '../host';
import { isDeclaredRef } from '../plain';
import { card, details, refLabel } from './card';

function treeNode(n: WhyTreeNode): HTMLElement {
  const label = h('span', {}, h('span', { class: 'edge' }, `${n.edge_kind} `), refLabel(n.ref_id, n.kind, n.summary), ' ',
    actionLink('why', `Why ${n.ref_id}`, () => send({ type: 'why', refId: n.ref_id }), { class: 'small' }), ' ',
    actionLink('bundle', `Context bundle for ${n.ref_id}`, () => send({ type: 'bundle', refId: n.ref_id }), { class: 'small' }));
  if (!n.children.length) return h('li', { class: 'leaf', 'data-ref': n.ref_id }, label);
  return h('li', { 'data-ref': n.ref_id }, h('details', { open: true }, h('summary', {}, label), h('ul', {}, ...n.children.map(treeNode))));
}

function tree(title: string, nodes: WhyTreeNode[], testid: string, open: boolean, none: string): HTMLElement {
  return h('details', { open, class: 'why-branch', 'data-testid': testid },
    h('summary', {}, `${title} (${nodes.length})`),
    nodes.length ? h('ul', { class: 'tree' }, ...nodes.map(treeNode)) : h('p', { class: 'meta' }, none));
}

const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;

function walk(nodes: WhyTreeNode[], out: string[] = []): string[] {
  for (const n of nodes) { out.push(n.ref_id); walk(n.children, out); }
  return out;
}

export function impactText(r: WhyResult): string {
  const i = r.impact;
  // downstream_transitive counts the dependents beyond the direct ones.
  if (!i.downstream_direct && !i.downstream_transitive) return 'Nothing depends on it: changing it affects no other part.';
  const parts = [`Changing it can affect ${plural(i.downstream_direct, 'direct dependent')}${i.downstream_transitive ? ` and ${i.downstream_transitive} more through them` : ''}`];
  // Doc coverage counts declared nodes; for files and symbols (or no declared dependents) it says nothing.
  if (walk(r.downstream).some(isDeclaredRef)) parts.push(`${i.doc_coverage.toFixed(0)} % of them have docs`);
  if (i.stale_count) parts.push(`${plural(i.stale_count, 'doc')} may be out of date`);
  return `${parts.join('; ')}${r.truncated ? ' (the trees are cut short; there is more)' : ''}.`;
}

export function whyCard(r: WhyResult): HTMLElement {
  const i = r.impact;
  return card('why', 'type-hierarchy', `Why: ${r.node.ref_id}`,
    h('p', {}, refLabel(r.node.ref_id, r.node.kind, r.node.summary), ' ',
      actionLink('graph', `Graph around ${r.node.ref_id}`, () => send({ type: 'graph', refId: r.node.ref_id }), { class: 'small' })),
    h('p', { class: 'impact', 'data-testid': 'impact' }, impactText(r)),
    h('div', { class: 'why-tree', 'data-testid': 'why-tree' },
      tree('Downstream: what depends on it', r.downstream, 'downstream', true, 'Nothing depends on it.'),
      tree('Upstream: what it depends on', r.upstream, 'upstream', false, 'It depends on nothing declared.')),
    details([['Direct dependents', String(i.downstream_direct)], ['Indirect dependents', String(i.downstream_transitive)], ['Doc coverage', `${i.doc_coverage} %`],
      ['Stale doc pairs', String(i.stale_count)], ['Depth walked', `${r.depth.downstream} down, ${r.depth.upstream} up`]]));
}
