/**
 * The repo map behind the engine façade, with its cache. The cache key is the index version (meta created_at +
 * updated_at), never the request: a prompt's mentions only re-run the ranking over the cached graph (Aider issue
 * #5529: keying the cache on mentions made a full rescan run on every request).
 */
import { distance } from 'fastest-levenshtein';
import { EngineError } from '../errors';
import type { Clock } from '../ports';
import type { IndexDatabase } from '../store/database';
import { definersOf } from './ident-graph';
import { loadMapData } from './map-data';
import type { RankOutput } from './rank';
import {
  isUnpersonalised, matchFiles, personalization, rankDefinitions, renderRepoMap, scopeFilter, validateBudget,
} from './repo-map';
import type { MapData, RepoMap, RepoMapOptions, RepoMapSliceOptions } from './types';

export interface RepoMapService {
  map(db: IndexDatabase, options?: RepoMapOptions): RepoMap;
  /** The map around `files` (the files plus the files they share identifiers with), ranked from them. */
  slice(db: IndexDatabase, files: string[], options?: RepoMapSliceOptions): RepoMap;
}

/** Identifies what the index holds: changes on every index run, never with a request. */
export function indexVersion(db: IndexDatabase): string {
  const meta = db.meta();
  return `${meta.created_at ?? '0'}:${meta.updated_at ?? '0'}`;
}

export function createRepoMapService(clock: Clock): RepoMapService {
  let cached: { data: MapData; baseline?: RankOutput } | undefined;

  function graph(db: IndexDatabase): { data: MapData; info: { cached: boolean; ms: number } } {
    const version = indexVersion(db);
    if (cached?.data.version === version) return { data: cached.data, info: { cached: true, ms: 0 } };
    const started = clock.now();
    cached = { data: loadMapData(db, version) };
    return { data: cached.data, info: { cached: false, ms: clock.now() - started } };
  }

  /** Stamps the time the whole request took. */
  function timed(started: number, map: RepoMap): RepoMap {
    map.stats.elapsedMs = clock.now() - started;
    return map;
  }

  return {
    map(db, options = {}) {
      const started = clock.now();
      const maxTokens = validateBudget(options.maxTokens);
      const { data, info } = graph(db);
      const { scope, allowed } = scopeFilter(data, options.scope);
      const idents = new Set(options.mentionedIdents ?? []);
      const focus = matchFiles(data, options.mentionedFiles ?? []);
      const input = { personalization: personalization(data, focus, idents), mentionedIdents: idents, focusFiles: new Set<number>() };
      let ranked: RankOutput;
      if (isUnpersonalised(options)) ranked = cached!.baseline ??= rankDefinitions(data, input);
      else ranked = rankDefinitions(data, input);
      return timed(started, renderRepoMap(db, data, { maxTokens, rank: input, ...(scope ? { scope } : {}), ...(allowed ? { allowed } : {}) }, ranked, info));
    },

    slice(db, files, options = {}) {
      const started = clock.now();
      const maxTokens = validateBudget(options.maxTokens);
      const { data, info } = graph(db);
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
      return timed(started, renderRepoMap(db, data, { maxTokens, rank: input, allowed: (f) => near.has(f), first: focusSet }, rankDefinitions(data, input), info));
    },
  };
}

/** The focus files and every file that defines what they reference or references what they define. */
function neighbourhood(data: MapData, focus: number[]): Set<number> {
  const near = new Set(focus);
  const g = data.idents;
  const focusSet = new Set(focus);
  const defined = new Set<number>();
  for (const f of focus) for (const tag of data.tags[f]!) {
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
