/**
 * Scoring a user's own golden questions (question → expected files and/or symbols) against smart context:
 * recall@k and MRR over the ranked files (and over the context's symbols), and tokens spent per expected item
 * the context text actually contains.
 */
import { EngineError } from '../errors';
import type { ContextResult } from './types';

export interface GoldenQuestion {
  question: string;
  /** Workspace-relative files the answer should rank. */
  files: string[];
  /** Symbols (`name` or `Container.name`) the context should hold. */
  symbols: string[];
}

export interface GoldenScore {
  question: string;
  /** Recall at each k over expected files and symbols together. */
  recall: Record<number, number>;
  /** 1 / rank of the first expected item found (0 when none). */
  reciprocalRank: number;
  /** Expected items present in the context text. */
  hits: number;
  expected: number;
  tokens: number;
  missing: string[];
}

export interface GoldenSummary {
  questions: number;
  recall: Record<number, number>;
  mrr: number;
  /** Context tokens spent per expected item included (total tokens / total hits); null when nothing was hit. */
  tokensPerHit: number | null;
  /** Questions whose context contained no expected item. */
  misses: number;
}

/** Parses one JSONL line: `{question, files?, symbols?}` (also `expected: {files, symbols}` or `gt: {files}`). */
export function parseGoldenLine(line: string, lineNo: number): GoldenQuestion {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    throw new EngineError('invalid_input', `line ${lineNo}: not JSON`);
  }
  const o = (raw ?? {}) as Record<string, unknown>;
  const nested = (o.expected ?? o.gt ?? {}) as Record<string, unknown>;
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length > 0) : typeof v === 'string' && v ? [v] : []);
  const files = [...list(o.files), ...list(nested.files), ...list(o.file), ...list(nested.file)].map((f) => f.replace(/\\/g, '/').replace(/^\.\//, ''));
  const symbols = [...list(o.symbols), ...list(nested.symbols)];
  if (typeof o.question !== 'string' || !o.question.trim()) throw new EngineError('invalid_input', `line ${lineNo}: no "question" string`);
  if (!files.length && !symbols.length) throw new EngineError('invalid_input', `line ${lineNo}: no expected "files" or "symbols"`);
  return { question: o.question, files: [...new Set(files)], symbols: [...new Set(symbols)] };
}

const symbolMatches = (wanted: string, got: string | undefined): boolean =>
  got !== undefined && (got === wanted || got.endsWith(`.${wanted}`) || wanted.endsWith(`.${got}`));

export function scoreGolden(q: GoldenQuestion, result: ContextResult, ks: readonly number[]): GoldenScore {
  const files = [...new Set(result.files.map((f) => f.path))];
  const symbols = result.nodes.filter((n) => n.reason !== 'class context').map((n) => n.symbol);
  const ranks: number[] = [];
  const missing: string[] = [];
  for (const f of q.files) {
    const i = files.indexOf(f);
    if (i >= 0) ranks.push(i + 1);
    else missing.push(f);
  }
  for (const s of q.symbols) {
    const i = symbols.findIndex((got) => symbolMatches(s, got));
    if (i >= 0) ranks.push(i + 1);
    else missing.push(s);
  }
  const expected = q.files.length + q.symbols.length;
  const inText = new Set(result.nodes.map((n) => n.path));
  const hits = q.files.filter((f) => inText.has(f)).length + q.symbols.filter((s) => result.nodes.some((n) => symbolMatches(s, n.symbol))).length;
  const recall: Record<number, number> = {};
  for (const k of ks) recall[k] = ranks.filter((r) => r <= k).length / expected;
  return { question: q.question, recall, reciprocalRank: ranks.length ? 1 / Math.min(...ranks) : 0, hits, expected, tokens: result.tokenCount, missing };
}

export function summariseGolden(scores: GoldenScore[], ks: readonly number[]): GoldenSummary {
  const n = scores.length || 1;
  const recall: Record<number, number> = {};
  for (const k of ks) recall[k] = round(scores.reduce((a, s) => a + (s.recall[k] ?? 0), 0) / n);
  const hits = scores.reduce((a, s) => a + s.hits, 0);
  const tokens = scores.reduce((a, s) => a + s.tokens, 0);
  return {
    questions: scores.length,
    recall,
    mrr: round(scores.reduce((a, s) => a + s.reciprocalRank, 0) / n),
    tokensPerHit: hits ? Math.round(tokens / hits) : null,
    misses: scores.filter((s) => s.hits === 0).length,
  };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;
