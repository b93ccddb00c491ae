import { UsageError } from '../args';
import type { Command } from './types';

export const refsCommand: Command = {
  name: 'refs',
  needsIndex: true,
  summary: 'references to a symbol, nearest importers first',
  usage: 'refs SYMBOL [--limit N]',
  flags: { limit: { type: 'number' } },
  async run({ engine, positionals, flags, out }) {
    const symbol = positionals.join(' ');
    if (!symbol.trim()) throw new UsageError('refs needs a SYMBOL');
    const result = await engine.references(symbol, flags.limit !== undefined ? { limit: Number(flags.limit) } : {});
    if (flags.json) {
      out(JSON.stringify(result, null, 2));
      return 0;
    }
    const d = result.definition;
    const others = result.otherDefinitions ? ` (${result.otherDefinitions} other definitions not included)` : '';
    const shown = result.results.length < result.total ? `, showing ${result.results.length}` : '';
    const lines = [`${result.total} references to ${d.qualifiedName} (${d.path}:${d.line}) from the ${result.source}${shown}${others}`];
    for (const r of result.results) lines.push(`${r.path}:${r.line}:${r.column}  ${r.kind.padEnd(14)} ${r.preview}`);
    out(lines.join('\n'));
    return 0;
  },
};
