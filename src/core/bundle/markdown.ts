/** A context bundle as Markdown, for people and for pasting into a chat. */
import type { ContextBundle } from './types';

export function bundleToMarkdown(b: ContextBundle, tokens: number): string {
  const out: string[] = [];
  const f = b.focus;
  out.push(`# ${f.ref_id}${f.kind ? ` (${f.kind})` : ''}`);
  if (f.summary) out.push('', f.summary);
  if (f.links?.length) out.push('', `Links: ${f.links.map((l) => (l.label ? `[${l.label}](${l.url})` : l.url)).join(', ')}`);
  if (f.activity) out.push('', `Activity: ${f.activity.level} (${f.activity.commits_30d} commits in 30 days)`);
  if (b.warning) out.push('', `> warning: ${b.warning}`);
  out.push('', '## Graph', '', ...b.graph.nodes.map((n) => `- **${n.ref_id}**${n.kind ? ` (${n.kind})` : ''}${n.summary ? `: ${n.summary}` : ''}`));
  if (b.graph.edges.length) out.push('', ...b.graph.edges.map((e) => `- ${e.src} —${e.kind}→ ${e.dst}`));
  if (b.text_chunks.length) {
    out.push('', '## Documentation');
    for (const c of b.text_chunks) out.push('', `### ${c.heading || '(introduction)'} · ${c.section} · ${c.doc_path}`, '', c.content);
  }
  if (b.code_symbols.length) out.push('', '## Code', '', ...b.code_symbols.map((s) => `- \`${s.file_path}:${s.line_start}-${s.line_end}\` ${s.kind} ${s.symbol_name}`));
  if (b.routes.length) out.push('', '## Routes', '', ...b.routes.map((r) => `- ${r.method} ${r.path} → ${r.handler} (\`${r.file}:${r.line}\`)`));
  if (b.tests) out.push('', '## Tests', '', `${b.tests.framework}: ${b.tests.test_count} tests in ${b.tests.test_files.length} files, coverage ${b.tests.coverage_estimate}`, ...b.tests.test_files.map((t) => `- ${t}`));
  if (b.constraints.length) out.push('', '## Constraints', '', ...b.constraints.map((c) => `- ${c.type} **${c.rule}**${c.description ? `: ${c.description}` : ''}`));
  out.push('', '## Sync', '', `last reindex: ${b.sync_status.last_reindex ?? 'never'}`);
  for (const s of b.sync_status.stale_docs) out.push(`- stale: ${s.doc_path} (code ${s.code_path} changed since)`);
  out.push('', `_${tokens} tokens_`);
  return out.join('\n');
}
