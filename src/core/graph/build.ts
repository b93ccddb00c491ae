/** Parsed YAML files → one DeclaredGraph: ids validated, duplicates and dangling edges reported, cycles warned. */
import { findCycles } from './cycles';
import { KNOWN_EDGE_KINDS, type DeclaredGraph, type GraphEdge, type GraphIssue, type GraphNode, type NodeLink } from './types';
import type { ParsedYamlFile } from './yaml-file';

const NODE_FIELDS = new Set(['ref_id', 'kind', 'summary', 'source', 'docs', 'links', 'tags']);
/** Edge kinds whose cycles are design errors worth a warning; `uses` loops are ordinary. */
const ACYCLIC_KINDS = ['part_of', 'depends_on'];

export interface GraphFile {
  file: string;
  parsed: ParsedYamlFile;
}

export function buildGraph(files: readonly GraphFile[]): DeclaredGraph {
  const graph: DeclaredGraph = { nodes: new Map(), edges: [], out: new Map(), in: new Map(), issues: [], files: files.map((f) => f.file) };
  const issue = (i: GraphIssue): void => { graph.issues.push(i); };
  const tags = new Map<string, Set<string>>();
  for (const { parsed } of files) {
    graph.issues.push(...parsed.issues);
    for (const [tag, ids] of Object.entries(parsed.tags)) for (const id of ids) {
      if (!tags.has(id)) tags.set(id, new Set());
      tags.get(id)!.add(tag);
    }
  }
  for (const { file, parsed } of files) {
    for (const { data, line } of parsed.nodes) {
      const refId = scalarString(data.ref_id).trim();
      if (!refId) {
        issue({ severity: 'error', code: 'missing_id', file, line, message: 'node has no ref_id; skipped' });
        continue;
      }
      const first = graph.nodes.get(refId);
      if (first) {
        issue({ severity: 'error', code: 'duplicate_id', file, line, message: `duplicate ref_id "${refId}" (first declared at ${first.at.file}:${first.at.line}); skipped` });
        continue;
      }
      graph.nodes.set(refId, toNode(refId, data, file, line));
    }
  }
  for (const [id, set] of tags) {
    const node = graph.nodes.get(id);
    if (node) node.tags = [...new Set([...node.tags, ...set])];
  }
  const seen = new Set<string>();
  for (const { file, parsed } of files) {
    for (const { data, line } of parsed.edges) {
      const src = scalarString(data.src).trim();
      const dst = scalarString(data.dst).trim();
      const kind = scalarString(data.kind).trim();
      if (!src || !dst || !kind) {
        issue({ severity: 'error', code: 'invalid_edge', file, line, message: 'edge needs non-empty `src`, `dst` and `kind`; skipped' });
        continue;
      }
      // `@repo:ref_id` endpoints belong to another repository (beadloom federation); they resolve elsewhere.
      if (src.startsWith('@') || dst.startsWith('@')) continue;
      const missing = [src, dst].filter((id) => !graph.nodes.has(id));
      if (missing.length) {
        issue({ severity: 'warning', code: 'dangling_edge', file, line, message: `edge ${src} -${kind}-> ${dst} points at unknown node ${missing.map((m) => `"${m}"`).join(' and ')}; skipped` });
        continue;
      }
      const key = `${src}\u0000${dst}\u0000${kind}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!KNOWN_EDGE_KINDS.includes(kind)) {
        issue({ severity: 'warning', code: 'unknown_edge_kind', file, line, message: `edge ${src} -${kind}-> ${dst}: unknown edge kind \`${kind}\` (known: ${KNOWN_EDGE_KINDS.join(', ')}); kept, walked last` });
      }
      const lifecycle = scalarString(data.lifecycle).trim();
      const edge: GraphEdge = { src, dst, kind, ...(lifecycle ? { lifecycle } : {}), at: { file, line } };
      graph.edges.push(edge);
      push(graph.out, src, edge);
      push(graph.in, dst, edge);
    }
  }
  for (const kind of ACYCLIC_KINDS) {
    for (const cycle of findCycles(graph.edges.filter((e) => e.kind === kind && e.src !== e.dst))) {
      const at = graph.nodes.get(cycle[0]!)!.at;
      issue({ severity: 'warning', code: 'cycle', file: at.file, line: at.line, message: `${kind} cycle: ${[...cycle, cycle[0]].join(' -> ')}` });
    }
  }
  return graph;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function scalarString(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

function stringList(v: unknown): string[] {
  if (typeof v === 'string') return v.trim() ? [v.trim()] : [];
  if (!Array.isArray(v)) return [];
  return v.map(scalarString).map((s) => s.trim()).filter(Boolean);
}

function links(v: unknown): NodeLink[] {
  if (!Array.isArray(v)) return [];
  const out: NodeLink[] = [];
  for (const item of v) {
    if (typeof item === 'string' && item.trim()) out.push({ url: item.trim() });
    else if (item && typeof item === 'object') {
      const url = scalarString((item as Record<string, unknown>).url).trim();
      const label = scalarString((item as Record<string, unknown>).label).trim();
      if (url) out.push(label ? { url, label } : { url });
    }
  }
  return out;
}

function toNode(refId: string, data: Record<string, unknown>, file: string, line: number): GraphNode {
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) if (!NODE_FIELDS.has(k)) extra[k] = v;
  const source = scalarString(data.source).trim().replace(/^\.\//, '');
  return {
    ref_id: refId,
    kind: scalarString(data.kind).trim(),
    summary: scalarString(data.summary).trim(),
    ...(source ? { source } : {}),
    docs: stringList(data.docs).map((d) => d.replace(/^\.\//, '')),
    links: links(data.links),
    tags: stringList(data.tags),
    extra,
    at: { file, line },
  };
}
