import { readFileSync } from 'node:fs';
import { type DefinitionHit, symbolFromQuestion } from '../../core';
import { UsageError } from '../args';
import type { Command } from './types';

/** The question text of a --from-question file: the evaluation harness's JSON (`{"question": …}`) or plain text. */
function questionText(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read --from-question ${file}: ${(e as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as { question?: unknown };
    if (typeof parsed.question === 'string') return parsed.question;
  } catch {
    // not JSON: the file is the question itself
  }
  return text;
}

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
    const symbol = fromQuestion ? symbolFromQuestion(questionText(fromQuestion)) : positionals.join(' ');
    if (!symbol.trim()) throw new UsageError('def needs a SYMBOL');
    const result = await engine.definitions(symbol, flags.limit !== undefined ? { limit: Number(flags.limit) } : {});
    out(flags.json ? JSON.stringify(result, null, 2) : result.results.map(formatDefinition).join('\n'));
    return 0;
  },
};
