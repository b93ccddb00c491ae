/**
 * The JSON export of a context: the shape documented in docs/context-format.md, stable for scripts and agents.
 * `files` is the ranked list ({path, line, score}) that retrieval harnesses read.
 */
import type { ContextResult } from './types';

export interface ContextJson {
  question: string;
  token_count: number;
  /** Rendering of `text` (mu unless markdown was asked for). */
  text_format: 'mu' | 'markdown';
  entities: ContextResult['entities'];
  nodes: ContextResult['nodes'];
  files: ContextResult['files'];
  text: string;
  stats: ContextResult['stats'];
  cut: ContextResult['cut'];
  empty?: string;
}

export function toContextJson(result: ContextResult): ContextJson {
  return {
    question: result.question,
    token_count: result.tokenCount,
    text_format: result.format === 'markdown' ? 'markdown' : 'mu',
    entities: result.entities,
    nodes: result.nodes,
    files: result.files,
    text: result.text,
    stats: result.stats,
    cut: result.cut,
    ...(result.empty ? { empty: result.empty } : {}),
  };
}
