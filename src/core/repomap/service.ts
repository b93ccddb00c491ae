/**
 * The repo map behind the engine façade, with its cache. The cache key is the index version (meta created_at +
 * updated_at), never the request: a prompt's mentions only re-run the ranking over the cached graph (Aider issue
 * #5529: keying the cache on mentions made a full rescan run on every request). The graph (and the unpersonalised
 * ranking) is also saved beside the index (map-snapshot.ts), so a new process on an unchanged index reads it back
 * instead of every symbol and reference count; after a change, this process's graph or the saved one is patched:
 * only the changed files' rows are read (map-data.ts).
 */
import { distance } from 'fastest-levenshtein';
import { EngineError } from '../errors';
import type { Clock, IndexStorage, Logger } from '../ports';
import type { IndexDatabase } from '../store/database';
import { indexVersion, sameIndex } from '../store/index-version';
import { definersOf } from './ident-graph';
import { loadMapData } from './map-data';
import { decodeMapSnapshot, encodeMapSnapshot } from './map-snapshot';
import type { RankOutput } from './rank';
import {
  isUnpersonalised, matchFiles, personalization, rankDefinitions, renderRepoMap, scopeFilter, validateBudget,
} from './repo-map';
import type { MapData, RepoMap, RepoMapOptions, RepoMapSliceOptions } from './types';

export interface RepoMapService {
  map(db: IndexDatabase, options?: RepoMapOptions): Promise<RepoMap>;
  /** The map around `files` (the files plus the files they share identifiers with), ranked from them. */
  slice(db: IndexDatabase, files: string[], options?: RepoMapSliceOptions): Promise<RepoMap>;
}

/** The sidecar the graph is saved in (IndexStorage.readSidecar). */
export const MAP_SNAPSHOT_SIDECAR = 'map';

/** `storage` absent: the graph lives in memory only. */
export function createRepoMapService(clock: Clock, storage?: Pick<IndexStorage, 'readSidecar' | 'writeSidecar'>, logger?: Logger): RepoMapService {
  /** `saved`: the snapshot beside the index holds this graph, and `baseline` too when `savedBaseline`. */
  let cached: { data: MapData; baseline?: RankOutput; saved: boolean; savedBaseline: boolean } | undefined;

  async function graph(db: IndexDatabase): Promise<{ data: MapData; info: { cached: boolean; ms: number } }> {
    const version = indexVersion(db);
    if (cached?.data.version === version) return { data: cached.data, info: { cached: true, ms: 0 } };
    const started = clock.now();
    // This process's graph of an earlier version is patched without reading the saved one: the index changed under
    // it (a commit, a watcher's sync), and the saved graph, if newer, would be patched just the same.
    let previous = cached && sameIndex(cached.data.version, version) ? cached.data : undefined;
    if (!previous) {
      const snapshot = await readSnapshot();
      if (snapshot?.data.version === version) {
        cached = { ...snapshot, saved: true, savedBaseline: snapshot.baseline !== undefined };
        return { data: cached.data, info: { cached: true, ms: clock.now() - started } };
      }
      if (snapshot && sameIndex(snapshot.data.version, version)) previous = snapshot.data;
    }
    const data = loadMapData(db, version, previous);
    if (previous) logger?.debug(`repo map: graph of ${previous.version} patched to ${version}, ${data.sources.reread} of ${data.files.length} files read again`);
    cached = { data, saved: false, savedBaseline: false };
    return { data, info: { cached: false, ms: clock.now() - started } };
  }

  async function readSnapshot(): Promise<{ data: MapData; baseline?: RankOutput } | undefined> {
    if (!storage) return undefined;
    try {
      const bytes = await storage.readSidecar(MAP_SNAPSHOT_SIDECAR);
      return bytes ? decodeMapSnapshot(bytes) : undefined;
    } catch (e) {
      logger?.warn(`repo map: the saved graph is unreadable, rebuilding it from the index (${e instanceof Error ? e.message : String(e)})`);
      return undefined;
    }
  }

  /** Saves what this process computed and the snapshot lacks; a failed write only costs the next process a rebuild. */
  async function save(): Promise<void> {
    const c = cached;
    if (!storage || !c || (c.saved && (c.savedBaseline || !c.baseline))) return;
    const parts = encodeMapSnapshot(c.baseline ? { data: c.data, baseline: c.baseline } : { data: c.data });
    c.saved = true;
    c.savedBaseline = c.baseline !== undefined;
    if (!parts) return;
    await storage.writeSidecar(MAP_SNAPSHOT_SIDECAR, parts).catch((e: unknown) => {
      logger?.debug(`repo map: could not save the graph beside the index (${e instanceof Error ? e.message : String(e)})`);
    });
  }

  /** Stamps the time the whole request took. */
  function timed(started: number, map: RepoMap): RepoMap {
    map.stats.elapsedMs = clock.now() - started;
    return map;
  }

  return {
    async map(db, options = {}) {
      const started = clock.now();
      const maxTokens = validateBudget(options.maxTokens);
      const { data, info } = await graph(db);
      const { scope, allowed } = scopeFilter(data, options.scope);
      const idents = new Set(options.mentionedIdents ?? []);
      const focus = matchFiles(data, options.mentionedFiles ?? []);
      const input = { personalization: personalization(data, focus, idents), mentionedIdents: idents, focusFiles: new Set<number>() };
      let ranked: RankOutput;
      if (isUnpersonalised(options)) ranked = cached!.baseline ??= rankDefinitions(data, input);
      else ranked = rankDefinitions(data, input);
      const map = renderRepoMap(db, data, { maxTokens, rank: input, ...(scope ? { scope } : {}), ...(allowed ? { allowed } : {}) }, ranked, info);
      await save();
      return timed(started, map);
    },

    async slice(db, files, options = {}) {
      const started = clock.now();
      const maxTokens = validateBudget(options.maxTokens);
      const { data, info } = await graph(db);
      const focus = matchFiles(data, files);
      if (!focus.length) {
        const wanted = files[0] ?? '';
        const suggestions = [...data.files].sort((a, b) => distance(a, wanted) - distance(b, wanted)).slice(0, 5);
        throw new EngineError('not_found', `none of ${JSON.stringify(files)} is an indexed file`, { suggestions });
      }
      const near = neighbourhood(data, focus);
      const focusSet = new Set(focus);
      const idents = new Set(options.mentionedIdents ?? []);
      const input = { personalization: personalization(data, focus, idents), mentionedIdents: idents, focusFiles: new Set(focus) };
      const map = renderRepoMap(db, data, { maxTokens, rank: input, allowed: (f) => near.has(f), first: focusSet }, rankDefinitions(data, input), info);
      await save();
      return timed(started, map);
    },
  };
}

/** The focus files and every file that defines what they reference or references what they define. */
function neighbourhood(data: MapData, focus: number[]): Set<number> {
  const near = new Set(focus);
  const g = data.idents;
  const focusSet = new Set(focus);
  const defined = new Set<number>();
  for (const f of focus) for (const tag of data.tags.of(f)) {
    const i = g.index.get(tag.name);
    if (i !== undefined) defined.add(i);
  }
  for (let i = 0; i < g.names.length; i++) {
    let referenced = false;
    for (let k = g.refStart[i]!; k < g.refStart[i + 1]!; k++) {
      if (defined.has(i)) near.add(g.refFiles[k]!);
      if (focusSet.has(g.refFiles[k]!)) referenced = true;
    }
    if (referenced) for (const d of definersOf(g, i)) near.add(d);
  }
  return near;
}
