import { UsageError } from '../args';
import { formatHits } from '../format';
import { formatKnowledgeHits } from '../../core/graph/search';
import type { Command } from './types';

export const searchCommand: Command = {
  name: 'search',
  needsIndex: true,
  summary: 'full-text search over code (identifier-aware, BM25-ranked)',
  usage: 'search QUERY [--kind K|node|doc] [--limit N]',
  flags: { kind: { type: 'string' }, limit: { type: 'number' } },
  async run({ engine, positionals, flags, out }) {
    const query = positionals.join(' ');
    if (!query.trim()) throw new UsageError('search needs a QUERY');
    // Graph nodes and their docs are searched by the knowledge-graph capability (src/core/graph/search.ts).
    if (flags.kind === 'node' || flags.kind === 'doc') {
      const found = await engine.searchKnowledge(query, { kind: flags.kind, ...(flags.limit !== undefined ? { limit: Number(flags.limit) } : {}) });
      out(flags.json ? JSON.stringify({ query, results: found }, null, 2) : formatKnowledgeHits(found));
      return 0;
    }
    const hits = await engine.search(query, {
      ...(flags.kind ? { kind: String(flags.kind) } : {}),
      ...(flags.limit !== undefined ? { limit: Number(flags.limit) } : {}),
    });
    out(flags.json ? JSON.stringify({ query, results: hits }, null, 2) : formatHits(hits));
    return 0;
  },
};
