/** The whole graph, or the part around some ref_ids, as data and as Mermaid text. */
import { bfsSubgraph, type SubgraphEdge } from './bfs';
import { describeNode, neighboursOf, resolveRef, type Knowledge, type NodeSummary } from './knowledge';
import type { GraphIssue } from './types';

export interface GraphView {
  nodes: NodeSummary[];
  edges: SubgraphEdge[];
  mermaid: string;
  /** Graph files that could not be read whole (YAML syntax, unreadable, wrong shape): the view may be missing parts. */
  unreadable: GraphIssue[];
}

const UNREADABLE_CODES: ReadonlyArray<GraphIssue['code']> = ['yaml_syntax', 'unreadable', 'invalid_shape'];

const MAX_VIEW_NODES = 5000;

export function graphView(k: Knowledge, refIds: readonly string[], depth: number): GraphView {
  let nodes: NodeSummary[];
  let edges: SubgraphEdge[];
  if (refIds.length) {
    const focus = [...new Set(refIds.map((id) => resolveRef(k, id).id))];
    const sub = bfsSubgraph(focus, neighboursOf(k), { depth, maxNodes: MAX_VIEW_NODES });
    nodes = sub.nodes.map((id) => describeNode(k, id));
    edges = sub.edges;
  } else {
    nodes = [...k.graph.nodes.keys()].slice(0, MAX_VIEW_NODES).map((id) => describeNode(k, id));
    const keep = new Set(nodes.map((n) => n.ref_id));
    edges = k.graph.edges.filter((e) => keep.has(e.src) && keep.has(e.dst)).map((e) => ({ src: e.src, dst: e.dst, kind: e.kind }));
  }
  const unreadable = k.graph.issues.filter((i) => i.severity === 'error' && UNREADABLE_CODES.includes(i.code));
  return { nodes, edges, mermaid: toMermaid(nodes, edges), unreadable };
}

/** Mermaid flowchart. Ids are positional (n0, n1, …) because ref_ids may hold characters Mermaid rejects. */
export function toMermaid(nodes: readonly NodeSummary[], edges: readonly SubgraphEdge[]): string {
  const ids = new Map(nodes.map((n, i) => [n.ref_id, `n${i}`] as const));
  const label = (s: string) => s.replace(/"/g, '#quot;').replace(/[<>]/g, (c) => (c === '<' ? '#lt;' : '#gt;'));
  const lines = ['graph LR'];
  for (const n of nodes) lines.push(`  ${ids.get(n.ref_id)}["${label(n.ref_id)}${n.kind ? `<br/><small>${label(n.kind)}</small>` : ''}"]`);
  for (const e of edges) {
    const a = ids.get(e.src);
    const b = ids.get(e.dst);
    if (a && b) lines.push(`  ${a} -->|${label(e.kind)}| ${b}`);
  }
  return lines.join('\n');
}
