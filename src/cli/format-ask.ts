/** Terminal rendering of the oracle's --explain data (the answer itself streams as it is made). */
import type { AskResult } from '../core';
import { redactionLine } from './format';

export function formatExplain(r: AskResult): string {
  const x = r.explain;
  if (!x) return '';
  const lines = ['', '── explain ──', `question kind: ${r.analysis.kind}${r.analysis.subject ? ` (subject ${r.analysis.subject})` : ''}; terms: ${r.analysis.terms.join(', ') || 'none'}`];
  lines.push('wiring:', ...x.wiring.map((w) => `  ${w}`));
  lines.push('retrieval paths:');
  for (const p of x.paths) lines.push(`  ${p.source}/${p.method}: ${p.candidates} candidates in ${p.ms} ms${p.note ? ` (${p.note})` : ''}`);
  for (const s of r.sources) if (s.status !== 'ok') lines.push(`  ${s.source}: ${s.status}${s.reason ? ` — ${s.reason}` : ''}`);
  lines.push(`relevance gate: best ${x.gate.best} (cut-off ${x.gate.cutoff})`, 'candidates (relevance / path score):');
  for (const c of x.candidates.slice(0, 25)) lines.push(`  ${c.relevance.toFixed(2)} ${c.score.toFixed(2)}  ${c.source}/${c.method}  ${c.key}  ${c.title}`);
  lines.push('rerank:');
  for (const d of x.rerank.slice(0, 25)) lines.push(`  ${d.key}: ${d.before} → ${d.after} (${d.why})`);
  lines.push(`budget: ${r.stats.contextTokens} of ${r.stats.budget} tokens; cut ${x.budgetCut.length ? x.budgetCut.map((c) => `${c.key} (${c.tokens})`).join(', ') : 'nothing'}`);
  if (x.repoMap) lines.push(`repo map slice: ${x.repoMap.tokens} tokens${x.repoMap.note ? ` (${x.repoMap.note})` : ''}`);
  if (x.conversation) lines.push(`conversation: ${x.conversation.exchanges} exchanges, ${x.conversation.compressed} compressed, ${x.conversation.tokens} tokens`);
  const age = x.index.ageMs !== undefined ? `${Math.round(x.index.ageMs / 1000)} s old` : 'age unknown';
  lines.push(`index: ${x.index.exists ? `updated ${x.index.updatedAt ?? '?'} (${age})` : 'none'}; changed since indexed: ${x.index.staleFiles.join(', ') || 'none'}`);
  lines.push(`timing: first evidence ${r.stats.firstEvidenceMs ?? '-'} ms, total ${r.stats.totalMs} ms; citations dropped: ${r.stats.droppedCitations}, invented by the model and removed: ${r.stats.inventedCitations}`);
  lines.push(redactionLine(x.redacted));
  return lines.join('\n');
}
