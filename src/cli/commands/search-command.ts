import { UsageError } from '../args';
import { formatHits } from '../format';
import { formatKnowledgeHits, VALID_NODE_KINDS } from '../../core';
import type { Command } from './types';

export const searchCommand: Command = {
  name: 'search',
  needsIndex: true,
  summary: 'full-text search over code (identifier-aware, BM25-ranked); graph nodes and docs with --kind node|doc|domain|feature|…',
  usage: 'search QUERY [--kind K|node|doc|domain|feature|component|service|entity|adr] [--limit N]',
  flags: { kind: { type: 'string' }, limit: { type: 'number' } },
  async run({ engine, positionals, flags, out }) {
    const query = positionals.join(' ');
    if (!query.trim()) throw new UsageError('search needs a QUERY');
    // Graph nodes and their docs are searched by the knowledge-graph capability (src/core/graph/search.ts).
    // A node kind (beadloom's `search --kind domain`) filters graph nodes and their docs by that kind.
    const nodeKind = typeof flags.kind === 'string' && VALID_NODE_KINDS.includes(flags.kind) ? flags.kind : undefined;
    if (flags.kind === 'node' || flags.kind === 'doc' || nodeKind) {
      const found = await engine.searchKnowledge(query, {
        ...(nodeKind ? { nodeKind } : { kind: flags.kind as 'node' | 'doc' }),
        ...(flags.limit !== undefined ? { limit: Number(flags.limit) } : {}),
      });
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
