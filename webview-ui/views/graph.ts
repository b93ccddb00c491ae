/**
 * The graph around a node as a picture: laid out by dagre (graph-layout.ts), drawn as SVG here (nothing parses labels
 * as HTML), fitted to the card, with pan (drag) and zoom (wheel, buttons). Click a node for its why-tree; click a
 * cluster to open its members. An empty graph explains what a graph is and offers a starter one.
 */
import type { GraphView } from '../../src/protocol/webview';
import { actionLink, clear, h, icon, svg } from '../dom';
import { send } from '../host';
import { layoutGraph, subView, type GraphLayout } from '../graph-layout';
import { card } from './card';
import { noGraph } from './lists';

const MIN_SCALE = 0.05;
const MAX_SCALE = 4;

/** Pan and zoom of one SVG viewport group, applied as one transform (cheap: no relayout, no re-render). */
class Viewport {
  private x = 0;
  private y = 0;
  private k = 1;
  private frame = 0;

  constructor(private readonly host: HTMLElement, private readonly g: SVGElement, private readonly size: () => { width: number; height: number }) {
    host.addEventListener('wheel', (e) => {
      e.preventDefault();
      const r = host.getBoundingClientRect();
      this.zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    let drag: { x: number; y: number } | undefined;
    host.addEventListener('pointerdown', (e) => {
      if ((e.target as Element).closest('.node')) return;
      drag = { x: e.clientX - this.x, y: e.clientY - this.y };
      host.setPointerCapture(e.pointerId);
      host.classList.add('panning');
    });
    host.addEventListener('pointermove', (e) => {
      if (!drag) return;
      this.x = e.clientX - drag.x;
      this.y = e.clientY - drag.y;
      this.apply();
    });
    const end = (): void => { drag = undefined; host.classList.remove('panning'); };
    host.addEventListener('pointerup', end);
    host.addEventListener('pointercancel', end);
  }

  fit(): void {
    const { width, height } = this.size();
    const w = this.host.clientWidth || 300;
    const h = this.host.clientHeight || 300;
    this.k = Math.max(MIN_SCALE, Math.min(1.25, w / Math.max(1, width), h / Math.max(1, height)));
    this.x = (w - width * this.k) / 2;
    this.y = (h - height * this.k) / 2;
    this.apply();
  }

  zoomAt(factor: number, cx = this.host.clientWidth / 2, cy = this.host.clientHeight / 2): void {
    const k = Math.max(MIN_SCALE, Math.min(MAX_SCALE, this.k * factor));
    this.x = cx - ((cx - this.x) * k) / this.k;
    this.y = cy - ((cy - this.y) * k) / this.k;
    this.k = k;
    this.apply();
  }

  /** One transform write per animation frame, however many events arrive. */
  private apply(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.g.setAttribute('transform', `translate(${this.x.toFixed(1)},${this.y.toFixed(1)}) scale(${this.k.toFixed(4)})`);
    });
  }
}

function draw(layout: GraphLayout, focus: string[], open: (members: string[], label: string) => void): SVGElement {
  const root = svg('g', { class: 'viewport' });
  const edges = svg('g', { class: 'edges' });
  for (const e of layout.edges) {
    const d = e.points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    edges.appendChild(svg('path', { d, class: 'edge', 'marker-end': 'url(#arrow)' }));
    if (e.labelAt) {
      // The label sits in the box dagre kept free on the edge; a backing keeps the line from striking through it.
      const w = e.label.length * 6 + 6;
      edges.appendChild(svg('rect', { x: e.labelAt.x - w / 2, y: e.labelAt.y - 7, width: w, height: 14, rx: 2, class: 'edge-label-bg' }));
      edges.appendChild(svg('text', { x: e.labelAt.x, y: e.labelAt.y + 4, class: 'edge-label', 'text-anchor': 'middle' }, e.label));
    }
  }
  const nodes = svg('g', { class: 'nodes' });
  for (const n of layout.nodes) {
    const x = n.x - n.width / 2;
    const y = n.y - n.height / 2;
    const cluster = !!n.members;
    const g = svg('g', { class: `node${focus.includes(n.id) ? ' focus' : ''}${cluster ? ' cluster' : ''}`, tabindex: 0, role: 'button',
      'aria-label': cluster ? `Open ${n.label}` : `Why ${n.id}`, 'data-ref': n.id },
      svg('title', {}, cluster ? `${n.summary}: click to open` : `${n.id} (${n.kind}) ${n.summary}`),
      svg('rect', { x, y, width: n.width, height: n.height, rx: cluster ? 10 : 4 }),
      svg('text', { x: n.x, y: y + 15, 'text-anchor': 'middle' }, n.label),
      svg('text', { x: n.x, y: y + 28, 'text-anchor': 'middle', class: 'kind' }, n.kind));
    const go = (): void => (n.members ? open(n.members, n.label) : send({ type: 'why', refId: n.id }));
    g.addEventListener('click', go);
    g.addEventListener('keydown', (e) => { if ((e as KeyboardEvent).key === 'Enter') go(); });
    nodes.appendChild(g);
  }
  root.append(edges, nodes);
  return root;
}

export function graphCard(refIds: string[], view: GraphView): HTMLElement {
  const title = `Graph: ${refIds.join(', ') || 'whole architecture'}`;
  if (!view.nodes.length) return card('graph', 'graph', title, noGraph('nothing to draw'));
  const stage = h('div', { class: 'graph-stage', 'data-testid': 'graph-stage' });
  const meta = h('p', { class: 'meta', 'data-testid': 'graph-meta' });
  const back = h('span', { class: 'graph-back' });
  const render = (v: GraphView, label?: string): void => {
    const t0 = performance.now();
    const layout = layoutGraph(v);
    const ms = performance.now() - t0;
    clear(stage);
    const pic = svg('svg', { class: 'graph', role: 'img', 'aria-label': `Graph around ${refIds.join(', ') || 'the whole architecture'}`, width: '100%', height: '100%' },
      svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' }, svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow' }))));
    const root = draw(layout, refIds, (members, name) => render(subView(view, new Set(members)), name));
    pic.appendChild(root);
    stage.appendChild(pic);
    const vp = new Viewport(stage, root, () => layout);
    stage.dataset.layoutMs = ms.toFixed(1);
    clear(toolbar);
    toolbar.append(
      h('vscode-button', { secondary: true, title: 'Fit to view', 'data-testid': 'graph-fit' }, icon('screen-normal')),
      h('vscode-button', { secondary: true, title: 'Zoom in' }, icon('zoom-in')),
      h('vscode-button', { secondary: true, title: 'Zoom out' }, icon('zoom-out')));
    const [fit, zin, zout] = [...toolbar.children] as HTMLElement[];
    fit!.addEventListener('click', () => vp.fit());
    zin!.addEventListener('click', () => vp.zoomAt(1.25));
    zout!.addEventListener('click', () => vp.zoomAt(0.8));
    requestAnimationFrame(() => vp.fit());
    clear(back);
    if (label) back.appendChild(actionLink(`← all of the graph`, 'Back to the whole graph', () => render(view), { 'data-testid': 'graph-back' }));
    const what = layout.clustered ? `${layout.total} nodes in ${layout.nodes.length} groups${layout.hiddenLinks ? ' (the strongest links between them drawn)' : ''}; click a group to open it`
      : `${layout.shown} nodes${layout.shown < layout.total ? ` (the best connected of ${layout.total})` : ''}, ${v.edges.length} links; click a node for its why-tree`;
    meta.textContent = `${label ? `${label}: ` : ''}${what}. Drag to pan, scroll to zoom.`;
  };
  const toolbar = h('div', { class: 'graph-toolbar' });
  const el = card('graph', 'graph', title, h('div', { class: 'graph-bar' }, back, h('span', { class: 'spacer' }), toolbar), stage, meta);
  render(view);
  return el;
}
