import { type DefinitionHit, symbolFromQuestion } from '../../core';
import { UsageError } from '../args';
import { oneQuestion } from '../question-file';
import type { Command } from './types';

export function formatDefinition(h: DefinitionHit): string {
  return `${h.path}:${h.line}:${h.column}  ${h.kind} ${h.qualifiedName}  [${h.source}]\n    ${h.preview}`;
}

export const defCommand: Command = {
  name: 'def',
  needsIndex: true,
  summary: 'where a symbol is defined (name, Container.name or module.name)',
  usage: 'def SYMBOL [--limit N] [--from-question FILE]',
  flags: { limit: { type: 'number' }, 'from-question': { type: 'string' } },
  async run({ engine, positionals, flags, out }) {
    const fromQuestion = flags['from-question'] as string | undefined;
    if (fromQuestion && positionals.length) throw new UsageError('give either SYMBOL or --from-question, not both');
    const symbol = fromQuestion ? symbolFromQuestion(oneQuestion([], fromQuestion, '--from-question')) : positionals.join(' ');
    if (!symbol.trim()) throw new UsageError('def needs a SYMBOL');
    const result = await engine.definitions(symbol, flags.limit !== undefined ? { limit: Number(flags.limit) } : {});
    out(flags.json ? JSON.stringify(result, null, 2) : result.results.map(formatDefinition).join('\n'));
    return 0;
  },
};
