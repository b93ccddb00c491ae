/**
 * The façade every host uses: createEngine(deps) → Engine. Holds the in-memory index, loads it lazily,
 * reloads it when another process replaced it, and writes it back atomically under the single-writer lock.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_CONFIG, type EngineConfig } from './config';
import { EngineError } from './errors';
import { runIndex, type IndexRunOptions } from './index/indexer';
import { GRAMMAR_PACKAGES, LANGUAGES } from './parse/languages';
import type { IndexOutcome, IndexStatus, SearchHit, SearchOptions } from './model';
import type { EngineDeps } from './ports';
import { IndexDatabase } from './store/database';
import { SCHEMA_VERSION } from './store/schema';
import { searchChunks } from './search/full-text';
import { ENGINE_VERSION } from './version';
import { createFreshnessController, type ChangeNotice, type FreshnessStamp } from './freshness/freshness';
import { readGitHead } from './freshness/git-head';
import type { QueuePolicy } from './freshness/change-queue';
import { createNavigation } from './navigation/service';
import type { DefinitionOptions, DefinitionsResult, ImplementationsResult, ReferenceOptions, ReferencesResult } from './navigation/types';
import type { RepoMap, RepoMapOptions, RepoMapSliceOptions } from './repomap/types';
import { createContextService } from './context/service';
import { createGraphFacade, type GraphFacade } from './graph/service';
import type { ContextOptions, ContextResult } from './context/types';
import { createOracleFacade } from './oracle/facade';
import type { ConversationView, Exchange, ExchangeInput } from './oracle/conversation';
import type { AskEvent, AskOptions, AskResult } from './oracle/types';

export interface Engine extends GraphFacade {
  readonly root: string;
  /** Index the workspace; incremental unless `full`. */
  index(options?: IndexRunOptions & { full?: boolean }): Promise<IndexOutcome>;
  status(): Promise<IndexStatus>;
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

export function createEngine(deps: EngineDeps, config: Partial<EngineConfig> = {}, queuePolicy?: QueuePolicy): Engine {
  const cfg: EngineConfig = { ...DEFAULT_CONFIG, ...config };
  let db: IndexDatabase | undefined;
  let dbStamp: string | undefined;
  let grammarHash: string | undefined;
  let writing: Promise<unknown> = Promise.resolve();

  async function currentGrammarHash(): Promise<string> {
    if (!grammarHash) {
      const h = createHash('sha1');
      for (const lang of LANGUAGES) {
        h.update(lang.id).update(lang.grammar);
        for (const q of lang.queries) h.update(await deps.assets.readText(q));
      }
      // The grammar packages' versions stand for the WASM files: reading megabytes of grammars on every start to
      // hash them would cost more than the no-change re-index itself.
      h.update(GRAMMAR_PACKAGES);
      grammarHash = h.digest('hex').slice(0, 16);
    }
    return grammarHash;
  }

  async function expectedMeta(): Promise<Record<string, string>> {
    return { schema_version: String(SCHEMA_VERSION), engine_version: ENGINE_VERSION, grammar_hash: await currentGrammarHash() };
  }

  function replaceDb(next: IndexDatabase | undefined, stamp: string | undefined): void {
    if (db && db !== next) db.close();
    db = next;
    dbStamp = stamp;
  }

  /** The persisted index, or undefined when there is none or it cannot be used (reason given). */
  async function loadPersisted(): Promise<{ db?: IndexDatabase; problem?: string; outdated?: boolean }> {
    const bytes = await deps.storage.read();
    if (!bytes) return {};
    try {
      const opened = await IndexDatabase.open(deps.assets, bytes);
      const meta = opened.meta();
      const want = await expectedMeta();
      const mismatch = Object.entries(want).find(([k, v]) => meta[k] !== v);
      if (mismatch) {
        opened.close();
        return { outdated: true, problem: `index was written with ${mismatch[0]}=${meta[mismatch[0]] ?? 'none'}, this engine needs ${mismatch[1]}` };
      }
      return { db: opened };
    } catch (e) {
      return { problem: e instanceof Error ? e.message : String(e) };
    }
  }

  /** For queries: the index as last persisted by anyone. */
  async function readable(): Promise<IndexDatabase> {
    const stamp = await deps.storage.stamp();
    if (db && stamp === dbStamp) return db;
    if (stamp === undefined) {
      if (db) return db; // indexed in memory by this process but not persisted (should not happen)
      throw new EngineError('not_initialized', `no index at ${deps.storage.location}; run \`context-oracle index\` first`);
    }
    const loaded = await loadPersisted();
    if (!loaded.db) {
      throw new EngineError(loaded.problem ? 'index_corrupt' : 'not_initialized', loaded.problem
        ? `the index at ${deps.storage.location} cannot be used (${loaded.problem}); run \`context-oracle index\` to rebuild it`
        : `no index at ${deps.storage.location}; run \`context-oracle index\` first`);
    }
    replaceDb(loaded.db, stamp);
    return loaded.db;
  }

  async function index(options: IndexRunOptions & { full?: boolean } = {}): Promise<IndexOutcome> {
    // One index run at a time in this process; the storage lock covers other processes.
    const run = writing.then(async () => {
      const release = await deps.storage.lock();
      try {
        let recovered: IndexOutcome['recovered'];
        let full = options.full ?? false;
        const stamp = await deps.storage.stamp();
        let target = db && stamp === dbStamp ? db : undefined;
        if (!target) {
          const loaded = await loadPersisted();
          if (loaded.db) target = loaded.db;
          else if (loaded.outdated) {
            // A healthy index from another version is only outdated: rebuilt over, not kept (it can be large).
            deps.logger.info(`index at ${deps.storage.location} is outdated (${loaded.problem}); rebuilding`);
            recovered = { reason: loaded.problem! };
          } else if (loaded.problem) {
            const movedTo = await deps.storage.quarantine(loaded.problem);
            deps.logger.warn(`index at ${deps.storage.location} was unusable (${loaded.problem}); moved to ${movedTo ?? '(removed)'} and rebuilding`);
            recovered = { reason: loaded.problem, ...(movedTo ? { movedTo } : {}) };
          }
        }
        if (!target || full) {
          if (target && target !== db) target.close();
          target = await IndexDatabase.create(deps.assets, { ...(await expectedMeta()), root: deps.root, created_at: String(deps.clock.now()) });
          full = true;
        }
        const report = await runIndex(deps, cfg, target, full, options);
        const head = await readGitHead(deps.root, deps.fs);
        target.setMeta({ git_head: head?.commit ?? '', git_branch: head?.branch ?? '' });
        // Nothing changed: keep the file as it is (rewriting a large index for a no-op refresh costs seconds).
        const changed = full || recovered !== undefined || report.parsed + report.removed + report.touched > 0;
        let bytes: Uint8Array | undefined;
        if (changed) {
          options.onProgress?.({ phase: 'persisting', done: report.parsed, total: report.parsed });
          bytes = target.export();
          await deps.storage.write(bytes);
        }
        replaceDb(target, await deps.storage.stamp());
        options.onProgress?.({ phase: 'done', done: report.parsed, total: report.parsed });
        return { ...report, ...(recovered ? { recovered } : {}), indexBytes: bytes?.length ?? await deps.storage.size() };
      } finally {
        await release();
      }
    });
    writing = run.catch(() => undefined);
    return run;
  }

  /**
   * Commits queued paths. When HEAD moved since the last index (a branch switch or pull), the whole workspace is
   * re-walked as one batch instead, so answers never mix files from two branches.
   */
  async function commitQueued(paths: string[]): Promise<void> {
    const head = await readGitHead(deps.root, deps.fs);
    let indexedHead: string | undefined;
    try {
      indexedHead = (await readable()).meta().git_head;
    } catch {
      indexedHead = undefined;
    }
    const moved = head?.commit !== undefined && indexedHead !== undefined && indexedHead !== '' && head.commit !== indexedHead;
    if (moved) deps.logger.info(`HEAD moved from ${indexedHead!.slice(0, 12)} to ${head!.commit!.slice(0, 12)}: re-indexing the workspace as one batch`);
    await index(moved || indexedHead === undefined ? {} : { onlyPaths: paths });
  }
  const freshness = createFreshnessController(deps.clock, commitQueued, queuePolicy);

  async function freshnessStamp(): Promise<FreshnessStamp> {
    const queued = freshness.queued().map((c) => c.path);
    try {
      const meta = (await readable()).meta();
      return {
        ...(meta.git_head ? { indexedHead: meta.git_head } : {}),
        ...(meta.git_branch ? { indexedBranch: meta.git_branch } : {}),
        ...(meta.updated_at ? { indexedAt: new Date(Number(meta.updated_at)).toISOString() } : {}),
        queued,
      };
    } catch {
      return { queued };
    }
  }

  async function status(): Promise<IndexStatus> {
    const base: IndexStatus = {
      root: deps.root, indexPath: deps.storage.location, exists: false, files: 0, filesByLanguage: {}, symbols: 0,
      chunks: 0, references: 0, imports: 0, annotations: 0, filesWithSyntaxErrors: 0, skips: {}, indexBytes: 0,
      unavailableLanguages: {},
    };
    let d: IndexDatabase;
    try {
      d = await readable();
    } catch (e) {
      if (EngineError.is(e, 'not_initialized')) return base;
      throw e;
    }
    const count = (sql: string): number => Number(d.get(sql)?.n ?? 0);
    const meta = d.meta();
    const filesByLanguage: Record<string, number> = {};
    for (const r of d.all('SELECT language, count(*) AS n FROM files GROUP BY language ORDER BY language')) filesByLanguage[String(r.language)] = Number(r.n);
    const parse = <T>(s: string | undefined, fallback: T): T => { try { return s ? JSON.parse(s) as T : fallback; } catch { return fallback; } };
    return {
      ...base,
      exists: true,
      files: count('SELECT count(*) AS n FROM files'),
      filesByLanguage,
      symbols: count('SELECT count(*) AS n FROM symbols'),
      chunks: count('SELECT count(*) AS n FROM chunks'),
      references: count('SELECT count(*) AS n FROM refs'),
      imports: count('SELECT count(*) AS n FROM imports'),
      annotations: count('SELECT count(*) AS n FROM annotations'),
      filesWithSyntaxErrors: count('SELECT count(*) AS n FROM files WHERE has_errors = 1'),
      skips: parse(meta.skip_counts, {}),
      indexBytes: await deps.storage.size(),
      ...(meta.updated_at ? { updatedAt: new Date(Number(meta.updated_at)).toISOString() } : {}),
      schemaVersion: meta.schema_version,
      engineVersion: meta.engine_version,
      grammarHash: meta.grammar_hash,
      unavailableLanguages: parse(meta.unavailable_languages, {}),
      ...(meta.last_report ? { lastRun: parse(meta.last_report, undefined) } : {}),
      freshness: await freshnessStamp(),
    };
  }

  const engine: Engine = {
    root: deps.root,
    index,
    status,
    async search(query, options) {
      await freshness.justInTime(query);
      return searchChunks(await readable(), query, options);
    },
    noteChanges: (changes) => freshness.note(changes),
    syncNow: () => freshness.flush(),
    justInTime: (text) => freshness.justInTime(text),
    freshness: freshnessStamp,
    // -- navigation --
    ...createNavigation(deps, readable, (text) => freshness.justInTime(text)),
    // -- graph --
    ...createGraphFacade(deps, readable),
    // -- context --
    ...createContextService(deps, readable, (text) => freshness.justInTime(text)),
    ...createOracleFacade(deps, cfg, readable, () => engine),
    async dispose() {
      freshness.dispose();
      await writing;
      replaceDb(undefined, undefined);
      await deps.parser.dispose();
    },
  };
  // The oracle consumes the other façade methods (smart context, navigation, repo map) through this reference.
  return engine;
}
