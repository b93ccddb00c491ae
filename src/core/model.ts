/** DTOs the engine hands to every host (CLI JSON, MCP, LSP custom requests, webview). */
import type { IndexReport } from './index/indexer';
import type { SkipReason } from './index/walker';
import type { FreshnessStamp } from './freshness/freshness';

export type { FreshnessStamp, ChangeNotice } from './freshness/freshness';

export type { IndexReport, IndexProgress } from './index/indexer';
export type { SearchHit, SearchOptions } from './search/full-text';
export type {
  DefinitionHit, DefinitionsResult, ImplementationsResult, NavigationSource, ReferenceHit, ReferenceProximity, ReferencesResult,
} from './navigation/types';
export type { RepoMap, RepoMapFile, RepoMapSymbol } from './repomap/types';
export type {
  BudgetCut, ContextFormat, ContextNode, ContextOptions, ContextResult, ContextStats, ContextWeights, EmbeddingSettings, ExtractedEntity,
  RankedFile, SignalScores,
} from './context/types';

export interface IndexStatus {
  root: string;
  indexPath: string;
  exists: boolean;
  files: number;
  filesByLanguage: Record<string, number>;
  symbols: number;
  chunks: number;
  references: number;
  imports: number;
  annotations: number;
  filesWithSyntaxErrors: number;
  skips: Partial<Record<SkipReason, number>>;
  indexBytes: number;
  /** ISO time of the last completed index run. */
  updatedAt?: string;
  schemaVersion?: string;
  engineVersion?: string;
  grammarHash?: string;
  unavailableLanguages: Record<string, string>;
  lastRun?: IndexReport;
  /** HEAD and time of the last index update, and files still queued. */
  freshness?: FreshnessStamp;
  /** The index journal was found damaged: when and how it was repaired (kept until the next full run), or not yet. */
  journal?: JournalRepair;
}

/**
 * Damage found in the index journal (the commits appended after the last whole image) and its repair. Past the
 * damage, commits are lost to readers; the repair is an incremental run that re-checks every file against the
 * image, so the files those commits held are indexed again.
 */
export interface JournalRepair {
  /**
   * `corrupt`: a whole record (or the header) is not what was written (checksum, payload or length): committed data
   * was lost, a warning. `torn`: the journal ends inside a record, as a crash mid-append leaves it.
   */
  damage: 'corrupt' | 'torn';
  /** Journal byte offset where the damage starts. */
  at: number;
  /** What was wrong, e.g. "the record at byte 1234 fails its checksum". */
  detail: string;
  /** ISO time of the repair run; absent while not repaired (this process could not write the index). */
  repairedAt?: string;
  /** Files the repair run indexed again or removed. */
  reindexed?: number;
}

export interface IndexOutcome extends IndexReport {
  /** Set when the persisted index could not be used and was moved aside (reported once, here). */
  recovered?: { reason: string; movedTo?: string };
  /** Set when this run found the journal damaged and re-checked the files it may have lost (reported once, here). */
  journalRepair?: JournalRepair;
  indexBytes: number;
  /**
   * The whole run under the lock, up to its image or journal record saved. `durationMs` (also the status's last run,
   * which is saved inside the run) stops at the last row written: at 124k files the postings' pack and the image
   * write after it took another ~75 s, which a user waits for too.
   */
  elapsedMs: number;
}
