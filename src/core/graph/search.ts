/**
 * Full-text search over graph nodes (ref_id, kind, summary, tags) and the doc chunks linked to them, with
 * snippets. Small enough to scan: a term hit in a ref_id or heading weighs more than one in the text.
 */
import { queryTerms } from '../search/full-text';
import type { Knowledge } from './knowledge';

export interface KnowledgeHit {
  kind: 'node' | 'doc';
  /** The node (for doc hits: the node the doc documents). */
  ref_id: string;
  node_kind?: string;
  path?: string;
  line?: number;
  heading?: string;
  section?: string;
  score: number;
  snippet: string;
}

export interface KnowledgeSearchOptions {
  kind?: 'node' | 'doc';
  /** Only nodes of this kind (domain, feature, service, …) and the docs of such nodes, as beadloom's `search --kind`. */
  nodeKind?: string;
  limit?: number;
}

export async function searchKnowledge(k: Knowledge, query: string, options: KnowledgeSearchOptions = {}): Promise<KnowledgeHit[]> {
  const terms = queryTerms(query);
  if (!terms.length) return [];
  const score = (fields: Array<[string, number]>) => {
    let s = 0;
    for (const t of terms) for (const [text, w] of fields) if (text.toLowerCase().includes(t)) s += w;
    return s;
  };
  const hits: KnowledgeHit[] = [];
  const nodes = [...k.graph.nodes.values()].filter((n) => options.nodeKind === undefined || n.kind === options.nodeKind);
  if (options.kind !== 'doc') {
    for (const n of nodes) {
      const s = score([[n.ref_id, 4], [n.summary, 2], [n.kind, 1], [n.tags.join(' '), 1]]);
      if (s) hits.push({ kind: 'node', ref_id: n.ref_id, node_kind: n.kind, path: n.at.file, line: n.at.line, score: s, snippet: n.summary });
    }
  }
  if (options.kind !== 'node') {
    const seen = new Set<string>();
    for (const n of nodes) {
      for (const path of await k.docs.expand(n.docs)) {
        if (seen.has(path)) continue;
        seen.add(path);
        for (const c of (await k.docs.get(path)).chunks) {
          const s = score([[c.heading, 3], [c.content, 1]]);
          if (s) hits.push({ kind: 'doc', ref_id: n.ref_id, path, line: c.line, heading: c.heading, section: c.section, score: s, snippet: snippet(c.content, terms) });
        }
      }
    }
  }
  hits.sort((a, b) => b.score - a.score || (a.kind === b.kind ? 0 : a.kind === 'node' ? -1 : 1) || a.ref_id.localeCompare(b.ref_id) || (a.line ?? 0) - (b.line ?? 0));
  return hits.slice(0, Math.max(1, Math.min(options.limit ?? 20, 500)));
}

function snippet(text: string, terms: readonly string[]): string {
  const lines = text.split('\n');
  const i = Math.max(0, lines.findIndex((l) => terms.some((t) => l.toLowerCase().includes(t))));
  return lines.slice(i, i + 3).join('\n').slice(0, 300);
}

/** Terminal rendering of knowledge hits (search --kind node|doc). */
export function formatKnowledgeHits(hits: readonly KnowledgeHit[]): string {
  if (!hits.length) return 'no matches';
  return hits.map((h) => {
    const head = h.kind === 'node'
      ? `node ${h.ref_id}${h.node_kind ? ` (${h.node_kind})` : ''}  ${h.path}:${h.line}  (${h.score})`
      : `doc ${h.path}:${h.line}  ${h.heading || '(introduction)'} [${h.section}] → ${h.ref_id}  (${h.score})`;
    return `${head}\n${h.snippet.split('\n').map((l) => `    ${l}`).join('\n')}`;
  }).join('\n');
}
