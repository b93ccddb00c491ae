/**
 * Where the graph's boxes and arrows go: dagre's layered layout (left to right), with edge labels placed by dagre
 * as their own boxes so they never overlap nodes or each other. Above CLUSTER_ABOVE nodes the graph is first folded
 * into clusters (by folder for files and symbols, by kind for declared nodes) so the picture stays readable and the
 * layout fast; above MAX_DRAWN_EDGES links too. Clicking a cluster opens its members. No DOM: tested and timed in Node and in chromium.
 */
import { graphlib, layout } from '@dagrejs/dagre';
import type { GraphView } from '../src/protocol/webview';

export const CLUSTER_ABOVE = 150;
const NODE_H = 36;
const CHAR_W = 6.6;

export interface PlacedNode {
  id: string;
  label: string;
  kind: string;
  summary: string;
  /** Centre. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Members when this box is a cluster. */
  members?: string[];
}

export interface PlacedEdge {
  src: string;
  dst: string;
  label: string;
  points: Array<{ x: number; y: number }>;
  /** Centre of the label box. */
  labelAt?: { x: number; y: number };
}

export interface GraphLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
  clustered: boolean;
  /** Nodes in the view before clustering. */
  total: number;
  /** Nodes drawn or folded into clusters (fewer than `total` when only the best-connected are kept). */
  shown: number;
  /** Links between clusters left out (only the strongest are drawn). */
  hiddenLinks: number;
}

/** The group a node folds into: the folder of a file or symbol (two levels), the kind of a declared node. */
export function clusterOf(refId: string, kind: string, level: number): string {
  const path = refId.split('::')[0]!;
  if (path.includes('/') || /\.[A-Za-z0-9]+$/.test(path)) {
    const dirs = path.split('/').slice(0, -1);
    return dirs.length ? `${dirs.slice(0, level).join('/')}/` : './';
  }
  return `${kind || 'node'}s`;
}

const shorten = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function boxWidth(label: string, kind: string): number {
  return Math.max(90, Math.min(220, Math.max(label.length, kind.length) * CHAR_W + 20));
}

interface Shape { nodes: Array<Omit<PlacedNode, 'x' | 'y' | 'width' | 'height'>>; edges: Array<{ src: string; dst: string; label: string }>; hiddenLinks?: number }

const MAX_CLUSTER_EDGES_PER_NODE = 2; // and at most MAX_DRAWN_EDGES
/**
 * Most labelled links drawn in one picture. dagre's time grows with the links (each long one becomes a chain of dummy
 * nodes to order): 180 random links among 60 nodes took ~1 s in chromium, 450 among 150 nodes ~8 s.
 */
export const MAX_DRAWN_EDGES = 50;

/** Folds the view into clusters: folder depth 2 first, then shallower or deeper, whichever gives 2..CLUSTER_ABOVE groups. */
function fold(view: GraphView): Shape | undefined {
  for (const level of [2, 1, 3, 4, 5, 6]) {
    const groupOf = new Map(view.nodes.map((n) => [n.ref_id, clusterOf(n.ref_id, n.kind, level)]));
    const groups = new Map<string, string[]>();
    for (const n of view.nodes) { const g = groupOf.get(n.ref_id)!; groups.set(g, [...(groups.get(g) ?? []), n.ref_id]); }
    if (groups.size < 2 || groups.size > CLUSTER_ABOVE) continue;
    const counts = new Map<string, number>();
    for (const e of view.edges) {
      const a = groupOf.get(e.src);
      const b = groupOf.get(e.dst);
      if (!a || !b || a === b) continue;
      counts.set(`${a}\0${b}`, (counts.get(`${a}\0${b}`) ?? 0) + 1);
    }
    // Between folders nearly everything links to everything; the strongest links carry the picture and keep the
    // layout fast (each labelled edge is a box dagre must place).
    const strongest = [...counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, Math.min(MAX_DRAWN_EDGES, MAX_CLUSTER_EDGES_PER_NODE * groups.size));
    return {
      nodes: [...groups].map(([g, members]) => ({ id: `cluster:${g}`, label: g, kind: `${members.length} nodes`, summary: `${members.length} nodes in ${g}`, members })),
      edges: strongest.map(([k, n]) => { const [a, b] = k.split('\0'); return { src: `cluster:${a}`, dst: `cluster:${b}`, label: n === 1 ? '1 link' : `${n} links` }; }),
      hiddenLinks: counts.size - strongest.length,
    };
  }
  return undefined;
}

/**
 * The best-connected nodes, as many as fit MAX_DRAWN_EDGES links among them: the filter used when the view cannot be
 * folded (all its nodes in one folder).
 */
function busiest(view: GraphView): GraphView {
  const degree = new Map<string, number>();
  for (const e of view.edges) for (const id of [e.src, e.dst]) degree.set(id, (degree.get(id) ?? 0) + 1);
  const adj = new Map<string, string[]>();
  for (const e of view.edges) for (const [x, y] of [[e.src, e.dst], [e.dst, e.src]] as const) adj.set(x, [...(adj.get(x) ?? []), y]);
  const keep = new Set<string>();
  let edges = 0;
  for (const n of [...view.nodes].sort((a, b) => (degree.get(b.ref_id) ?? 0) - (degree.get(a.ref_id) ?? 0))) {
    if (keep.size >= CLUSTER_ABOVE) break;
    const added = (adj.get(n.ref_id) ?? []).filter((m) => keep.has(m)).length;
    if (edges + added > MAX_DRAWN_EDGES) continue;
    keep.add(n.ref_id);
    edges += added;
  }
  return subView(view, keep);
}

export function layoutGraph(full: GraphView): GraphLayout {
  let view = full;
  const tooBig = view.nodes.length > CLUSTER_ABOVE || view.edges.length > MAX_DRAWN_EDGES;
  const folded = tooBig ? fold(view) : undefined;
  if (tooBig && !folded) view = busiest(view);
  const clustered = !!folded;
  const shape: Shape = folded ?? {
    nodes: view.nodes.map((n) => ({ id: n.ref_id, label: n.ref_id, kind: n.kind, summary: n.summary })),
    edges: view.edges.map((e) => ({ src: e.src, dst: e.dst, label: e.kind })),
  };
  const g = new graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 18, ranksep: 60, edgesep: 8, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  const known = new Set<string>();
  for (const n of shape.nodes) {
    const label = shorten(n.label, 32);
    g.setNode(n.id, { width: boxWidth(label, n.kind), height: NODE_H });
    known.add(n.id);
  }
  shape.edges.forEach((e, i) => {
    if (!known.has(e.src) || !known.has(e.dst)) return;
    g.setEdge(e.src, e.dst, { width: e.label.length * 6 + 6, height: 14, labelpos: 'c' }, `e${i}`);
  });
  layout(g);
  const nodes = shape.nodes.map((n) => {
    const p = g.node(n.id) as { x: number; y: number; width: number; height: number };
    return { ...n, label: shorten(n.label, 32), x: p.x, y: p.y, width: p.width, height: p.height };
  });
  const edges: PlacedEdge[] = [];
  shape.edges.forEach((e, i) => {
    const p = g.edge(e.src, e.dst, `e${i}`) as { points?: Array<{ x: number; y: number }>; x?: number; y?: number } | undefined;
    if (!p?.points) return;
    edges.push({ src: e.src, dst: e.dst, label: e.label, points: p.points, ...(p.x !== undefined && p.y !== undefined ? { labelAt: { x: p.x, y: p.y } } : {}) });
  });
  const graph = g.graph() as { width?: number; height?: number };
  return { nodes, edges, width: graph.width ?? 0, height: graph.height ?? 0, clustered, total: full.nodes.length, shown: view.nodes.length, hiddenLinks: shape.hiddenLinks ?? 0 };
}

/** The view restricted to some nodes and the edges among them (a cluster opened). */
export function subView(view: GraphView, keep: ReadonlySet<string>): GraphView {
  return { ...view, nodes: view.nodes.filter((n) => keep.has(n.ref_id)), edges: view.edges.filter((e) => keep.has(e.src) && keep.has(e.dst)) };
}
