/**
 * The repo map (Aider-style): rank definitions over the identifier graph, personalised by what the request
 * mentions, then render the best that fit the token budget. The graph comes from a per-index-version cache; only the
 * ranking depends on the request's mentions, and that is recomputed (cheaply) rather than cached on them.
 */
import { distance } from 'fastest-levenshtein';
import { EngineError } from '../errors';
import { normaliseRelative } from '../index/paths';
import type { IndexDatabase } from '../store/database';
import { fitMap } from './fit';
import { definersOf } from './ident-graph';
import { loadDetails } from './map-data';
import { rankDefinitions, type RankInput, type RankOutput } from './rank';
import { groupEntries, type MapEntry } from './render';
import type { MapData, MapTag, RepoMap, RepoMapOptions } from './types';

export const DEFAULT_MAP_TOKENS = 1024;
const MAX_MAP_TOKENS = 1_000_000;

export interface MapRequest {
  maxTokens: number;
  /** Files that may appear (scope or slice neighbourhood); undefined means all. */
  allowed?: (file: number) => boolean;
  rank: RankInput;
  scope?: string;
  /** Files whose entries go before all others (a slice's own files), in ranked order. */
  first?: Set<number>;
}

export function validateBudget(maxTokens: number | undefined): number {
  const budget = maxTokens ?? DEFAULT_MAP_TOKENS;
  if (!Number.isFinite(budget) || budget < 1 || budget > MAX_MAP_TOKENS) {
    throw new EngineError('invalid_input', `the token budget must be between 1 and ${MAX_MAP_TOKENS}, got ${budget}`);
  }
  return Math.floor(budget);
}

/** A workspace-relative directory whose files the map may show; '' is the whole workspace. */
export function scopeFilter(data: MapData, scope: string | undefined): { scope?: string; allowed?: (file: number) => boolean } {
  if (scope === undefined) return {};
  const norm = normaliseRelative(scope.trim());
  if (norm === undefined || /^([A-Za-z]:)?[\\/]/.test(scope.trim())) {
    throw new EngineError('outside_workspace', `the scope "${scope}" is not a directory inside the workspace`);
  }
  if (!norm) return {};
  const prefix = `${norm}/`;
  const allowed = (f: number): boolean => data.files[f]!.startsWith(prefix) || data.files[f] === norm;
  if (!data.files.some((_, f) => allowed(f))) {
    const dirs = new Set(data.files.flatMap((p) => p.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
    const suggestions = [...dirs].sort((a, b) => distance(a, norm) - distance(b, norm) || a.localeCompare(b)).slice(0, 5);
    throw new EngineError('not_found', `no indexed files under "${norm}"`, { suggestions });
  }
  return { scope: norm, allowed };
}

/** Files a request names: exact workspace paths, path suffixes (`router.ts`, `src/router.ts`) or bare stems. */
export function matchFiles(data: MapData, names: string[]): number[] {
  const out = new Set<number>();
  for (const raw of names) {
    const name = normaliseRelative(raw) ?? raw;
    if (!name) continue;
    data.files.forEach((p, f) => {
      const base = p.slice(p.lastIndexOf('/') + 1);
      if (p === name || p.endsWith(`/${name}`) || base.replace(/\.[^.]+$/, '') === name) out.add(f);
    });
  }
  return [...out];
}

/**
 * Aider's personalisation: each mentioned file, and each file whose path parts (directories, file name, stem)
 * equal a mentioned identifier, gets 100/N; so, here, does each file defining a mentioned identifier (Aider only
 * weighs edges through it, which does nothing for a name nobody references yet).
 */
export function personalization(data: MapData, files: number[], idents: Set<string>): Map<number, number> {
  const weight = 100 / Math.max(1, data.files.length);
  const out = new Map<number, number>();
  for (const f of files) out.set(f, weight);
  if (idents.size) {
    data.files.forEach((p, f) => {
      const parts = p.split('/');
      const base = parts[parts.length - 1]!;
      if ([...parts, base.replace(/\.[^.]+$/, '')].some((part) => idents.has(part))) out.set(f, (out.get(f) ?? 0) + weight);
    });
    for (const ident of idents) {
      const i = data.idents.index.get(ident);
      if (i !== undefined) for (const f of definersOf(data.idents, i)) out.set(f, (out.get(f) ?? 0) + weight);
    }
  }
  return out;
}

/**
 * Ranked entries: definitions best first (every tag of that name in the file), then the remaining files by rank;
 * only the first `limit` of them (a map shows at most one entry per token of its budget: at 100k files building all
 * 1.5M took seconds).
 */
export function rankedEntries(data: MapData, ranked: RankOutput, allowed?: (file: number) => boolean, limit = Infinity): MapEntry[] {
  const entries: MapEntry[] = [];
  const seenFiles = new Set<number>();
  const byName = new Map<number, Map<string, MapTag[]>>();
  const defs = ranked.definitions;
  for (let k = 0; k < defs.file.length && entries.length < limit; k++) {
    const file = defs.file[k]!;
    if (allowed && !allowed(file)) continue;
    seenFiles.add(file);
    let names = byName.get(file);
    if (!names) {
      byName.set(file, (names = new Map()));
      for (const tag of data.tags.of(file)) {
        const list = names.get(tag.name);
        if (list) list.push(tag);
        else names.set(tag.name, [tag]);
      }
    }
    for (const tag of names.get(data.idents.names[defs.ident[k]!]!) ?? []) entries.push({ file, tag });
  }
  if (entries.length >= limit) return entries.slice(0, limit);
  const rest = data.files.map((_, f) => f).filter((f) => !seenFiles.has(f) && (!allowed || allowed(f)));
  rest.sort((a, b) => ranked.fileRank[b]! - ranked.fileRank[a]! || data.pathOrder[a]! - data.pathOrder[b]!);
  for (const f of rest) entries.push({ file: f });
  return entries.slice(0, limit);
}

/**
 * How many entries rankedEntries would list without a limit: every definition of a file (each is its file's
 * definer of that name, and the ranking lists every (file, name) pair once) and one entry per file without any.
 */
export function entryCount(data: MapData, allowed?: (file: number) => boolean): number {
  let n = 0;
  for (let f = 0; f < data.files.length; f++) if (!allowed || allowed(f)) n += data.tags.count(f) || 1;
  return n;
}

export function renderRepoMap(db: IndexDatabase, data: MapData, request: MapRequest, ranked: RankOutput, graph: { cached: boolean; ms: number }): RepoMap {
  // Every entry renders at least one token, so no more than maxTokens of them can fit (fit.ts). A slice's own files
  // go first wherever they rank, so it lists all of its (smaller) neighbourhood.
  let entries = rankedEntries(data, ranked, request.allowed, request.first ? Infinity : request.maxTokens);
  if (request.first) entries = [...entries.filter((e) => request.first!.has(e.file)), ...entries.filter((e) => !request.first!.has(e.file))];
  // Only the entries that could fit are ever rendered (each costs at least a token); fetch their heads once.
  loadDetails(db, data, groupEntries(data, entries.slice(0, request.maxTokens)).flatMap((g) => g.tags));
  const fitted = fitMap(data, entries, request.maxTokens);
  return {
    text: fitted.text,
    tokens: fitted.tokens,
    maxTokens: request.maxTokens,
    ...(request.scope ? { scope: request.scope } : {}),
    files: fitted.groups.map((g) => ({
      path: data.files[g.file]!,
      rank: Number(ranked.fileRank[g.file]!.toPrecision(4)),
      symbols: g.tags.map((t) => {
        const detail = data.details.get(t.id);
        return { name: t.name, qualifiedName: detail?.qualifiedName ?? t.name, kind: t.kind, line: t.line, signature: detail?.signature ?? '' };
      }),
    })),
    stats: {
      filesIndexed: data.files.length,
      definitions: data.tags.size,
      candidates: request.first ? entries.length : entryCount(data, request.allowed),
      shown: fitted.shown,
      indexVersion: data.version,
      graphCached: graph.cached,
      elapsedMs: 0,
      graphMs: graph.ms,
    },
  };
}

export function isUnpersonalised(options: RepoMapOptions): boolean {
  return !options.mentionedFiles?.length && !options.mentionedIdents?.length;
}

export { rankDefinitions };
