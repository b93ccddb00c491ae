import type { QueryEnvelope } from '../../core';
import type { Command } from './types';

function formatEnvelope(e: QueryEnvelope): string {
  if (e.status === 'error') return Object.values(e.errors ?? {}).flat().map((x) => `error (${x.code}): ${x.message}`).join('\n');
  const r = e.result!;
  if (!r.concepts.length) return 'no matching concepts';
  const lines = r.concepts.map((c) => `${String(c.id).padStart(3)}  ${c.relevance.padEnd(8)} ${c.name}${c.type ? ` (${c.type})` : ''}`);
  lines.push('', ...r.files.map((f) => `${f.url}  [${f.concepts.join(', ')}]`));
  return lines.join('\n');
}

/** Prints the seed's envelope with --json; exits 1 when its status is error. */
export const queryCommand: Command = {
  name: 'query',
  needsIndex: true,
  summary: 'concept query: matching nodes and symbols, their neighbours and files',
  usage: 'query TERM [--depth N] [--limit N]',
  flags: { depth: { type: 'number' }, limit: { type: 'number' } },
  async run({ engine, positionals, flags, out }) {
    const envelope = await engine.conceptQuery(positionals.join(' '), {
      ...(flags.depth !== undefined ? { depth: Number(flags.depth) } : {}),
      ...(flags.limit !== undefined ? { limit: Number(flags.limit) } : {}),
    });
    out(flags.json ? JSON.stringify(envelope, null, 2) : formatEnvelope(envelope));
    return envelope.status === 'success' ? 0 : 1;
  },
};
