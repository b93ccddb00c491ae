/**
 * What a cached bundle took from the index, so an entry outlives index runs that did not touch it. A bundle of
 * declared nodes depends on: the files linked to its nodes (annotations, `source`) and its test files, by content
 * hash; any file added under a node's `source`; any file that gained an annotation naming one of its nodes; any
 * test file. A bundle that walked code nodes (callers can be anywhere) is valid only for the exact index generation.
 */
import type { Knowledge } from '../graph/knowledge';
import type { CodeView } from '../graph/code-view';
import { testFramework } from '../testmap/detect';
import type { ContextBundle } from './types';

export interface CodeDeps {
  generation: string;
  /** Clock time of the build; files indexed later (files.indexed_at) are the changes to look at. */
  builtAt: number;
  strict: boolean;
  files: Array<[string, string]>;
  prefixes: string[];
  refs: string[];
}

export function collectCodeDeps(k: Knowledge, bundle: ContextBundle, builtAt: number): CodeDeps | undefined {
  const code = k.code;
  if (!code) return undefined;
  const ids = bundle.graph.nodes.map((n) => n.ref_id);
  const declared = ids.filter((id) => k.graph.nodes.has(id));
  const paths = new Set<string>([...bundle.code_symbols.map((s) => s.file_path), ...(bundle.tests?.test_files ?? []), ...bundle.routes.map((r) => r.file)]);
  for (const id of declared) for (const f of code.filesOfNode(k.graph, id)) paths.add(f);
  const table = code.fileTable();
  return {
    generation: code.generation,
    builtAt,
    strict: declared.length !== ids.length,
    files: [...paths].sort().map((p) => [p, table.get(p)?.hash ?? '']),
    prefixes: declared.map((id) => k.graph.nodes.get(id)!.source?.replace(/\/+$/, '')).filter((s): s is string => !!s),
    refs: declared,
  };
}

export function codeDepsHold(code: CodeView | undefined, deps: CodeDeps | undefined): boolean {
  if (!deps || !code) return !deps && !code;
  if (deps.generation === code.generation) return true;
  if (deps.strict) return false;
  const table = code.fileTable();
  for (const [path, hash] of deps.files) if ((table.get(path)?.hash ?? '') !== hash) return false;
  const changed = code.db.all('SELECT id, path FROM files WHERE indexed_at > ?', [deps.builtAt]);
  for (const r of changed) {
    const path = String(r.path);
    if (testFramework(path) || deps.prefixes.some((p) => path === p || path.startsWith(`${p}/`))) return false;
  }
  if (changed.length && deps.refs.length) {
    const hit = code.db.get(`SELECT 1 AS x FROM annotations WHERE file_id IN (${changed.map((r) => Number(r.id)).join(',')})
      AND value IN (${deps.refs.map(() => '?').join(',')}) LIMIT 1`, deps.refs);
    if (hit) return false;
  }
  return true;
}
