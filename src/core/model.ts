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
}

export interface IndexOutcome extends IndexReport {
  /** Set when the persisted index could not be used and was moved aside (reported once, here). */
  recovered?: { reason: string; movedTo?: string };
  indexBytes: number;
}
