/** A context bundle: focus, subgraph nodes, code symbols, doc chunks, stale flags, constraints, routes, tests. */
import type { BundleResult } from '../../src/protocol/webview';
import { actionLink, h } from '../dom';
import { openPath, send } from '../host';
import { card, refLabel } from './card';

function section(title: string, count: number, body: Node): HTMLElement | null {
  return count ? h('vscode-collapsible', { heading: `${title} (${count})`, open: true }, body) : null;
}

export function bundleCard(refIds: string[], r: BundleResult): HTMLElement {
  const b = r.bundle;
  const stale = b.sync_status.stale_docs;
  return card('bundle', 'package', `Context bundle: ${refIds.join(', ')}`,
    h('p', {}, refLabel(b.focus.ref_id, b.focus.kind, b.focus.summary)),
    h('p', { class: 'meta' }, `${r.tokens} tokens · ${r.etag} · cache ${r.cache}${b.sync_status.last_reindex ? ` · indexed ${b.sync_status.last_reindex}` : ''}`),
    b.warning ? h('p', { class: 'warning' }, b.warning) : null,
    stale.length ? h('div', { class: 'warning', 'data-testid': 'stale' }, h('strong', {}, 'Stale docs: '),
      ...stale.map((s) => h('span', {}, actionLink(s.doc_path, `Open ${s.doc_path}`, () => openPath(s.doc_path)), ` (code ${s.code_path} changed) `))) : null,
    section('Nodes', b.graph.nodes.length, h('ul', {}, ...b.graph.nodes.map((n) => h('li', {}, refLabel(n.ref_id, n.kind, n.summary), ' ',
      actionLink('why', `Why ${n.ref_id}`, () => send({ type: 'why', refId: n.ref_id }), { class: 'small' }))))),
    section('Edges', b.graph.edges.length, h('ul', {}, ...b.graph.edges.map((e) => h('li', {}, `${e.src} —${e.kind}→ ${e.dst}`)))),
    section('Code symbols', b.code_symbols.length, h('ul', {}, ...b.code_symbols.map((s) => h('li', {},
      actionLink(`${s.file_path}:${s.line_start}`, `Open ${s.file_path}`, () => openPath(s.file_path, s.line_start, s.line_end), { class: 'path-link' }),
      ` ${s.kind} ${s.symbol_name}`)))),
    section('Docs', b.text_chunks.length, h('div', {}, ...b.text_chunks.map((c) => h('div', { class: 'excerpt' },
      h('div', { class: 'excerpt-title' }, actionLink(c.doc_path, `Open ${c.doc_path}`, () => openPath(c.doc_path), { class: 'path-link' }), ` § ${c.heading}`),
      h('pre', {}, c.content))))),
    section('Constraints', b.constraints.length, h('ul', {}, ...b.constraints.map((c) => h('li', {}, `${c.rule} (${c.type}): ${c.description}`)))),
    section('Routes', b.routes.length, h('ul', {}, ...b.routes.map((rt) => h('li', {}, `${rt.method} ${rt.path} → ${rt.handler} `,
      actionLink(`${rt.file}:${rt.line}`, `Open ${rt.file}`, () => openPath(rt.file, rt.line), { class: 'path-link' }))))),
  );
}
