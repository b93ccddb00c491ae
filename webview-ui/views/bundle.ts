/** A context bundle: focus, subgraph nodes, code symbols, doc chunks, stale flags, constraints, routes, tests. */
import type { BundleResult } from '../../src/protocol/webview';
import { actionLink, h } from '../dom';
import { openPath, send } from '../host';
import { plainWarnings, timeAgo } from '../plain';
import { card, details, refLabel } from './card';
import { pathLink } from './paths';

function section(title: string, count: number, body: Node): HTMLElement | null {
  return count ? h('vscode-collapsible', { heading: `${title} (${count})`, open: true }, body) : null;
}

export function bundleCard(refIds: string[], r: BundleResult, now = Date.now()): HTMLElement {
  const b = r.bundle;
  const stale = b.sync_status.stale_docs;
  const indexed = b.sync_status.last_reindex ? timeAgo(b.sync_status.last_reindex, now) : '';
  const counts = [[b.graph.nodes.length, 'related node'], [b.code_symbols.length, 'code symbol'], [b.text_chunks.length, 'doc excerpt']] as const;
  return card('bundle', 'package', `Context bundle: ${refIds.join(', ')}`,
    h('p', {}, refLabel(b.focus.ref_id, b.focus.kind, b.focus.summary)),
    h('p', { class: 'meta', 'data-testid': 'bundle-summary' }, `${counts.map(([n, w]) => `${n} ${w}${n === 1 ? '' : 's'}`).join(', ')}${indexed ? ` · index updated ${indexed}` : ''}`),
    ...plainWarnings(b.warning).map((w) => h('p', { class: 'warning' }, w)),
    stale.length ? h('div', { class: 'warning', 'data-testid': 'stale' }, h('strong', {}, 'Stale docs: '),
      ...stale.map((s) => h('span', {}, pathLink(s.doc_path, () => openPath(s.doc_path)), ` (code ${s.code_path} changed) `))) : null,
    section('Nodes', b.graph.nodes.length, h('ul', {}, ...b.graph.nodes.map((n) => h('li', {}, refLabel(n.ref_id, n.kind, n.summary), ' ',
      actionLink('why', `Why ${n.ref_id}`, () => send({ type: 'why', refId: n.ref_id }), { class: 'small' }))))),
    section('Links between them', b.graph.edges.length, h('ul', {}, ...b.graph.edges.map((e) => h('li', {}, `${e.src} —${e.kind}→ ${e.dst}`)))),
    section('Code symbols', b.code_symbols.length, h('ul', { class: 'paths' }, ...b.code_symbols.map((s) => h('li', {},
      pathLink(`${s.file_path}:${s.line_start}`, () => openPath(s.file_path, s.line_start, s.line_end)), ` ${s.kind} ${s.symbol_name}`)))),
    section('Docs', b.text_chunks.length, h('div', {}, ...b.text_chunks.map((c) => h('div', { class: 'excerpt' },
      h('div', { class: 'excerpt-title' }, pathLink(c.doc_path, () => openPath(c.doc_path)), ` § ${c.heading}`),
      h('pre', { class: 'prose' }, c.content))))),
    section('Constraints', b.constraints.length, h('ul', {}, ...b.constraints.map((c) => h('li', {}, `${c.rule} (${c.type}): ${c.description}`)))),
    section('Routes', b.routes.length, h('ul', {}, ...b.routes.map((rt) => h('li', {}, `${rt.method} ${rt.path} → ${rt.handler} `,
      pathLink(`${rt.file}:${rt.line}`, () => openPath(rt.file, rt.line)))))),
    details([['Size', `about ${r.tokens} tokens`], ['Fingerprint', r.etag], ['From cache', r.cache === 'miss' ? 'no, built now' : 'yes'],
      ...(b.warning ? [['Engine notes', b.warning] as [string, string]] : []), ...(b.sync_status.last_reindex ? [['Index updated', new Date(b.sync_status.last_reindex).toLocaleString()] as [string, string]] : [])]),
  );
}
