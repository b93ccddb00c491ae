/**
 * Impact analysis: what a node depends on (upstream: outgoing edges) and what depends on it (downstream: incoming
 * edges), as trees built breadth-first with at most `maxNodes` per direction, plus an impact summary.
 */
import { edgePriority } from './types';
import { describeNode, directedNeighbours, resolveRef, type Knowledge, type NodeSummary } from './knowledge';

export interface WhyTreeNode extends NodeSummary {
  edge_kind: string;
  children: WhyTreeNode[];
}

export interface WhyImpact {
  downstream_direct: number;
  downstream_transitive: number;
  /** Percent (0–100) of downstream declared nodes with at least one existing doc. */
  doc_coverage: number;
  /** Stale doc↔code pairs among downstream nodes. */
  stale_count: number;
}

export interface WhyResult {
  node: NodeSummary;
  upstream: WhyTreeNode[];
  downstream: WhyTreeNode[];
  impact: WhyImpact;
  depth: { upstream: number; downstream: number };
  /** True when maxNodes stopped a direction early. */
  truncated: boolean;
}

export interface WhyOptions {
  depth?: number;
  maxNodes?: number;
  /** Emphasise upstream: full depth upstream, half (at least 1) downstream. */
  reverse?: boolean;
}

export const WHY_DEFAULTS = { depth: 3, maxNodes: 50 } as const;

export function buildTree(k: Knowledge, start: string, direction: 'up' | 'down', depth: number, maxNodes: number): { trees: WhyTreeNode[]; truncated: boolean } {
  const next = directedNeighbours(k, direction);
  const visited = new Set([start]);
  const children = new Map<string, Array<{ id: string; kind: string }>>();
  const queue: Array<[string, number]> = [[start, 0]];
  let count = 0;
  let truncated = false;
  for (let head = 0; head < queue.length && !truncated; head++) {
    const [id, d] = queue[head]!;
    if (d >= depth) continue;
    const sorted = next(id).map((n, i) => ({ n, i })).sort((a, b) => edgePriority(a.n.edge.kind) - edgePriority(b.n.edge.kind) || a.i - b.i);
    for (const { n } of sorted) {
      if (visited.has(n.id)) continue;
      if (count >= maxNodes) { truncated = true; break; }
      visited.add(n.id);
      count++;
      if (!children.has(id)) children.set(id, []);
      children.get(id)!.push({ id: n.id, kind: n.edge.kind });
      queue.push([n.id, d + 1]);
    }
  }
  const build = (id: string): WhyTreeNode[] => (children.get(id) ?? []).map((c) => ({ ...describeNode(k, c.id), edge_kind: c.kind, children: build(c.id) }));
  return { trees: build(start), truncated };
}

export function flatten(trees: readonly WhyTreeNode[], depth = 1, out: Array<{ id: string; depth: number }> = []): Array<{ id: string; depth: number }> {
  for (const t of trees) {
    out.push({ id: t.ref_id, depth });
    flatten(t.children, depth + 1, out);
  }
  return out;
}

/** The trees and counts; doc coverage and stale counts are filled by the caller (they need docs and sync). */
export function analyse(k: Knowledge, refId: string, options: WhyOptions = {}): Omit<WhyResult, 'impact'> & { impact: Pick<WhyImpact, 'downstream_direct' | 'downstream_transitive'>; downstreamIds: string[] } {
  const id = resolveRef(k, refId).id;
  const depth = Math.max(0, Math.floor(options.depth ?? WHY_DEFAULTS.depth));
  const maxNodes = Math.max(1, Math.floor(options.maxNodes ?? WHY_DEFAULTS.maxNodes));
  const downDepth = options.reverse ? Math.max(Math.floor(depth / 2), 1) : depth;
  const up = buildTree(k, id, 'up', depth, maxNodes);
  const down = buildTree(k, id, 'down', downDepth, maxNodes);
  const flat = flatten(down.trees);
  return {
    node: describeNode(k, id),
    upstream: up.trees,
    downstream: down.trees,
    impact: { downstream_direct: flat.filter((f) => f.depth === 1).length, downstream_transitive: flat.filter((f) => f.depth > 1).length },
    depth: { upstream: depth, downstream: downDepth },
    truncated: up.truncated || down.truncated,
    downstreamIds: flat.map((f) => f.id),
  };
}

/** Plain text with box-drawing characters, for terminals, CI logs and pipes. `panel` adds a framed header. */
export function renderWhy(r: WhyResult, format: 'tree' | 'panel' = 'tree'): string {
  const head = `${r.node.ref_id} (${r.node.kind})${r.node.summary ? `: ${r.node.summary}` : ''}`;
  const lines: string[] = [];
  if (format === 'panel') {
    const inner = [' Impact analysis', ` ${head}`];
    const width = Math.max(...inner.map((l) => l.length)) + 1;
    lines.push(`┌${'─'.repeat(width)}┐`, ...inner.map((l) => `│${l.padEnd(width)}│`), `└${'─'.repeat(width)}┘`);
  } else lines.push(head);
  const tree = (title: string, trees: readonly WhyTreeNode[]) => {
    lines.push('', title);
    if (!trees.length) { lines.push('└── (none)'); return; }
    const walk = (nodes: readonly WhyTreeNode[], prefix: string) => nodes.forEach((n, i) => {
      const last = i === nodes.length - 1;
      lines.push(`${prefix}${last ? '└── ' : '├── '}[${n.edge_kind}] ${n.ref_id}${n.kind ? ` (${n.kind})` : ''}${n.summary ? `: ${n.summary}` : ''}`);
      walk(n.children, `${prefix}${last ? '    ' : '│   '}`);
    });
    walk(trees, '');
  };
  tree(`Upstream: what ${r.node.ref_id} depends on (depth ${r.depth.upstream})`, r.upstream);
  tree(`Downstream: what depends on ${r.node.ref_id} (depth ${r.depth.downstream})`, r.downstream);
  const i = r.impact;
  lines.push('', `Impact: ${i.downstream_direct} direct and ${i.downstream_transitive} transitive dependents; doc coverage ${i.doc_coverage.toFixed(0)}%; ${i.stale_count} stale doc pair${i.stale_count === 1 ? '' : 's'}${r.truncated ? ' (trees cut at max nodes)' : ''}`);
  return lines.join('\n');
}
