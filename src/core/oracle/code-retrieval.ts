/**
 * What the oracle needs from code intelligence, as one small interface the engine fills with its capabilities
 * (smart context, exact navigation, the repo map). The oracle never queries the index tables for these itself.
 */
import type { Question } from '../question/analysis';
import type { RetrievalMethod } from './types';
import type { ExplainSignalRow } from './types';

export interface CodeHit {
  path: string;
  /** 1-based inclusive range of the chunk, definition or reference. */
  line: number;
  endLine: number;
  /** For a reference: the line of the name. */
  focusLine?: number;
  symbol?: string;
  kind: string;
  signature?: string;
  /** Higher is better, on the path's own scale. */
  score: number;
  method: Extract<RetrievalMethod, 'definition' | 'references' | 'context' | 'fulltext'>;
  /** Where the hit came from, for --explain (`lsp`, `index`, `full-text`). */
  via?: string;
}

export interface TermStats {
  /** Documents (chunks) in the corpus. */
  docs: number;
  /** Documents holding each term. */
  df: Record<string, number>;
  /**
   * Names in the project made wholly of the question's words (symbols, folders, files): the question uses the
   * project's own terms. Empty for "What is the meaning of life?" next to a `life_clause`.
   */
  named?: string[];
}

export interface IndexState {
  exists: boolean;
  /** Epoch ms of the last index run. */
  updatedAt?: number;
  /** Modification time each given file had when it was indexed (files the index does not hold are absent). */
  indexedMtimes: Record<string, number>;
}

export interface CodeRetrieval {
  /** One line per capability in use, e.g. `code search: full-text (searchChunks)`, for --explain and the report. */
  readonly wiring: string[];
  /** Why code cannot be searched (no index yet, unreadable index), or undefined when it can. */
  unavailable(): Promise<string | undefined>;
  /** Commit queued file changes the question mentions before answering (just-in-time indexing), when supported. */
  prepare?(question: string): Promise<void>;
  /** Smart context for the question (ranked code with scores), from the analysis the oracle made of it. */
  context(question: Question, maxTokens: number, signal?: AbortSignal): Promise<CodeHit[]>;
  /** The per-signal scores behind the last `context` call's nodes (for --explain), when the engine has smart context. */
  contextSignals?(): ExplainSignalRow[];
  /** Exact definitions of a name (code navigation). */
  definitions(name: string, limit: number, signal?: AbortSignal): Promise<CodeHit[]>;
  /** Exact references to a name (code navigation). */
  references(name: string, limit: number, signal?: AbortSignal): Promise<CodeHit[]>;
  /** The repo map around `files`, rendered, when the engine has a repo map. */
  repoMapSlice?(files: string[], maxTokens: number): Promise<string | undefined>;
  termStats(terms: string[]): Promise<TermStats>;
  indexState(paths: string[]): Promise<IndexState>;
}
