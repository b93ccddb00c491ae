import {
  type ContextFormat, type ContextOptions, type ContextResult, type ContextWeights, type EmbeddingSettings,
  type SignalScores, toContextJson,
} from '../../core';
import { loadUserConfigFile, userConfigPath } from '../../node/user-config';
import { UsageError, type FlagSpec } from '../args';
import { redactionLine } from '../format';
import { oneQuestion } from '../question-file';
import type { Command } from './types';

/** Flags shared by `context` and `eval`: ranking, budget and the optional embeddings endpoint. */
export const CONTEXT_FLAGS: Record<string, FlagSpec> = {
  'max-tokens': { type: 'number' },
  'max-files': { type: 'number' },
  'min-relevance': { type: 'number' },
  'exclude-tests': { type: 'boolean' },
  weight: { type: 'list' },
  'embeddings-url': { type: 'string' },
  'embeddings-model': { type: 'string' },
  'embeddings-key-env': { type: 'string' },
  'embeddings-dimensions': { type: 'number' },
};

const WEIGHT_NAMES = ['entity', 'vector', 'proximity', 'bm25File', 'bm25Chunk', 'focus', 'path', 'mentionRef', 'coverage'];

/**
 * Embeddings come from the user only: flags, else CONTEXT_ORACLE_EMBEDDINGS_{URL,MODEL,KEY_ENV,DIMENSIONS}, else
 * `embeddings` in the user config file; never from the workspace. URL and model are both needed.
 */
function embeddingSettings(flags: Record<string, unknown>): EmbeddingSettings | undefined {
  const env = process.env;
  const baseUrl = (flags['embeddings-url'] as string | undefined) ?? env.CONTEXT_ORACLE_EMBEDDINGS_URL;
  const model = (flags['embeddings-model'] as string | undefined) ?? env.CONTEXT_ORACLE_EMBEDDINGS_MODEL;
  if (!baseUrl && !model) return loadUserConfigFile(userConfigPath()).embeddings;
  if (!baseUrl || !model) throw new UsageError('embeddings need both a URL (--embeddings-url) and a model (--embeddings-model)');
  const keyEnv = (flags['embeddings-key-env'] as string | undefined) ?? env.CONTEXT_ORACLE_EMBEDDINGS_KEY_ENV;
  const dims = flags['embeddings-dimensions'] ?? env.CONTEXT_ORACLE_EMBEDDINGS_DIMENSIONS;
  return { baseUrl, model, ...(keyEnv ? { apiKeyEnv: keyEnv } : {}), ...(dims !== undefined ? { dimensions: Number(dims) } : {}) };
}

export function contextOptions(flags: Record<string, unknown>): ContextOptions {
  const weights: Partial<ContextWeights> = {};
  for (const w of (flags.weight as string[] | undefined) ?? []) {
    const m = /^(\w+)=([0-9.]+)$/.exec(w);
    if (!m || !WEIGHT_NAMES.includes(m[1]!)) throw new UsageError(`--weight takes NAME=NUMBER with NAME one of ${WEIGHT_NAMES.join(', ')}; got "${w}"`);
    weights[m[1] as keyof ContextWeights] = Number(m[2]);
  }
  const embeddings = embeddingSettings(flags);
  return {
    ...(flags['max-tokens'] !== undefined ? { maxTokens: Number(flags['max-tokens']) } : {}),
    ...(flags['max-files'] !== undefined ? { maxFiles: Number(flags['max-files']) } : {}),
    ...(flags['min-relevance'] !== undefined ? { minRelevance: Number(flags['min-relevance']) } : {}),
    ...(flags['exclude-tests'] ? { excludeTests: true } : {}),
    ...(Object.keys(weights).length ? { weights } : {}),
    ...(embeddings ? { embeddings } : {}),
  };
}

const SIGNALS: (keyof SignalScores)[] = ['entity', 'bm25File', 'bm25Chunk', 'focus', 'coverage', 'path', 'mentionRef', 'proximity', 'vector'];
const signalCells = (s: SignalScores): string => SIGNALS.map((k) => `${k} ${s[k].toFixed(2)}`).join('  ');

export function formatStages(r: ContextResult): string {
  const s = r.stats;
  return [
    `entities: ${r.entities.map((e) => e.text).join(', ') || '(none)'} (${s.entities})`,
    `seeds (named symbols): ${s.seeds}`,
    `expanded (candidate files): ${s.expanded}`,
    `scored (above cut-off): ${s.scored}`,
    `selected nodes: ${s.selected}`,
    `tokens: ${s.tokensUsed} / ${s.budget} (call-site reserve ${s.callSiteReserve})`,
    `vectors: ${s.vectors}`,
    `time: ${s.durationMs} ms`,
  ].join('\n');
}

export function formatExplain(r: ContextResult): string {
  const lines = ['', "-- explain: files in the fitted ranker's order (today's score, then signals 0..1 before weighting) --"];
  for (const f of r.files) {
    lines.push(`${f.score.toFixed(3).padStart(7)}  ${f.path}:${f.line}  ${signalCells(f.signals)}`);
    // The order is the fitted model's; its score and largest weight × feature terms say why a file moved.
    if (f.fitted) lines.push(`         fitted ${f.fitted.score.toFixed(3)}: ${f.fitted.top.map((c) => `${c.feature} ${c.value >= 0 ? '+' : ''}${c.value.toFixed(2)}`).join('  ')}`);
  }
  lines.push('-- explain: nodes --');
  for (const n of r.nodes) lines.push(`${n.score.toFixed(3).padStart(7)}  ${n.id}  [${n.reason}, ${n.tokens} tokens]  ${signalCells(n.signals)}`);
  lines.push('-- explain: cut by the budget --');
  if (!r.cut.length) lines.push('(nothing)');
  for (const c of r.cut) lines.push(`${c.score.toFixed(3).padStart(7)}  ${c.id}  ${c.reason === 'trimmed' ? 'shown as signature only' : 'left out'} (${c.estimated ? '~' : ''}${c.tokens} tokens in full)`);
  lines.push(`-- explain: ${redactionLine(r.stats.redacted)} --`);
  return lines.join('\n');
}

export const contextCommand: Command = {
  name: 'context',
  needsIndex: true,
  summary: 'smart context for a question: ranked files and code within a token budget',
  usage: 'context QUESTION [--question-file FILE] [--max-tokens N] [--format mu|json|markdown] [--explain] [--verbose]',
  flags: { ...CONTEXT_FLAGS, 'question-file': { type: 'string' }, format: { type: 'string' }, explain: { type: 'boolean' } },
  async run({ engine, positionals, flags, out }) {
    const question = oneQuestion(positionals, flags['question-file']);
    if (!question.trim()) throw new UsageError('context needs a QUESTION');
    const format = (flags.json ? 'json' : String(flags.format ?? 'mu')) as ContextFormat;
    if (!['mu', 'json', 'markdown'].includes(format)) throw new UsageError(`--format must be mu, json or markdown, got "${format}"`);
    const result = await engine.getContextForQuestion(question, { ...contextOptions(flags), format, ...(flags.explain ? { explain: true } : {}) });
    if (flags.verbose) process.stderr.write(`${formatStages(result)}\n`);
    if (format === 'json') {
      out(JSON.stringify(toContextJson(result), null, 2));
      return 0;
    }
    out(result.text || `(no context: ${result.empty ?? 'nothing fits the budget'})`);
    if (flags.explain) out(formatExplain(result));
    return 0;
  },
};
