/** The why-tree: what a node depends on (upstream) and what depends on it (downstream), collapsible, with impact. */
import type { WhyResult, WhyTreeNode } from '../../src/protocol/webview';
import { actionLink, h } from '../dom';
import { send } from '../host';
import { card, refLabel } from './card';

function treeNode(n: WhyTreeNode): HTMLElement {
  const label = h('span', {}, h('span', { class: 'edge' }, `${n.edge_kind} `), refLabel(n.ref_id, n.kind, n.summary), ' ',
    actionLink('why', `Why ${n.ref_id}`, () => send({ type: 'why', refId: n.ref_id }), { class: 'small' }), ' ',
    actionLink('bundle', `Context bundle for ${n.ref_id}`, () => send({ type: 'bundle', refId: n.ref_id }), { class: 'small' }));
  if (!n.children.length) return h('li', { class: 'leaf', 'data-ref': n.ref_id }, label);
  return h('li', { 'data-ref': n.ref_id }, h('details', { open: true }, h('summary', {}, label), h('ul', {}, ...n.children.map(treeNode))));
}

function tree(title: string, nodes: WhyTreeNode[], testid: string): HTMLElement {
  return h('details', { open: true, class: 'why-branch', 'data-testid': testid },
    h('summary', {}, `${title} (${nodes.length})`),
    nodes.length ? h('ul', { class: 'tree' }, ...nodes.map(treeNode)) : h('p', { class: 'meta' }, 'nothing'));
}

export function whyCard(r: WhyResult): HTMLElement {
  const i = r.impact;
  return card('why', 'type-hierarchy', `Why: ${r.node.ref_id}`,
    h('p', {}, refLabel(r.node.ref_id, r.node.kind, r.node.summary), ' ',
      actionLink('graph', `Graph around ${r.node.ref_id}`, () => send({ type: 'graph', refId: r.node.ref_id }), { class: 'small' })),
    h('p', { class: 'impact', 'data-testid': 'impact' },
      `Impact: ${i.downstream_direct} direct and ${i.downstream_transitive} transitive dependents; doc coverage ${i.doc_coverage} %; ${i.stale_count} stale docs${r.truncated ? ' (truncated)' : ''}.`),
    h('div', { class: 'why-tree', 'data-testid': 'why-tree' }, tree('Upstream: what it depends on', r.upstream, 'upstream'), tree('Downstream: what depends on it', r.downstream, 'downstream')));
}
