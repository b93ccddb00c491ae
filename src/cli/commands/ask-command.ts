import { randomUUID } from 'node:crypto';
import { type AskEvent, type AskOptions, type AskResult, collectAnswer, SOURCE_NAMES } from '../../core';
import { UsageError } from '../args';
import { formatExplain } from '../format-ask';
import { readQuestionFile } from '../question-file';
import { MODEL_FLAGS, MODEL_USAGE } from '../model-flags';
import type { Command } from './types';

export const askCommand: Command = {
  name: 'ask',
  needsIndex: true,
  summary: 'ask the oracle: an answer with citations from code, docs, git history and threads',
  usage: `ask "QUESTION" [--source code,docs,git,threads] [--explain] [--max-tokens N] [--question-file FILE] ${MODEL_USAGE} [--docs DIR] [--author NAME] [--session ID] [--past-sessions] [--no-log] [--events]`,
  flags: {
    source: { type: 'list' }, explain: { type: 'boolean' }, 'max-tokens': { type: 'number' }, 'question-file': { type: 'string' },
    ...MODEL_FLAGS,
    docs: { type: 'list' }, author: { type: 'string' }, session: { type: 'string' }, 'past-sessions': { type: 'boolean' }, 'no-log': { type: 'boolean' }, events: { type: 'boolean' },
  },
  async run({ engine, positionals, flags, out }) {
    const questions = flags['question-file'] !== undefined ? readQuestionFile(String(flags['question-file'])) : [positionals.join(' ')];
    if (positionals.length && flags['question-file'] !== undefined) throw new UsageError('give the question as an argument or with --question-file, not both');
    if (!questions[0]?.trim()) throw new UsageError('ask needs a QUESTION');
    // The flags' model reaches the engine as the user's model (main.ts); only --no-model is per call.
    const model = flags['no-model'] ? null : undefined;
    const sources = (flags.source as string[] | undefined)?.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
    const unknown = sources?.find((v) => !(SOURCE_NAMES as readonly string[]).includes(v));
    if (unknown) throw new UsageError(`unknown source "${unknown}" (sources: ${SOURCE_NAMES.join(', ')})`);
    const options: AskOptions = {
      ...(sources?.length ? { sources: sources as AskOptions['sources'] } : {}),
      ...(flags.explain ? { explain: true } : {}),
      ...(flags['max-tokens'] !== undefined ? { maxTokens: Number(flags['max-tokens']) } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(flags.docs ? { docsFolders: flags.docs as string[] } : {}),
      author: String(flags.author ?? process.env.CONTEXT_ORACLE_AUTHOR ?? 'user'),
      ...(flags['no-log'] ? { log: false } : {}),
      ...(flags['past-sessions'] ? { pastSessions: true } : {}),
      // --session continues a conversation across processes (kept in the cache folder); several questions from one
      // file share one conversation, as a session would.
      ...(flags.session !== undefined ? { session: String(flags.session) } : questions.length > 1 ? { session: `questions-${randomUUID()}` } : {}),
    };
    const results: AskResult[] = [];
    for (const question of questions) {
      const result = await runOne(engine.ask(question, options), Boolean(flags.json), Boolean(flags.events));
      results.push(result);
      if (!flags.json && !flags.events && flags.explain && result.explain) out(formatExplain(result));
    }
    if (flags.json) out(JSON.stringify(results.length === 1 ? results[0] : results, null, 2));
    return 0;
  },
};

/** Streams one answer: NDJSON events with --events, answer text as it arrives without --json, nothing with --json. */
async function runOne(stream: AsyncIterable<AskEvent>, json: boolean, events: boolean): Promise<AskResult> {
  const progress = !json && !events && process.stderr.isTTY;
  const result = await collectAnswer(stream, (e) => {
    if (events) process.stdout.write(`${JSON.stringify(e)}\n`);
    else if (!json) {
      if (e.type === 'answer') process.stdout.write(e.delta);
      else if (progress && e.type === 'phase') process.stderr.write(`\x1b[2K\r${e.message}…`);
      else if (progress && e.type === 'citations') process.stderr.write('\x1b[2K\r');
    }
  });
  if (progress) process.stderr.write('\x1b[2K\r');
  if (!json && !events && !result.answer.endsWith('\n')) process.stdout.write('\n');
  return result;
}
