/**
 * Navigation and repo-map methods of the engine façade. The editor's language servers answer when the host gave a
 * NavigationProvider and they know the symbol; otherwise (and when they fail) the tree-sitter index answers.
 */
import { EngineError, throwIfAborted } from '../errors';
import { joinPath } from '../index/paths';
import type { EngineDeps } from '../ports';
import { createRepoMapService } from '../repomap/service';
import { indexVersion } from '../store/index-version';
import type { RepoMap, RepoMapOptions, RepoMapSliceOptions } from '../repomap/types';
import type { IndexDatabase } from '../store/database';
import type { IndexRequest } from '../store/index-request';
import { loadCandidates, rankDefinitions, type RankedDefinition } from './definitions';
import { goModulePath, ImportResolver } from './imports';
import { lspDefinitions, lspLocationsAsDefinitions, lspReferences } from './lsp';
import { indexImplementations } from './implementations';
import { indexReferences, withProximity } from './references';
import { ImportRelations } from './relations';
import { createLineReader, type LineReader } from './source-lines';
import { suggestSymbols } from './suggestions';
import { parseSymbolQuery, type SymbolQuery } from './symbol-query';
import type {
  DefinitionHit, DefinitionOptions, DefinitionsResult, ImplementationsResult, ReferenceOptions, ReferencesResult,
} from './types';

/** Each method reads the index of the request it serves (see store/index-request.ts). */
export interface NavigationMethods {
  definitions(request: IndexRequest, symbol: string, options?: DefinitionOptions): Promise<DefinitionsResult>;
  references(request: IndexRequest, symbol: string, options?: ReferenceOptions): Promise<ReferencesResult>;
  implementations(request: IndexRequest, symbol: string, options?: DefinitionOptions): Promise<ImplementationsResult>;
  repoMap(request: IndexRequest, options?: RepoMapOptions): Promise<RepoMap>;
  repoMapSlice(request: IndexRequest, files: string[], options?: RepoMapSliceOptions): Promise<RepoMap>;
}

const DEFAULT_DEFINITIONS = 10;
const DEFAULT_REFERENCES = 100;

function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined) return fallback;
  if (!Number.isFinite(limit) || limit < 1) throw new EngineError('invalid_input', `limit must be a positive number, got ${limit}`);
  return Math.min(Math.floor(limit), 10_000);
}

export function createNavigation(deps: EngineDeps): NavigationMethods {
  const maps = createRepoMapService(deps.clock, deps.storage, deps.logger);
  let relations: { version: string; value: ImportRelations } | undefined;

  /** The index, or undefined when there is none yet but a language server can answer instead. */
  async function indexOrNone(request: IndexRequest): Promise<IndexDatabase | undefined> {
    try {
      return await request.db();
    } catch (e) {
      if (deps.navigation && EngineError.is(e, 'not_initialized')) return undefined;
      throw e;
    }
  }

  async function relationsOf(db: IndexDatabase): Promise<ImportRelations> {
    const version = indexVersion(db);
    if (relations?.version !== version) {
      const goMod = await deps.fs.readFile(joinPath(deps.root, 'go.mod')).then((b) => new TextDecoder().decode(b), () => undefined);
      relations = { version, value: new ImportRelations(db, ImportResolver.load(db, goModulePath(goMod))) };
    }
    return relations.value;
  }

  /** Provider answers, or [] when it is absent, fails or knows nothing (then the index answers). */
  async function fromProvider<T>(what: string, ask: () => Promise<T[]>): Promise<T[]> {
    if (!deps.navigation) return [];
    try {
      return await ask();
    } catch (e) {
      if (EngineError.is(e, 'cancelled')) throw e;
      deps.logger.debug(`language server ${what} failed, using the index: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    }
  }

  async function resolve(query: SymbolQuery, db: IndexDatabase | undefined, lines: LineReader, signal?: AbortSignal): Promise<DefinitionHit[]> {
    let hits = await fromProvider('workspace symbols', () => lspDefinitions(deps.navigation!, query, db, lines, signal));
    throwIfAborted(signal);
    if (!hits.length && db) {
      const candidates = loadCandidates(db, query.name);
      if (query.qualifiers.length) await addGoPackages(candidates, lines);
      const relations = candidates.length > 1 ? await relationsOf(db) : undefined;
      hits = rankDefinitions(candidates, query, relations && ((path) => relations.importerCount(path)));
    }
    if (!hits.length) {
      if (!db) throw new EngineError('not_initialized', 'no index yet and the language servers do not know this symbol; run `context-oracle index`');
      throw new EngineError('not_found', `no definition of "${query.raw}" in the index`, { suggestions: suggestSymbols(db, query) });
    }
    return hits;
  }

  return {
    async definitions(request, symbol, options = {}) {
      const limit = clampLimit(options.limit, DEFAULT_DEFINITIONS);
      const query = parseSymbolQuery(symbol);
      const db = await indexOrNone(request);
      const hits = await resolve(query, db, createLineReader(deps.fs, deps.root), options.signal);
      return { query: query.raw, results: hits.slice(0, limit) };
    },

    async references(request, symbol, options = {}) {
      const limit = clampLimit(options.limit, DEFAULT_REFERENCES);
      const query = parseSymbolQuery(symbol);
      const db = await indexOrNone(request);
      const lines = createLineReader(deps.fs, deps.root);
      const defs = await resolve(query, db, lines, options.signal);
      const definition = defs[0]!;
      let results = await fromProvider('references', () => lspReferences(deps.navigation!, definition, db, lines, options.signal));
      const source = results.length ? 'lsp' : 'index';
      if (db) {
        const relations = await relationsOf(db);
        results = source === 'lsp' ? withProximity(results, definition, relations) : await indexReferences({ db, relations, lines }, definition);
      }
      if (options.includeDefinition) {
        results.unshift({ path: definition.path, line: definition.line, column: definition.column, endColumn: definition.endColumn, kind: 'definition', preview: await lines.line(definition.path, definition.line), proximity: 'same-file', source: definition.source });
      }
      return { query: query.raw, definition, otherDefinitions: defs.filter((d) => d.name === definition.name).length - 1, results: results.slice(0, limit), total: results.length, source };
    },

    async implementations(request, symbol, options = {}) {
      const limit = clampLimit(options.limit, DEFAULT_REFERENCES);
      const query = parseSymbolQuery(symbol);
      const db = await indexOrNone(request);
      const lines = createLineReader(deps.fs, deps.root);
      const definition = (await resolve(query, db, lines, options.signal))[0]!;
      const at = { path: definition.path, line: definition.line, column: definition.column };
      let results = await fromProvider('implementations', async () => lspLocationsAsDefinitions(await deps.navigation!.implementations(at, options.signal), definition.name, db, lines));
      const source = results.length ? 'lsp' : 'index';
      if (!results.length && db) results = indexImplementations(db, definition);
      return { query: query.raw, definition, results: results.slice(0, limit), source };
    },

    async repoMap(request, options) {
      return maps.map(await request.db(), options);
    },

    async repoMapSlice(request, files, options) {
      return maps.slice(await request.db(), files, options);
    },
  };
}

/** Go qualifies names by package, which need not be the directory's name (`package caddy` at the root). */
async function addGoPackages(candidates: RankedDefinition[], lines: LineReader): Promise<void> {
  for (const c of candidates) {
    if (c.language !== 'go') continue;
    const text = await lines.lines(c.hit.path);
    const clause = text?.find((l) => /^\s*package\s+\w+/.test(l));
    if (clause) c.packageName = /package\s+(\w+)/.exec(clause)![1]!;
  }
}
