/**
 * Breadth-first subgraph around focus nodes, walking edges both ways with neighbours ordered by edge priority.
 * Invariants (each has a test): a node is visited once, so the walk cannot cycle; focus nodes are always in the
 * result; the result never holds more than max(maxNodes, focus count) nodes; every edge between two result nodes
 * is in the result, including edges to nodes reached earlier.
 */
import { edgePriority } from './types';

export interface SubgraphEdge {
  src: string;
  dst: string;
  kind: string;
}

export interface Neighbour {
  id: string;
  edge: SubgraphEdge;
}

/** Neighbours of a node over outgoing and incoming edges; the order returned is the tie-break after priority. */
export type NeighbourFn = (id: string) => Neighbour[];

export interface BfsOptions {
  depth: number;
  maxNodes: number;
}

export interface Subgraph {
  /** Node ids in visiting order: focus nodes first. */
  nodes: string[];
  edges: SubgraphEdge[];
  /** True when maxNodes stopped the walk before the depth limit. */
  truncated: boolean;
}

export function bfsSubgraph(focus: readonly string[], neighbours: NeighbourFn, options: BfsOptions): Subgraph {
  const limit = Math.max(options.maxNodes, new Set(focus).size);
  const visited = new Set<string>();
  const order: string[] = [];
  const queue: Array<[string, number]> = [];
  for (const id of focus) {
    if (visited.has(id)) continue;
    visited.add(id);
    order.push(id);
    queue.push([id, 0]);
  }
  const seen = new Map<string, Neighbour[]>();
  const around = (id: string): Neighbour[] => {
    let list = seen.get(id);
    if (!list) {
      // Stable sort: equal priorities keep the order the graph gave (outgoing before incoming, declaration order).
      list = neighbours(id).map((n, i) => ({ n, i, p: edgePriority(n.edge.kind) })).sort((a, b) => a.p - b.p || a.i - b.i).map((x) => x.n);
      seen.set(id, list);
    }
    return list;
  };
  let truncated = false;
  for (let head = 0; head < queue.length; head++) {
    const [id, depth] = queue[head]!;
    if (depth >= options.depth) continue;
    for (const n of around(id)) {
      if (visited.has(n.id)) continue;
      if (visited.size >= limit) {
        truncated = true;
        break;
      }
      visited.add(n.id);
      order.push(n.id);
      queue.push([n.id, depth + 1]);
    }
    if (truncated) break;
  }
  // The induced subgraph: every edge whose ends are both in the result, whether found by expansion or not.
  const edges: SubgraphEdge[] = [];
  const keys = new Set<string>();
  for (const id of order) {
    for (const n of around(id)) {
      if (!visited.has(n.id)) continue;
      const key = `${n.edge.src}\u0000${n.edge.dst}\u0000${n.edge.kind}`;
      if (keys.has(key)) continue;
      keys.add(key);
      edges.push(n.edge);
    }
  }
  return { nodes: order, edges, truncated };
}
