import { readFileSync } from 'node:fs';
import {
  EngineError, type GoldenQuestion, type GoldenScore, parseGoldenLine, scoreGolden, summariseGolden,
} from '../../core';
import { UsageError } from '../args';
import { CONTEXT_FLAGS, contextOptions } from './context-command';
import type { Command } from './types';

function parseKs(flag: unknown): number[] {
  if (flag === undefined) return [1, 5, 10];
  const ks = String(flag).split(',').map((k) => Number(k.trim()));
  if (!ks.length || ks.some((k) => !Number.isInteger(k) || k < 1)) throw new UsageError(`--k takes positive integers separated by commas, got "${String(flag)}"`);
  return [...new Set(ks)].sort((a, b) => a - b);
}

const pct = (x: number): string => x.toFixed(3);

export const evalCommand: Command = {
  name: 'eval',
  needsIndex: true,
  summary: 'score smart context on your own golden questions (recall@k, MRR, tokens per hit)',
  usage: 'eval FILE.jsonl [--k 1,5,10] [--max-tokens N] [--verbose]   (lines: {"question", "files": [...], "symbols": [...]})',
  flags: { ...CONTEXT_FLAGS, k: { type: 'string' } },
  async run({ engine, positionals, flags, out }) {
    const file = positionals[0];
    if (!file || positionals.length > 1) throw new UsageError('eval needs exactly one FILE.jsonl');
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
    }
    const ks = parseKs(flags.k);
    const options = contextOptions(flags);
    const questions: GoldenQuestion[] = [];
    const skipped: string[] = [];
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      try {
        questions.push(parseGoldenLine(line, i + 1));
      } catch (e) {
        if (!EngineError.is(e, 'invalid_input')) throw e;
        skipped.push(e.message);
      }
    });
    for (const s of skipped) process.stderr.write(`skipped ${s}\n`);
    if (!questions.length) throw new EngineError('invalid_input', `${file} has no usable questions (${skipped.length} skipped)`);
    const scores: GoldenScore[] = [];
    for (const q of questions) {
      const result = await engine.getContextForQuestion(q.question, options);
      scores.push(scoreGolden(q, result, ks));
      if (flags.verbose && !flags.json) {
        const s = scores[scores.length - 1]!;
        process.stderr.write(`${ks.map((k) => `R@${k} ${pct(s.recall[k]!)}`).join(' ')} RR ${pct(s.reciprocalRank)} ${s.tokens} tok  ${q.question.split('\n')[0]!.slice(0, 80)}${s.missing.length ? `  (missing: ${s.missing.join(', ')})` : ''}\n`);
      }
    }
    const summary = summariseGolden(scores, ks);
    if (flags.json) {
      out(JSON.stringify({ summary, skipped, questions: scores }, null, 2));
      return 0;
    }
    out([
      `questions: ${summary.questions}${skipped.length ? ` (${skipped.length} lines skipped)` : ''}`,
      ...ks.map((k) => `recall@${k}: ${pct(summary.recall[k]!)}`),
      `MRR: ${pct(summary.mrr)}`,
      `tokens per hit: ${summary.tokensPerHit ?? 'n/a (no expected item reached the context)'}`,
      `questions with no expected item in the context: ${summary.misses}`,
    ].join('\n'));
    return 0;
  },
};
