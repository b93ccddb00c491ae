/**
 * The graph around a node as a picture: an SVG drawn here (no Mermaid runtime, nothing that parses labels as HTML).
 * Nodes are placed in columns by their distance from the first focus node; edges are arrows labelled by kind.
 */
import type { GraphView } from '../../src/protocol/webview';
import { h, svg } from '../dom';
import { send } from '../host';
import { card } from './card';

const W = 150;
const H = 34;
const GAP_X = 60;
const GAP_Y = 18;

export function layers(view: GraphView, focus: string | undefined): Map<string, number> {
  const adj = new Map<string, string[]>();
  for (const e of view.edges) {
    adj.set(e.src, [...(adj.get(e.src) ?? []), e.dst]);
    adj.set(e.dst, [...(adj.get(e.dst) ?? []), e.src]);
  }
  const depth = new Map<string, number>();
  const start = focus && view.nodes.some((n) => n.ref_id === focus) ? focus : view.nodes[0]?.ref_id;
  if (start) {
    depth.set(start, 0);
    const queue = [start];
    while (queue.length) {
      const id = queue.shift()!;
      for (const n of adj.get(id) ?? []) if (!depth.has(n)) { depth.set(n, depth.get(id)! + 1); queue.push(n); }
    }
  }
  let extra = Math.max(0, ...depth.values()) + 1;
  for (const n of view.nodes) if (!depth.has(n.ref_id)) depth.set(n.ref_id, extra++);
  return depth;
}

export function graphCard(refIds: string[], view: GraphView): HTMLElement {
  const depth = layers(view, refIds[0]);
  const columns = new Map<number, string[]>();
  for (const n of view.nodes) columns.set(depth.get(n.ref_id)!, [...(columns.get(depth.get(n.ref_id)!) ?? []), n.ref_id]);
  const pos = new Map<string, { x: number; y: number }>();
  for (const [col, ids] of columns) ids.forEach((id, row) => pos.set(id, { x: 10 + col * (W + GAP_X), y: 10 + row * (H + GAP_Y) }));
  const width = 20 + columns.size * (W + GAP_X);
  const height = 20 + Math.max(1, ...[...columns.values()].map((c) => c.length)) * (H + GAP_Y);
  const pic = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, class: 'graph', role: 'img', 'aria-label': `Graph around ${refIds.join(', ')}` },
    svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto' }, svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow' }))));
  for (const e of view.edges) {
    const a = pos.get(e.src);
    const b = pos.get(e.dst);
    if (!a || !b) continue;
    const [x1, y1, x2, y2] = [a.x + W / 2, a.y + H / 2, b.x + W / 2, b.y + H / 2];
    pic.appendChild(svg('line', { x1, y1, x2, y2, class: 'edge', 'marker-end': 'url(#arrow)' }));
    pic.appendChild(svg('text', { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 3, class: 'edge-label', 'text-anchor': 'middle' }, e.kind));
  }
  for (const n of view.nodes) {
    const p = pos.get(n.ref_id)!;
    const g = svg('g', { class: `node${refIds.includes(n.ref_id) ? ' focus' : ''}`, tabindex: 0, role: 'button', 'aria-label': `Why ${n.ref_id}` },
      svg('title', {}, `${n.ref_id} (${n.kind}) ${n.summary}`),
      svg('rect', { x: p.x, y: p.y, width: W, height: H, rx: 4 }),
      svg('text', { x: p.x + W / 2, y: p.y + 15, 'text-anchor': 'middle' }, n.ref_id.length > 22 ? `${n.ref_id.slice(0, 21)}…` : n.ref_id),
      svg('text', { x: p.x + W / 2, y: p.y + 28, 'text-anchor': 'middle', class: 'kind' }, n.kind));
    const go = (): void => send({ type: 'why', refId: n.ref_id });
    g.addEventListener('click', go);
    g.addEventListener('keydown', (e) => { if ((e as KeyboardEvent).key === 'Enter') go(); });
    pic.appendChild(g);
  }
  return card('graph', 'graph', `Graph: ${refIds.join(', ') || 'whole architecture'}`, h('div', { class: 'graph-scroll' }, pic),
    h('p', { class: 'meta' }, `${view.nodes.length} nodes, ${view.edges.length} edges. Click a node for its why-tree.`));
}
