/**
 * Finds and reads the graph YAML: the native `.context-oracle/graph/*.yml` and beadloom's `.beadloom/_graph/*.yml`
 * (read unchanged), plus `.context-oracle/rules.yml`. Nothing here throws for bad content: problems become issues.
 */
import type { FileSystem } from '../ports';
import { buildGraph, type GraphFile } from './build';
import type { ParseCache } from './parse-cache';
import type { DeclaredGraph } from './types';
import { listFiles, readTextRel, statRel, stampOf } from './workspace-files';
import { parseYamlFile } from './yaml-file';

export const GRAPH_DIRS = ['.context-oracle/graph', '.beadloom/_graph'] as const;
const EXTRA_RULE_FILES = ['.context-oracle/rules.yml', '.context-oracle/rules.yaml'];
/** A graph file larger than this is reported and skipped rather than parsed. */
const MAX_GRAPH_FILE_BYTES = 16 * 1024 * 1024;

export interface GraphFiles {
  /** Workspace-relative YAML files that exist, in load order. */
  files: string[];
  /** Changes whenever any of them is added, removed or edited. */
  fingerprint: string;
}

export async function locateGraphFiles(fs: FileSystem, root: string): Promise<GraphFiles> {
  const files: string[] = [];
  for (const dir of GRAPH_DIRS) {
    for (const name of await listFiles(fs, root, dir)) if (/\.ya?ml$/i.test(name)) files.push(`${dir}/${name}`);
  }
  for (const f of EXTRA_RULE_FILES) if (await statRel(fs, root, f)) files.push(f);
  const stamps = await Promise.all(files.map(async (f) => stampOf(f, await statRel(fs, root, f))));
  return { files, fingerprint: stamps.join('|') };
}

export interface LoadedGraph {
  graph: DeclaredGraph;
  /** Every parsed file, for the rules loader. */
  parsed: GraphFile[];
}

export async function loadGraph(fs: FileSystem, root: string, located: GraphFiles, cache?: ParseCache): Promise<LoadedGraph> {
  const parsed: GraphFile[] = [];
  const unreadable: GraphFile[] = [];
  for (const file of located.files) {
    const stat = await statRel(fs, root, file);
    const stamp = stampOf(file, stat);
    const cached = await cache?.get(file, stamp);
    if (cached) {
      parsed.push({ file, parsed: cached });
      continue;
    }
    if (stat && stat.size > MAX_GRAPH_FILE_BYTES) {
      unreadable.push({ file, parsed: { ...emptyFile(), issues: [{ severity: 'error', code: 'unreadable', file, line: 1, message: `graph file is ${stat.size} bytes, over the ${MAX_GRAPH_FILE_BYTES} byte limit; skipped` }] } });
      continue;
    }
    const text = await readTextRel(fs, root, file);
    if (text === undefined) {
      unreadable.push({ file, parsed: { ...emptyFile(), issues: [{ severity: 'error', code: 'unreadable', file, line: 1, message: 'graph file could not be read; skipped' }] } });
      continue;
    }
    const result = parseYamlFile(file, text);
    await cache?.set(file, stamp, result);
    parsed.push({ file, parsed: result });
  }
  await cache?.flush(located.files);
  const all = [...parsed, ...unreadable];
  return { graph: buildGraph(all), parsed: all };
}

function emptyFile(): GraphFile['parsed'] {
  return { nodes: [], edges: [], rules: [], tags: {}, hasRules: false, issues: [] };
}
