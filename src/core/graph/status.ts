/**
 * The graph's part of `status`, as beadloom's status reports it (application/status.py): nodes and edges by kind,
 * docs coverage overall and by kind, isolated nodes, empty summaries, stale doc↔code pairs, and the size of each
 * node's context bundle (depth 1, 10 nodes, 5 chunks) by `estimate_tokens` (characters / 4) and by the tokenizer.
 */
import type { SyncReport } from '../docs/sync';
import type { Knowledge } from './knowledge';

export interface NodeBundleSize {
  ref_id: string;
  kind: string;
  /** beadloom's estimate_tokens: characters of the bundle's JSON / 4, rounded down. */
  estimate_tokens: number;
  /** o200k_base tokens of the same JSON. */
  tokens: number;
}

export interface GraphStatus {
  graph_files: string[];
  nodes: number;
  edges: number;
  nodes_by_kind: Record<string, number>;
  edges_by_kind: Record<string, number>;
  /** Nodes with at least one doc that exists. */
  docs: { covered: number; coverage_pct: number; by_kind: Record<string, { covered: number; total: number }> };
  isolated: number;
  empty_summaries: number;
  sync: SyncReport['counts'];
  stale_pairs: Array<{ ref_id: string; doc_path: string; code_path: string; reason: string }>;
  /** Bundle sizes, largest first; the average and the largest by estimate_tokens. */
  bundles: { per_node: NodeBundleSize[]; avg_estimate_tokens: number; largest: NodeBundleSize | null; failed: string[] };
}

/** The bundle parameters beadloom's status measures with. */
export const STATUS_BUNDLE = { depth: 1, maxNodes: 10, maxChunks: 5 } as const;

const BUNDLE_CONCURRENCY = 4;

export function estimateTokens(text: string): number {
  return Math.floor(text.length / 4);
}

export async function graphStatus(
  k: Knowledge,
  sync: SyncReport,
  bundleSize: (refId: string) => Promise<{ json: string; tokens: number }>,
): Promise<GraphStatus> {
  const count = (keys: Iterable<string>): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const key of keys) out[key] = (out[key] ?? 0) + 1;
    return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  };
  const nodes = [...k.graph.nodes.values()];
  const byKind: Record<string, { covered: number; total: number }> = {};
  let covered = 0;
  for (const n of nodes) {
    const entry = (byKind[n.kind] ??= { covered: 0, total: 0 });
    entry.total++;
    let has = false;
    for (const p of await k.docs.expand(n.docs)) if ((await k.docs.get(p)).exists) { has = true; break; }
    if (has) { covered++; entry.covered++; }
  }
  const per: NodeBundleSize[] = [];
  const failed: string[] = [];
  // A few at a time: each bundle waits on one `git log` for its activity, and those overlap well.
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < nodes.length) {
      const n = nodes[next++]!;
      try {
        const { json, tokens } = await bundleSize(n.ref_id);
        per.push({ ref_id: n.ref_id, kind: n.kind, estimate_tokens: estimateTokens(json), tokens });
      } catch {
        failed.push(n.ref_id);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BUNDLE_CONCURRENCY, nodes.length) }, worker));
  failed.sort();
  per.sort((a, b) => b.estimate_tokens - a.estimate_tokens || a.ref_id.localeCompare(b.ref_id));
  return {
    graph_files: k.graph.files,
    nodes: nodes.length,
    edges: k.graph.edges.length,
    nodes_by_kind: count(nodes.map((n) => n.kind)),
    edges_by_kind: count(k.graph.edges.map((e) => e.kind)),
    docs: { covered, coverage_pct: nodes.length ? Math.round((covered / nodes.length) * 1000) / 10 : 0, by_kind: byKind },
    isolated: nodes.filter((n) => !k.graph.out.get(n.ref_id)?.length && !k.graph.in.get(n.ref_id)?.length).length,
    empty_summaries: nodes.filter((n) => !n.summary).length,
    sync: sync.counts,
    stale_pairs: sync.pairs.filter((p) => p.status === 'stale').map((p) => ({ ref_id: p.ref_id, doc_path: p.doc_path, code_path: p.code_path, reason: p.reason })),
    bundles: {
      per_node: per,
      avg_estimate_tokens: per.length ? Math.floor(per.reduce((s, b) => s + b.estimate_tokens, 0) / per.length) : 0,
      largest: per[0] ?? null,
      failed,
    },
  };
}
