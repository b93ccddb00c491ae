/**
 * The code side of the knowledge graph, read from the index: files, symbols, calls (refs.in_symbol is the caller),
 * imports and containment, joined to declared nodes through `oracle:`/`beadloom:` annotations (any key whose value
 * is a node's ref_id, as beadloom does) and through a node's `source` path. A code ref_id is `path` for a file and
 * `path::Qualified.Name` for a symbol.
 */
import type { IndexDatabase, Row } from '../store/database';
import type { Neighbour } from './bfs';
import { testFramework } from '../testmap/detect';
import { ImportResolver } from './imports';
import type { DeclaredGraph } from './types';

export interface CodeSymbol {
  file_path: string;
  symbol_name: string;
  kind: string;
  line_start: number;
  line_end: number;
}

export type CodeRef =
  | { type: 'file'; id: string; path: string; language: string; lines: number }
  | { type: 'symbol'; id: string; path: string; symbolId: number; fileId: number; name: string; qname: string; kind: string; container?: string; signature: string; lineStart: number; lineEnd: number };

/** Definitions worth listing for a node; fields, locals and variables would drown them. */
export const OUTLINE_KINDS = ['function', 'method', 'class', 'interface', 'type', 'enum', 'struct', 'trait', 'module', 'protocol', 'object', 'macro'];
const OUTLINE_SQL = OUTLINE_KINDS.map((k) => `'${k}'`).join(',');
const FAN_OUT = 30;

export const symbolRefId = (path: string, qname: string): string => `${path}::${qname}`;

export function codeGeneration(db: IndexDatabase): string {
  const r = db.get('SELECT count(*) AS n, max(indexed_at) AS m FROM files');
  return `${Number(r?.n ?? 0)}:${Number(r?.m ?? 0)}`;
}

export class CodeView {
  private files?: Map<string, { id: number; language: string; lines: number; hash: string }>;
  private importResolver?: ImportResolver;
  private importers?: Map<string, Set<string>>;
  private links?: {
    graph: DeclaredGraph; byNode: Map<string, { files: Set<string>; symbols: Set<number> }>; byFile: Map<string, Set<string>>; bySymbol: Map<number, Set<string>>;
    /** Symbol → nodes its file's module-level annotation names under a key the symbol's own annotation overrides. */
    overridden: Map<number, Set<string>>;
  };

  private readonly refs = new Map<string, CodeRef | undefined>();

  constructor(readonly db: IndexDatabase, readonly generation: string) {}

  /** `resolve` for ids already known to name one file or symbol (neighbours of a walk), memoised. */
  ref(id: string): CodeRef | undefined {
    if (!this.refs.has(id)) {
      const r = this.resolve(id);
      this.refs.set(id, r && !('ambiguous' in r) ? r : undefined);
    }
    return this.refs.get(id);
  }

  fileTable(): Map<string, { id: number; language: string; lines: number; hash: string }> {
    this.files ??= new Map(this.db.all('SELECT id, path, language, lines, hash FROM files').map((r) => [String(r.path), { id: Number(r.id), language: String(r.language), lines: Number(r.lines), hash: String(r.hash) }]));
    return this.files;
  }

  resolver(): ImportResolver {
    this.importResolver ??= new ImportResolver(this.fileTable().keys());
    return this.importResolver;
  }

  /** Files this file imports that resolve inside the workspace, with the line of the import. */
  importsOf(path: string): Array<{ target: string; line: number; source: string }> {
    const f = this.fileTable().get(path);
    if (!f) return [];
    const out: Array<{ target: string; line: number; source: string }> = [];
    for (const r of this.db.all('SELECT source, line FROM imports WHERE file_id = ? ORDER BY line', [f.id])) {
      const target = this.resolver().resolve(path, String(r.source));
      if (target && target !== path) out.push({ target, line: Number(r.line), source: String(r.source) });
    }
    return out;
  }

  private importersOf(path: string): Set<string> {
    if (!this.importers) {
      this.importers = new Map();
      for (const r of this.db.all('SELECT f.path, i.source FROM imports i JOIN files f ON f.id = i.file_id')) {
        const target = this.resolver().resolve(String(r.path), String(r.source));
        if (!target || target === r.path) continue;
        if (!this.importers.has(target)) this.importers.set(target, new Set());
        this.importers.get(target)!.add(String(r.path));
      }
    }
    return this.importers.get(path) ?? new Set();
  }

  /** Annotation links between declared nodes and files/symbols, computed once per graph. */
  private linkTable(graph: DeclaredGraph): NonNullable<CodeView['links']> {
    if (this.links?.graph === graph) return this.links;
    const byNode = new Map<string, { files: Set<string>; symbols: Set<number> }>();
    const byFile = new Map<string, Set<string>>();
    const bySymbol = new Map<number, Set<string>>();
    const add = <K>(m: Map<K, Set<string>>, k: K, v: string): void => { if (!m.has(k)) m.set(k, new Set()); m.get(k)!.add(v); };
    const overridden = new Map<number, Set<string>>();
    const fileLevel = new Map<number, Map<string, string>>();
    const symbolLevel: Array<{ file: number; symbol: number; key: string }> = [];
    for (const r of this.db.all('SELECT a.key, a.value, a.symbol_id, a.file_id, f.path FROM annotations a JOIN files f ON f.id = a.file_id')) {
      const ref = String(r.value);
      if (r.symbol_id === null) {
        if (!fileLevel.has(Number(r.file_id))) fileLevel.set(Number(r.file_id), new Map());
        fileLevel.get(Number(r.file_id))!.set(String(r.key), ref);
      } else symbolLevel.push({ file: Number(r.file_id), symbol: Number(r.symbol_id), key: String(r.key) });
      if (!graph.nodes.has(ref)) continue;
      if (!byNode.has(ref)) byNode.set(ref, { files: new Set(), symbols: new Set() });
      if (r.symbol_id === null) {
        byNode.get(ref)!.files.add(String(r.path));
        add(byFile, String(r.path), ref);
      } else {
        byNode.get(ref)!.symbols.add(Number(r.symbol_id));
        add(bySymbol, Number(r.symbol_id), ref);
      }
    }
    // A symbol's own `feature=B` under a module-level `feature=A` takes it out of A (symbol annotations are stored
    // only where they differ from the file's, so a shared key means a different value).
    for (const { file, symbol, key } of symbolLevel) {
      const moduleValue = fileLevel.get(file)?.get(key);
      if (moduleValue !== undefined && graph.nodes.has(moduleValue)) add(overridden, symbol, moduleValue);
    }
    this.links = { graph, byNode, byFile, bySymbol, overridden };
    return this.links;
  }

  /** Files a node's `source` names: the file itself, or every indexed file under the folder. */
  sourceFiles(source: string | undefined): string[] {
    if (!source) return [];
    const prefix = source.replace(/\/+$/, '');
    const out: string[] = [];
    for (const path of this.fileTable().keys()) if (path === prefix || path.startsWith(`${prefix}/`)) out.push(path);
    return out.sort();
  }

  /** Every file linked to the node: annotated (file or symbol level) or under its source. */
  filesOfNode(graph: DeclaredGraph, refId: string): string[] {
    const linked = this.linkTable(graph).byNode.get(refId);
    const files = new Set<string>(linked?.files ?? []);
    if (linked?.symbols.size) {
      for (const r of this.db.all(`SELECT DISTINCT f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id IN (${[...linked.symbols].join(',')})`)) files.add(String(r.path));
    }
    for (const f of this.sourceFiles(graph.nodes.get(refId)?.source)) files.add(f);
    return [...files].sort();
  }

  /**
   * The code a node's docs describe, for doc↔code sync: annotated files, a file `source`, and the files under a
   * folder `source` that no more specific node's `source` claims (a root service's overview doc is not paired with
   * every file of its domains).
   */
  ownFilesOfNode(graph: DeclaredGraph, refId: string): string[] {
    const linked = this.linkTable(graph).byNode.get(refId);
    const files = new Set<string>(linked?.files ?? []);
    if (linked?.symbols.size) {
      for (const r of this.db.all(`SELECT DISTINCT f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id IN (${[...linked.symbols].join(',')})`)) files.add(String(r.path));
    }
    for (const f of this.sourceFiles(graph.nodes.get(refId)?.source)) if (this.ownerBySource(graph, f) === refId) files.add(f);
    return [...files].sort();
  }

  /** The node whose `source` is the longest prefix of the file. */
  private ownerBySource(graph: DeclaredGraph, path: string): string | undefined {
    let best: string | undefined;
    let bestLen = -1;
    for (const node of graph.nodes.values()) {
      const s = node.source?.replace(/\/+$/, '');
      if (s && (path === s || path.startsWith(`${s}/`)) && s.length > bestLen) { best = node.ref_id; bestLen = s.length; }
    }
    return best;
  }

  /** Declared nodes a file belongs to: annotations first, then the node whose `source` is the longest prefix. */
  nodesOfFile(graph: DeclaredGraph, path: string): string[] {
    const links = this.linkTable(graph);
    const out = [...(links.byFile.get(path) ?? [])].sort();
    const f = this.fileTable().get(path);
    if (f && !out.length) {
      const counts = new Map<string, number>();
      for (const r of this.db.all('SELECT a.value FROM annotations a WHERE a.file_id = ? AND a.symbol_id IS NOT NULL', [f.id])) {
        const v = String(r.value);
        if (graph.nodes.has(v)) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      out.push(...[...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k));
    }
    const best = this.ownerBySource(graph, path);
    if (best && !out.includes(best)) out.push(best);
    return out;
  }

  /**
   * Code symbols of the nodes, node by node in the order given (focus first): annotated symbols, then the top-level
   * definitions of annotated and source files. Test files are left out; they are what `tests` reports.
   */
  symbolsOfNodes(graph: DeclaredGraph, refIds: readonly string[], limit: number): { symbols: CodeSymbol[]; total: number } {
    const links = this.linkTable(graph);
    const seen = new Set<number>();
    const out: CodeSymbol[] = [];
    for (const id of refIds) {
      const l = links.byNode.get(id);
      const files = new Set<string>(l?.files ?? []);
      for (const f of this.sourceFiles(graph.nodes.get(id)?.source)) files.add(f);
      const rows: Row[] = [];
      if (l?.symbols.size) rows.push(...this.db.all(`${SYMBOL_SELECT} WHERE s.id IN (${[...l.symbols].join(',')})`));
      const fileIds = [...files].filter((p) => !testFramework(p)).map((p) => this.fileTable().get(p)?.id).filter((x): x is number => x !== undefined);
      for (let i = 0; i < fileIds.length; i += 500) {
        rows.push(...this.db.all(`${SYMBOL_SELECT} WHERE s.file_id IN (${fileIds.slice(i, i + 500).join(',')}) AND s.container IS NULL AND s.kind IN (${OUTLINE_SQL})`));
      }
      rows.sort((a, b) => String(a.path).localeCompare(String(b.path)) || Number(a.line_start) - Number(b.line_start));
      for (const r of rows) {
        if (seen.has(Number(r.id)) || testFramework(String(r.path)) || links.overridden.get(Number(r.id))?.has(id)) continue;
        seen.add(Number(r.id));
        out.push({ file_path: String(r.path), symbol_name: String(r.qualified_name), kind: String(r.kind), line_start: Number(r.line_start), line_end: Number(r.line_end) });
      }
    }
    return { symbols: out.slice(0, limit), total: out.length };
  }

  /** A file path or `path::Qualified.Name`, or a qualified/plain name that names exactly one symbol. */
  resolve(ref: string): CodeRef | { ambiguous: string[] } | undefined {
    const sep = ref.indexOf('::');
    if (sep > 0) {
      const r = this.db.get(`${SYMBOL_SELECT} WHERE f.path = ? AND s.qualified_name = ? ORDER BY s.line_start LIMIT 1`, [ref.slice(0, sep), ref.slice(sep + 2)]);
      return r ? symbolRef(r) : undefined;
    }
    const file = this.fileTable().get(ref);
    if (file) return { type: 'file', id: ref, path: ref, language: file.language, lines: file.lines };
    if (!/^[\w$.]+$/.test(ref)) return undefined;
    // A symbol's name is its qualified name or a suffix of it after a dot: looked up by name, which is indexed.
    const names = ref.split('.').map((_, i, parts) => parts.slice(i).join('.'));
    const rows = this.db.all(`${SYMBOL_SELECT} WHERE s.name IN (${names.map(() => '?').join(',')}) AND s.qualified_name = ? ORDER BY f.path, s.line_start LIMIT 20`, [...names, ref]);
    const hits = rows.length ? rows : this.db.all(`${SYMBOL_SELECT} WHERE s.name = ? AND s.kind IN (${OUTLINE_SQL}) ORDER BY f.path, s.line_start LIMIT 20`, [ref]);
    if (hits.length === 1) return symbolRef(hits[0]!);
    if (hits.length > 1) return { ambiguous: hits.map((h) => symbolRefId(String(h.path), String(h.qualified_name))) };
    return undefined;
  }

  /** Candidate code ids for "did you mean" (symbols whose name starts like the request, and file paths). */
  candidates(ref: string): string[] {
    const name = ref.split('::').pop()!.split('.').pop()!;
    const out = this.db.all(`${SYMBOL_SELECT} WHERE lower(s.name) LIKE ? AND s.kind IN (${OUTLINE_SQL}) ORDER BY length(s.name) LIMIT 50`, [`${name.slice(0, 3).toLowerCase()}%`])
      .map((r) => symbolRefId(String(r.path), String(r.qualified_name)));
    if (ref.includes('/')) out.push(...[...this.fileTable().keys()].filter((p) => p.startsWith(ref.slice(0, Math.max(1, ref.lastIndexOf('/'))))).slice(0, 50));
    return out;
  }

  neighbours(graph: DeclaredGraph, ref: CodeRef): Neighbour[] {
    const out: Neighbour[] = [];
    const links = this.linkTable(graph);
    if (ref.type === 'symbol') {
      const parent = ref.container ? symbolRefId(ref.path, ref.container) : ref.path;
      out.push({ id: parent, edge: { src: ref.id, dst: parent, kind: 'part_of' } });
      for (const r of this.db.all('SELECT qualified_name FROM symbols WHERE file_id = ? AND container = ? ORDER BY line_start LIMIT ?', [ref.fileId, ref.qname, FAN_OUT])) {
        const child = symbolRefId(ref.path, String(r.qualified_name));
        out.push({ id: child, edge: { src: child, dst: ref.id, kind: 'part_of' } });
      }
      for (const callee of this.callees(ref)) out.push({ id: callee, edge: { src: ref.id, dst: callee, kind: 'uses' } });
      for (const caller of this.callers(ref)) out.push({ id: caller, edge: { src: caller, dst: ref.id, kind: 'uses' } });
      const overridden = links.overridden.get(ref.symbolId);
      const nodes = new Set([...(links.bySymbol.get(ref.symbolId) ?? []), ...this.nodesOfFile(graph, ref.path).filter((n) => !overridden?.has(n))]);
      for (const n of nodes) out.push({ id: n, edge: { src: n, dst: ref.id, kind: 'touches_code' } });
    } else {
      for (const r of this.db.all('SELECT s.qualified_name FROM symbols s WHERE s.file_id = ? AND s.container IS NULL ORDER BY s.line_start LIMIT ?', [this.fileTable().get(ref.path)!.id, FAN_OUT])) {
        const child = symbolRefId(ref.path, String(r.qualified_name));
        out.push({ id: child, edge: { src: child, dst: ref.path, kind: 'part_of' } });
      }
      for (const imp of this.importsOf(ref.path).slice(0, FAN_OUT)) out.push({ id: imp.target, edge: { src: ref.path, dst: imp.target, kind: 'depends_on' } });
      for (const from of [...this.importersOf(ref.path)].sort().slice(0, FAN_OUT)) out.push({ id: from, edge: { src: from, dst: ref.path, kind: 'depends_on' } });
      for (const n of this.nodesOfFile(graph, ref.path)) out.push({ id: n, edge: { src: n, dst: ref.path, kind: 'touches_code' } });
    }
    return out;
  }

  private sameLanguage(a: string, b: string): boolean {
    const la = this.fileTable().get(a)?.language;
    const lb = this.fileTable().get(b)?.language;
    const family = (l: string | undefined) => (l === 'tsx' || l === 'jsx' || l === 'javascript' ? 'typescript' : l);
    return family(la) === family(lb);
  }

  private callees(ref: Extract<CodeRef, { type: 'symbol' }>): string[] {
    const names = this.db.all("SELECT DISTINCT name FROM refs WHERE file_id = ? AND in_symbol = ? AND kind IN ('call', 'class', 'type') LIMIT 200", [ref.fileId, ref.qname]).map((r) => String(r.name));
    const imported = new Set(this.importsOf(ref.path).map((i) => i.target));
    const out: string[] = [];
    for (const name of names) {
      if (out.length >= FAN_OUT) break;
      const defs = this.db.all(`${SYMBOL_SELECT} WHERE s.name = ? AND s.kind IN (${OUTLINE_SQL}) LIMIT 20`, [name]);
      // A name defined once in the whole index is trusted only in the caller's own language.
      const pick = defs.find((d) => d.path === ref.path) ?? defs.find((d) => imported.has(String(d.path)))
        ?? (defs.length === 1 && this.sameLanguage(String(defs[0]!.path), ref.path) ? defs[0] : undefined);
      if (pick) {
        const id = symbolRefId(String(pick.path), String(pick.qualified_name));
        if (id !== ref.id && !out.includes(id)) out.push(id);
      }
    }
    return out;
  }

  private callers(ref: Extract<CodeRef, { type: 'symbol' }>): string[] {
    const unique = Number(this.db.get(`SELECT count(*) AS n FROM symbols WHERE name = ? AND kind IN (${OUTLINE_SQL})`, [ref.name])?.n ?? 0) === 1;
    const importers = this.importersOf(ref.path);
    const out: string[] = [];
    for (const r of this.db.all('SELECT DISTINCT r.in_symbol, f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ? AND r.in_symbol IS NOT NULL LIMIT 500', [ref.name])) {
      const path = String(r.path);
      // Name-based calls are only trusted when the caller can see this definition.
      if (path !== ref.path && !importers.has(path) && !(unique && this.sameLanguage(path, ref.path))) continue;
      const id = symbolRefId(path, String(r.in_symbol));
      if (id !== ref.id && !out.includes(id)) out.push(id);
      if (out.length >= FAN_OUT) break;
    }
    return out;
  }
}

const SYMBOL_SELECT = 'SELECT s.id, s.file_id, s.name, s.qualified_name, s.kind, s.container, s.signature, s.line_start, s.line_end, f.path FROM symbols s JOIN files f ON f.id = s.file_id';

function symbolRef(r: Row): CodeRef {
  return {
    type: 'symbol', id: symbolRefId(String(r.path), String(r.qualified_name)), path: String(r.path), symbolId: Number(r.id), fileId: Number(r.file_id),
    name: String(r.name), qname: String(r.qualified_name), kind: String(r.kind), ...(r.container !== null ? { container: String(r.container) } : {}),
    signature: String(r.signature), lineStart: Number(r.line_start), lineEnd: Number(r.line_end),
  };
}
