/**
 * Concept query (seed "context-query"): concepts whose name matches the term (case-insensitively; the seed's
 * exact-case match is a stated shortcut) are `direct`, their 1–2 hop neighbours `neighbor`; each concept brings
 * its files with a preview, and the adjacency between the concepts. The envelope is the seed's
 * `{status, result, errors, meta}`.
 */
import { OUTLINE_KINDS } from './code-view';
import { neighboursOf, type Knowledge } from './knowledge';
import { readTextRel } from './workspace-files';
import type { FileSystem } from '../ports';

export interface Concept {
  id: number;
  name: string;
  type: string;
  relevance: 'direct' | 'neighbor';
}

export interface ConceptFile {
  url: string;
  concepts: number[];
  preview: string;
}

export interface ConceptResult {
  concepts: Concept[];
  files: ConceptFile[];
  graph: { nodes: number[]; edges: Array<{ source: number; target: number; relation: string }> };
}

export interface QueryEnvelope {
  status: 'success' | 'error';
  result: ConceptResult | null;
  errors: Record<string, Array<{ code: string; message: string }>> | null;
  meta: { path: string; timestamp: string; duration_ms: number };
}

export interface ConceptQueryOptions {
  /** Neighbour hops, 0–2 (default 1). */
  depth?: number;
  /** Most concepts (default 10). */
  limit?: number;
}

const PREVIEW_CHARS = 300;
const MAX_FILES = 20;

export async function conceptQuery(k: Knowledge, fs: FileSystem, root: string, query: string, options: ConceptQueryOptions = {}): Promise<ConceptResult> {
  const term = query.trim().toLowerCase();
  const depth = Math.max(0, Math.min(2, Math.floor(options.depth ?? 1)));
  const limit = Math.max(1, Math.min(200, Math.floor(options.limit ?? 10)));
  const names: string[] = [];
  const relevance = new Map<string, Concept['relevance']>();
  const add = (id: string, r: Concept['relevance']) => { if (!relevance.has(id) && names.length < limit) { relevance.set(id, r); names.push(id); } };
  const direct: string[] = [];
  for (const n of k.graph.nodes.values()) if (direct.length < limit && n.ref_id.toLowerCase().includes(term)) direct.push(n.ref_id);
  if (k.code && direct.length < limit) {
    for (const r of k.code.db.all(`SELECT s.qualified_name, f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE instr(lower(s.name), ?) > 0
      AND s.kind IN (${OUTLINE_KINDS.map((x) => `'${x}'`).join(',')}) ORDER BY length(s.name), f.path LIMIT ?`, [term, limit - direct.length])) {
      direct.push(`${String(r.path)}::${String(r.qualified_name)}`);
    }
  }
  // Direct hits that would fill the limit leave a third of it to their neighbours (the point of expanding);
  // slots the neighbours do not take go back to the remaining direct hits.
  const reserve = depth > 0 && limit > 1 ? Math.max(1, Math.floor(limit / 3)) : 0;
  const first = direct.slice(0, Math.max(1, limit - reserve));
  for (const id of first) add(id, 'direct');
  const around = neighboursOf(k);
  let frontier = [...names];
  for (let hop = 0; hop < depth; hop++) {
    const next: string[] = [];
    for (const id of frontier) for (const n of around(id)) if (!relevance.has(n.id) && !direct.includes(n.id) && names.length < limit) { add(n.id, 'neighbor'); next.push(n.id); }
    frontier = next;
  }
  for (const id of direct.slice(first.length)) add(id, 'direct');
  const idOf = new Map(names.map((n, i) => [n, i + 1] as const));
  const concepts: Concept[] = names.map((n) => ({ id: idOf.get(n)!, name: n, type: typeOf(k, n), relevance: relevance.get(n)! }));
  const edges: ConceptResult['graph']['edges'] = [];
  const seen = new Set<string>();
  for (const id of names) for (const n of around(id)) {
    const s = idOf.get(n.edge.src);
    const t = idOf.get(n.edge.dst);
    const key = `${s}:${t}:${n.edge.kind}`;
    if (s && t && !seen.has(key)) { seen.add(key); edges.push({ source: s, target: t, relation: n.edge.kind.toUpperCase() }); }
  }
  const byFile = new Map<string, number[]>();
  for (const c of concepts) for (const f of filesOf(k, c.name)) {
    if (!byFile.has(f)) byFile.set(f, []);
    byFile.get(f)!.push(c.id);
  }
  const files: ConceptFile[] = [];
  for (const [path, ids] of [...byFile].slice(0, MAX_FILES)) {
    const text = await readTextRel(fs, root, path);
    files.push({ url: fileUrl(root, path), concepts: ids, preview: text === undefined ? '(file not readable)' : text.slice(0, PREVIEW_CHARS) });
  }
  return { concepts, files, graph: { nodes: concepts.map((c) => c.id), edges } };
}

function typeOf(k: Knowledge, id: string): string {
  const n = k.graph.nodes.get(id);
  if (n) return n.kind;
  const r = k.code?.ref(id);
  return r?.type === 'symbol' ? r.kind : r ? 'file' : '';
}

function filesOf(k: Knowledge, id: string): string[] {
  const n = k.graph.nodes.get(id);
  if (n) return [...n.docs, ...(k.code ? k.code.filesOfNode(k.graph, id).slice(0, 5) : [])];
  const r = k.code?.ref(id);
  return r ? [r.path] : [];
}

function fileUrl(root: string, path: string): string {
  const abs = `${root.replace(/\\/g, '/').replace(/\/+$/, '')}/${path}`;
  return `file://${abs.startsWith('/') ? '' : '/'}${encodeURI(abs)}`;
}
