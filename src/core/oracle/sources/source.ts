/** What every evidence source shares: its inputs, its output, and how it says it cannot run. */
import type { Clock, FileSystem, Git, Logger } from '../../ports';
import type { Question } from '../../question/analysis';
import type { CodeRetrieval, TermStats } from '../code-retrieval';
import type { FileCache } from '../file-cache';
import type { MarkdownCache } from '../markdown-files';
import type { GitLogCache } from './git';
import type { Evidence, ExplainData, QuestionAnalysis } from '../types';

export interface SourceContext {
  root: string;
  fs: FileSystem;
  logger: Logger;
  clock: Clock;
  git?: Git;
  code: CodeRetrieval;
  files: FileCache;
  markdown: MarkdownCache;
  /** The git history, cached between questions while HEAD stays. */
  gitLog: GitLogCache;
  /** Folders (workspace-relative) searched for docs; empty means the whole workspace. */
  docsFolders: string[];
  /** Glob excludes and .gitignore handling, as the index uses them. */
  exclude: string[];
  respectGitignore: boolean;
  analysis: QuestionAnalysis;
  question: string;
  /** The question's one analysis (question/analysis.ts), handed to smart context as it is. */
  asked: Question;
  /** The oracle's own session logs may be evidence (the question asks about past sessions, or the caller said so). */
  pastSessions: boolean;
  signal?: AbortSignal;
}

/** A candidate before ranking: the evidence plus what relevance is measured on. */
export interface Candidate {
  evidence: Evidence;
  /** Text the relevance gate reads (the whole chunk or section, not only the excerpt shown). */
  scope: string;
  /** 0..1 within its retrieval path (1 = the path's best). */
  pathScore: number;
  /** Found by an exact lookup of the subject (definition or reference), not by word overlap. */
  exact?: boolean;
  /**
   * 0-based rank of the candidate's file in smart context's file order (set for every code candidate on a file smart
   * context returned): the answer cites files in that order, so it never ranks worse than the retrieval it reads.
   */
  fileRank?: number;
}

export type PathTrace = ExplainData['paths'][number];

export interface SourceOutput {
  candidates: Candidate[];
  paths: PathTrace[];
  /** Document frequencies of the question terms in this source's corpus, for the shared relevance weights. */
  stats?: TermStats;
}

/** Thrown by a source that cannot run here (no index, no git repository, no threads folder): skipped and named. */
export class SourceUnavailable extends Error {
  override readonly name = 'SourceUnavailable';
}

/** Normalises raw scores of one path to 0..1 (best = 1). */
export function normalise<T extends { score: number }>(hits: T[]): (hit: T) => number {
  const max = Math.max(0, ...hits.map((h) => h.score));
  return (h) => (max > 0 ? Math.max(0, h.score) / max : 0);
}
