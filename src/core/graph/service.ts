/**
 * The knowledge-graph capability behind the engine façade: context bundles, why, graph views, lint, sync, search
 * over nodes and docs, concept queries. Graph and docs are read from the workspace on demand and kept parsed while
 * their files' mtimes and sizes hold (never stored in the index, so no reindex can lose or stale them); the code
 * side comes from the index when there is one.
 */
import { createHash } from 'node:crypto';
import { applyBudget, bundleTokens } from '../bundle/budget';
import { buildBundle } from '../bundle/build';
import { BundleCache, cacheKey, docsUnchanged, etagOf } from '../bundle/cache';
import { codeDepsHold, collectCodeDeps } from '../bundle/code-deps';
import { BUNDLE_DEFAULTS, type BundleOptions, type BundleResult, type BundleUnchanged, type ConditionalBundleOptions } from '../bundle/types';
import { DocStore } from '../docs/doc-store';
import { computeSync, diskHashes, emptySyncState, nextSyncState, readSyncState, SYNC_STATE_FILE, type HashSource, type SyncReport, type SyncState } from '../docs/sync';
import { EngineError } from '../errors';
import { readGitHead } from '../freshness/git-head';
import type { EngineDeps } from '../ports';
import { loadRules, type RuleSet } from '../rules/load';
import { ruleScope } from '../rules/scope';
import type { RuleContext } from '../rules/evaluate';
import { lintGraph, type LintReport } from '../rules/lint';
import type { IndexDatabase } from '../store/database';
import { CodeView, codeGeneration } from './code-view';
import type { Knowledge } from './knowledge';
import { locateGraphFiles, loadGraph } from './loader';
import { ParseCache } from './parse-cache';
import { conceptQuery, type ConceptQueryOptions, type QueryEnvelope } from './query';
import { searchKnowledge, type KnowledgeHit, type KnowledgeSearchOptions } from './search';
import type { DeclaredGraph, GraphEdge, GraphNode } from './types';
import { graphStatus, STATUS_BUNDLE, type GraphStatus } from './status';
import { proposeStarterGraph, STARTER_GRAPH_PATH, starterGraphYaml, type StarterGraph } from './starter';
import { graphView, type GraphView } from './view';
import { analyse, type WhyOptions, type WhyResult } from './why';
import { suggestIds } from './suggest';
import type { WalkRules } from '../workspace/walk';

export interface SyncOptions {
  /** Mark the pairs of these ref_ids, doc paths or code paths as brought up to date. */
  mark?: string[];
  /** Report only: record no baselines. */
  check?: boolean;
}

export interface NodeDetail {
  node: GraphNode;
  /** Edges from this node, then edges to it, in declaration order. */
  out: GraphEdge[];
  in: GraphEdge[];
}

export interface SyncOutcome extends SyncReport {
  /** Pairs marked synced by `mark`. */
  marked: number;
  /** Pairs whose baseline was recorded or refreshed by this run. */
  baselined: number;
}

/** A starter graph, where it would be written and its text; `declared` when the workspace already has graph files. */
export interface StarterGraphProposal extends StarterGraph {
  path: string;
  yaml: string;
  declared: boolean;
}

export interface GraphFacade {
  /**
   * Context bundle (seed version 2) for one or more ref_ids: declared nodes, files or `path::Symbol`s. Given the
   * `etag` of a bundle the caller holds, answers `{ unchanged: true, etag }` instead when the bundle is the same.
   */
  contextBundle(refIds: string[], options?: BundleOptions): Promise<BundleResult>;
  contextBundle(refIds: string[], options: ConditionalBundleOptions): Promise<BundleResult | BundleUnchanged>;
  /** Upstream and downstream trees of a node with an impact summary. */
  why(refId: string, options?: WhyOptions): Promise<WhyResult>;
  /** One declared node as written (source, docs, tags, extra fields) with its edges; not_found with the closest ids. */
  graphNode(refId: string): Promise<NodeDetail>;
  /** The graph (or the part around ref_ids) as data and Mermaid text. */
  graphView(refIds?: string[], options?: { depth?: number }): Promise<GraphView>;
  /** Graph and rules problems plus rule violations. */
  lint(): Promise<LintReport>;
  /** A graph proposed from the index (folders as nodes, imports as edges) and its YAML, for a workspace without one. */
  starterGraph(): Promise<StarterGraphProposal>;
  /** Doc↔code sync state; records baselines unless `check`. */
  sync(options?: SyncOptions): Promise<SyncOutcome>;
  /** Full-text search over graph nodes and their docs. */
  searchKnowledge(query: string, options?: KnowledgeSearchOptions): Promise<KnowledgeHit[]>;
  /** Concept query in the seed's envelope. */
  conceptQuery(query: string, options?: ConceptQueryOptions): Promise<QueryEnvelope>;
  /** The graph's part of `status`: counts by kind, docs coverage, stale pairs, bundle sizes per node; null without a graph. */
  graphStatus(): Promise<GraphStatus | null>;
}

/** `walkRules`: the index's ignore chain, so doc folders and schema files are the files the index sees. */
export function createGraphFacade(deps: EngineDeps, readable: () => Promise<IndexDatabase>, walkRules: WalkRules): GraphFacade {
  let snapshot: { fingerprint: string; graph: DeclaredGraph; rules: RuleSet } | undefined;
  let view: CodeView | undefined;
  const docs = new DocStore(deps.fs, deps.root, walkRules);
  const cache = new BundleCache();
  const parseCache = new ParseCache(deps.cache);
  let memorySync: SyncState = emptySyncState();

  async function knowledge(): Promise<{ k: Knowledge; rules: RuleSet; db?: IndexDatabase }> {
    const located = await locateGraphFiles(deps.fs, deps.root);
    if (snapshot?.fingerprint !== located.fingerprint) {
      const loaded = await loadGraph(deps.fs, deps.root, located, parseCache);
      snapshot = { fingerprint: located.fingerprint, graph: loaded.graph, rules: loadRules(loaded.parsed) };
    }
    let db: IndexDatabase | undefined;
    let codeMissing: string | undefined;
    try {
      db = await readable();
    } catch (e) {
      if (!EngineError.is(e, 'not_initialized') && !EngineError.is(e, 'index_corrupt')) throw e;
      codeMissing = `no usable index (${e.message}); code symbols, routes and tests are missing`;
    }
    if (db) {
      const generation = codeGeneration(db);
      if (view?.db !== db || view.generation !== generation) view = new CodeView(db, generation);
    }
    const k: Knowledge = { graph: snapshot.graph, fingerprint: snapshot.fingerprint, docs: docs.session(), ...(db ? { code: view! } : {}), ...(codeMissing ? { codeMissing } : {}) };
    return { k, rules: snapshot.rules, ...(db ? { db } : {}) };
  }

  async function syncState(): Promise<{ state: SyncState; text: string }> {
    const state = await readSyncState(deps.state, memorySync);
    return { state, text: JSON.stringify(state) };
  }

  /** Hashes as the index and the doc cache know them: cheap, and what a bundle's sync_status reports. */
  function indexHashes(k: Knowledge): HashSource {
    return {
      code: async (p) => k.code?.fileTable().get(p)?.hash,
      doc: async (p) => (await k.docs.get(p)).hash || undefined,
    };
  }

  function lastReindex(db: IndexDatabase | undefined): string | null {
    const at = db ? Number(db.get("SELECT value FROM meta WHERE key = 'updated_at'")?.value) : NaN;
    return Number.isFinite(at) ? new Date(at).toISOString() : null;
  }

  async function conditionalBundle(refIds: string[], options: ConditionalBundleOptions = {}): Promise<BundleResult | BundleUnchanged> {
    const { etag: held, ...rest } = options;
    const result = await bundleOf(refIds, rest);
    if (held === undefined || held !== result.etag) return result;
    return { unchanged: true, etag: result.etag, hint: 'Context unchanged since the bundle with this etag; use that bundle.' };
  }

  async function bundleOf(refIds: string[], options: BundleOptions): Promise<BundleResult> {
    const ids = refIds.map((r) => r.trim()).filter(Boolean);
    if (!ids.length) throw new EngineError('required', 'at least one ref_id is required');
    if (options.maxTokens !== undefined && !(options.maxTokens > 0)) throw new EngineError('invalid_input', 'max_tokens must be a positive number');
    const { k, rules, db } = await knowledge();
    const depth = options.depth ?? BUNDLE_DEFAULTS.depth;
    const maxNodes = options.maxNodes ?? BUNDLE_DEFAULTS.maxNodes;
    const maxChunks = options.maxChunks ?? BUNDLE_DEFAULTS.maxChunks;
    const key = cacheKey(ids, depth, maxNodes, maxChunks);
    const sync = await syncState();
    const head = await readGitHead(deps.root, deps.fs).catch(() => undefined);
    const base = createHash('sha1').update([k.fingerprint, sync.text, head?.commit ?? ''].join('\n')).digest('hex');
    const reindexed = lastReindex(db);
    const hit = await cache.get(key, async (e) => e.base === base && codeDepsHold(k.code, e.code) && (await docsUnchanged(e, (p) => k.docs.stamp(p))), db);
    if (hit) {
      let { bundle: cached, tokens: cachedTokens, etag } = hit.entry;
      // Still valid after an index run that did not concern it: only the reindex time moved on.
      if (cached.sync_status.last_reindex !== reindexed) {
        cached = { ...cached, sync_status: { ...cached.sync_status, last_reindex: reindexed } };
        cachedTokens = bundleTokens(cached);
        etag = etagOf(cached);
      }
      const { bundle, tokens } = applyBudget(cached, options.maxTokens, cachedTokens);
      return { bundle, tokens, etag: bundle === cached ? etag : etagOf(bundle), cache: hit.tier };
    }
    const builtAt = deps.clock.now();
    const built = await buildBundle(k, {
      fs: deps.fs, root: deps.root, walkRules, ...(deps.git ? { git: deps.git } : {}), now: deps.clock.now(), rules, sync: sync.state,
      // No checkout, no history: say so without spawning git for every bundle.
      ...(head?.commit ? {} : { gitUnavailable: head ? 'the repository has no commits yet' : 'not a git repository' }),
      hashes: indexHashes(k), lastReindex: reindexed,
    }, ids, { depth, maxNodes, maxChunks });
    const tokens = bundleTokens(built.bundle);
    const etag = etagOf(built.bundle);
    const docStamps: Array<[string, string]> = [];
    for (const p of built.docs) docStamps.push([p, await k.docs.stamp(p)]);
    const code = collectCodeDeps(k, built.bundle, builtAt);
    cache.put(key, ids.join(','), { base, docs: docStamps, bundle: built.bundle, tokens, etag, ...(code ? { code } : {}) }, db, deps.clock.now());
    const budgeted = applyBudget(built.bundle, options.maxTokens, tokens);
    return { bundle: budgeted.bundle, tokens: budgeted.tokens, etag: budgeted.bundle === built.bundle ? etag : etagOf(budgeted.bundle), cache: 'miss' };
  }

  return {
    contextBundle: conditionalBundle as GraphFacade['contextBundle'],

    async why(refId, options = {}) {
      const { k } = await knowledge();
      const a = analyse(k, refId, options);
      const declared = [...new Set(a.downstreamIds.filter((id) => k.graph.nodes.has(id)))];
      let documented = 0;
      for (const id of declared) {
        const paths = await k.docs.expand(k.graph.nodes.get(id)!.docs);
        for (const p of paths) if ((await k.docs.get(p)).exists) { documented++; break; }
      }
      const { report } = await computeSync(k, (await syncState()).state, indexHashes(k), declared);
      const { downstreamIds: _ids, ...rest } = a;
      return {
        ...rest,
        impact: { ...a.impact, doc_coverage: declared.length ? Math.round((documented / declared.length) * 1000) / 10 : 100, stale_count: report.counts.stale },
      };
    },

    async graphNode(refId) {
      const { k } = await knowledge();
      const id = refId.trim();
      const node = k.graph.nodes.get(id);
      if (!node) {
        const suggestions = suggestIds(id, k.graph.nodes.keys());
        const what = k.graph.files.length ? 'a node of the graph' : 'a node: this workspace declares no graph (.context-oracle/graph/*.yml or .beadloom/_graph/*.yml)';
        throw new EngineError('not_found', `"${id}" is not ${what}${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`, { ref_id: id, suggestions });
      }
      return { node, out: k.graph.out.get(id) ?? [], in: k.graph.in.get(id) ?? [] };
    },

    async graphView(refIds = [], options = {}) {
      const { k } = await knowledge();
      return graphView(k, refIds, Math.max(0, Math.floor(options.depth ?? 2)));
    },

    async starterGraph() {
      const { k } = await knowledge();
      const code = k.code;
      const files = code ? [...code.fileTable().keys()] : [];
      const imports = code ? files.flatMap((from) => code.importsOf(from).map((i) => ({ from, to: i.target }))) : [];
      const graph = proposeStarterGraph({ files, imports });
      return { ...graph, path: STARTER_GRAPH_PATH, yaml: starterGraphYaml(graph), declared: k.graph.files.length > 0 };
    },

    async lint() {
      const { k, rules } = await knowledge();
      const context: RuleContext = { scope: await ruleScope(deps.fs, deps.root) };
      if (rules.rules.some((r) => r.type === 'check' && r.minDocCoverage !== undefined)) {
        const { report } = await computeSync(k, (await syncState()).state, indexHashes(k));
        const per = new Map<string, { ok: number; all: number }>();
        for (const p of report.pairs) {
          const c = per.get(p.ref_id) ?? { ok: 0, all: 0 };
          c.all++;
          if (p.status === 'ok') c.ok++;
          per.set(p.ref_id, c);
        }
        context.docCoverage = (id) => { const c = per.get(id); return c ? c.ok / c.all : undefined; };
      }
      return lintGraph(k, rules, context);
    },

    async sync(options = {}) {
      const { k } = await knowledge();
      const { state } = await syncState();
      const hashes = diskHashes(deps.fs, deps.root);
      const first = await computeSync(k, state, hashes);
      const mark = options.mark ?? [];
      for (const m of mark) {
        if (!first.report.pairs.some((p) => p.ref_id === m || p.doc_path === m || p.code_path === m)) {
          const candidates = [...new Set(first.report.pairs.flatMap((p) => [p.ref_id, p.doc_path, p.code_path]))];
          throw new EngineError('not_found', `"${m}" is not the ref_id, doc or code file of any doc↔code pair`, { ref_id: m, suggestions: suggestIds(m, candidates) });
        }
      }
      if (options.check) return { ...first.report, marked: 0, baselined: 0 };
      const next = nextSyncState(state, first.report, first.current, mark, new Date(deps.clock.now()).toISOString());
      const baselined = Object.keys(next.state.pairs).filter((key) => next.state.pairs[key] !== state.pairs[key]).length;
      if (baselined) {
        if (deps.state) await deps.state.write(SYNC_STATE_FILE, `${JSON.stringify(next.state, null, 2)}\n`);
        else memorySync = next.state;
      }
      const after = baselined ? (await computeSync(k, next.state, hashes)).report : first.report;
      return { ...after, marked: next.marked, baselined };
    },

    async searchKnowledge(query, options) {
      const { k } = await knowledge();
      return searchKnowledge(k, query, options);
    },

    async graphStatus() {
      const { k } = await knowledge();
      if (!k.graph.files.length) return null;
      const { report } = await computeSync(k, (await syncState()).state, indexHashes(k));
      return graphStatus(k, report, async (id) => {
        const r = await bundleOf([id], STATUS_BUNDLE);
        return { json: JSON.stringify(r.bundle), tokens: r.tokens };
      });
    },

    async conceptQuery(query, options = {}) {
      const started = deps.clock.now();
      const meta = () => ({ path: '/context/query', timestamp: new Date(started).toISOString(), duration_ms: deps.clock.now() - started });
      const fail = (field: string, code: string, message: string): QueryEnvelope => ({ status: 'error', result: null, errors: { [field]: [{ code, message }] }, meta: meta() });
      if (!query.trim()) return fail('query', 'required', 'query is required');
      const { k } = await knowledge();
      if (!k.code) return fail('index', 'not_initialized', k.codeMissing ?? 'no index; run `context-oracle index` first');
      const result = await conceptQuery(k, deps.fs, deps.root, query, options);
      return { status: 'success', result, errors: null, meta: meta() };
    },
  };
}
