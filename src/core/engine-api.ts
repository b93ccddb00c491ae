/**
 * The Engine interface: the methods every host calls, declared apart from createEngine (engine.ts) so that the
 * capabilities that wrap it (secret redaction) need not import the façade that composes them.
 */
import type { IndexRunOptions } from './index/indexer';
import type { IndexOutcome, IndexStatus, SearchHit, SearchOptions } from './model';
import type { ChangeNotice, FreshnessStamp } from './freshness/freshness';
import type { DefinitionOptions, DefinitionsResult, ImplementationsResult, ReferenceOptions, ReferencesResult } from './navigation/types';
import type { RepoMap, RepoMapOptions, RepoMapSliceOptions } from './repomap/types';
import type { GraphFacade } from './graph/service';
import type { ContextOptions, ContextResult } from './context/types';
import type { ConversationView, Exchange, ExchangeInput } from './oracle/conversation';
import type { AskEvent, AskOptions, AskResult } from './oracle/types';

export interface Engine extends GraphFacade {
  readonly root: string;
  /** Index the workspace; incremental unless `full`. */
  index(options?: IndexRunOptions & { full?: boolean }): Promise<IndexOutcome>;
  status(): Promise<IndexStatus>;
  /**
   * Whether the persisted index can be read, without counting anything (hosts probe before a read): `ready`,
   * `missing`, or `unusable` (damaged or written by another version; the next index run rebuilds it).
   */
  indexState(): Promise<'ready' | 'missing' | 'unusable'>;
  /** The index as one self-contained image (its journal folded in), to share: see index/shared-index.ts. */
  exportIndex(): Promise<Uint8Array>;
  /**
   * Puts an exported image in place of this workspace's index, then catches it up with the files here (changed
   * files re-indexed by content hash, deleted ones dropped). Throws index_incompatible (another schema, engine or
   * grammar version) or index_corrupt (not an index), leaving the current index as it was.
   */
  importIndex(image: Uint8Array, options?: IndexRunOptions): Promise<IndexOutcome>;
  /** The root the index was last brought up to date under, when it is not this one (copied, not caught up yet). */
  foreignRoot(): Promise<string | undefined>;
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
  // -- freshness (change queue, just-in-time commits, stamps) --
  /** Queue changed/deleted files (from a watcher); committed as a batch when the queue policy says so. */
  noteChanges(changes: ChangeNotice[]): Promise<void>;
  /** Commit everything queued now (Sync Now, `sync --force`). */
  syncNow(): Promise<void>;
  /** Commit the queued files a question or symbol text mentions, before answering it. */
  justInTime(text: string): Promise<void>;
  /** What every answer carries: HEAD when indexed, time, and files still queued. */
  freshness(): Promise<FreshnessStamp>;
  // -- navigation (definitions, references, repo map) --
  /** Definitions of a name, `Container.name` or `module.path.name`, canonical first; not_found carries suggestions. */
  definitions(symbol: string, options?: DefinitionOptions): Promise<DefinitionsResult>;
  /** References to the symbol's canonical definition, ranked by import proximity. */
  references(symbol: string, options?: ReferenceOptions): Promise<ReferencesResult>;
  /** Types and classes implementing or extending the symbol. */
  implementations(symbol: string, options?: DefinitionOptions): Promise<ImplementationsResult>;
  /** Aider-style ranked map of the workspace (or `scope`), within `maxTokens`. */
  repoMap(options?: RepoMapOptions): Promise<RepoMap>;
  /** The map around a set of files (them and the files they share identifiers with), for answer context. */
  repoMapSlice(files: string[], options?: RepoMapSliceOptions): Promise<RepoMap>;
  // -- graph (knowledge graph, bundles, why, lint, sync): declared once in graph/service.ts (GraphFacade) --
  // -- context (smart context for a question) --
  /** Smart context: files ranked for a question and a token-budgeted context text (src/core/context). */
  getContextForQuestion(question: string, options?: ContextOptions): Promise<ContextResult>;
  /** Loads what questions need ahead of the first one (see ContextMethods.warm); long-running hosts call it. */
  warm(): Promise<void>;
  /** The oracle: a question answered from code, docs, git history and threads as a stream of plain events. */
  ask(question: string, options?: AskOptions): AsyncIterable<AskEvent>;
  /** `ask`, collected into its result (answer, numbered citations, evidence, sources, stats, explain). */
  askAll(question: string, options?: AskOptions): Promise<AskResult>;
  /** Record another tool's exchange in a session's shared conversation (MCP tools, panel actions). */
  rememberExchange(session: string, exchange: ExchangeInput): Exchange;
  /** A session's shared conversation; older exchanges are compressed lazily, on this read, above 80 % of budget. */
  conversation(session: string): Promise<ConversationView | undefined>;
  dispose(): Promise<void>;
}
