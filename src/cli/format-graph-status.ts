/** The graph section of `status` for the terminal. */
import type { GraphStatus } from '../core';

const TOP_BUNDLES = 10;

export function formatGraphStatus(g: GraphStatus): string {
  const kinds = (m: Record<string, number>) => Object.entries(m).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  const lines = [
    '',
    `graph:       ${g.graph_files.join(', ')}`,
    `nodes:       ${g.nodes} (${kinds(g.nodes_by_kind)})`,
    `edges:       ${g.edges} (${kinds(g.edges_by_kind)})`,
    `docs:        ${g.docs.covered}/${g.nodes} nodes documented (${g.docs.coverage_pct}%): ${Object.entries(g.docs.by_kind).map(([k, c]) => `${k} ${c.covered}/${c.total}`).join(', ')}`,
    `isolated:    ${g.isolated} nodes; empty summaries: ${g.empty_summaries}`,
    `doc sync:    ${g.sync.ok} ok, ${g.sync.stale} stale, ${g.sync.untracked} untracked, ${g.sync.doc_missing} doc missing`,
  ];
  for (const p of g.stale_pairs.slice(0, 10)) lines.push(`  stale: ${p.ref_id}  ${p.doc_path} <- ${p.code_path} (${p.reason})`);
  if (g.stale_pairs.length > 10) lines.push(`  … ${g.stale_pairs.length - 10} more stale pairs`);
  const b = g.bundles;
  lines.push(`bundles:     avg ${b.avg_estimate_tokens} est. tokens (chars/4, depth 1)${b.largest ? `; largest ${b.largest.ref_id} ${b.largest.estimate_tokens}` : ''}${b.failed.length ? `; failed: ${b.failed.join(', ')}` : ''}`);
  for (const n of b.per_node.slice(0, TOP_BUNDLES)) lines.push(`  ${String(n.estimate_tokens).padStart(6)} est. (${n.tokens} tokens)  ${n.ref_id} (${n.kind})`);
  if (b.per_node.length > TOP_BUNDLES) lines.push(`  … ${b.per_node.length - TOP_BUNDLES} more nodes (--json lists every one)`);
  return lines.join('\n');
}
