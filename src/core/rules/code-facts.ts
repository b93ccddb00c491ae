/**
 * The code facts rules read, shaped as beadloom records them so `deny`, `forbid_import`, `module_coverage` and
 * `unregistered_feature_candidate` give beadloom's answers on the same workspace:
 * - only files under the scan paths (`.beadloom/config.yml` `scan_paths`; every file when there is no such config);
 * - Python imports only at module top level (beadloom reads the tree's root statements; an import inside a function
 *   or an `if TYPE_CHECKING:` block is not recorded);
 * - an import's target node comes from its module path (`beadloom.graph.x` → `beadloom/graph/x`), walked up to the
 *   deepest node whose `source` is that folder (a file `source` is never a module path's target);
 * - a file's node is the first annotation value, in the order written, that names a node (no `source` fallback;
 *   a workspace without a beadloom config falls back to the node whose `source` holds the file).
 * Relative imports, which beadloom does not record, are matched through the file they resolve to.
 */
import type { CodeView } from '../graph/code-view';
import type { DeclaredGraph, GraphEdge } from '../graph/types';
import { indexedLines } from '../store/chunk-texts';

export interface RuleImport {
  file: string;
  line: number;
  /** The module as written (`beadloom.graph.loader`, `@/lib/db`, `./util`). */
  module: string;
  relative: boolean;
  /** The indexed file a relative import resolves to. */
  target?: string;
}

export interface RuleScope {
  /** Folders code rules look at; undefined means the whole workspace. */
  scanPaths?: string[];
}

const DEFAULT_SCAN = ['src', 'lib', 'app'];
const TS_LIKE = /\.(tsx?|jsx?|vue)$/;
const TS_ALIASES: Array<[string, string]> = [['@/', 'src/'], ['~/', 'src/']];
const OUTLINE = "('function','method','class','interface','type','enum','struct','trait','module','protocol','object','macro')";

export class RuleCode {
  private importList?: RuleImport[];
  private readonly bySource = new Map<string, string>();
  private readonly fileNodes = new Map<string, string | undefined>();
  private fileIds?: Map<string, number>;

  constructor(readonly code: CodeView, readonly graph: DeclaredGraph, readonly scope: RuleScope = {}) {
    for (const n of graph.nodes.values()) if (n.source && !this.bySource.has(n.source)) this.bySource.set(n.source, n.ref_id);
  }

  inScope(path: string): boolean {
    const dirs = this.scope.scanPaths;
    return !dirs || dirs.some((d) => path.startsWith(`${d.replace(/\/+$/, '')}/`));
  }

  /** Files in scope, as indexed. */
  files(): string[] {
    return [...this.code.fileTable().keys()].filter((p) => this.inScope(p)).sort();
  }

  imports(): RuleImport[] {
    if (this.importList) return this.importList;
    const out: RuleImport[] = [];
    let lines: { id: number; lines: readonly string[] | undefined } | undefined;
    for (const r of this.code.db.all('SELECT f.id, f.path, f.language, i.source, i.line FROM imports i JOIN files f ON f.id = i.file_id ORDER BY f.path, i.line')) {
      const file = String(r.path);
      if (!this.inScope(file)) continue;
      const line = Number(r.line);
      if (r.language === 'python') {
        if (lines?.id !== Number(r.id)) lines = { id: Number(r.id), lines: indexedLines(this.code.db, Number(r.id)) };
        if (/^\s/.test(lines.lines?.[line - 1] ?? '')) continue;
      }
      const module = String(r.source);
      const relative = module.startsWith('.');
      const target = relative ? this.code.resolver().resolve(file, module) : undefined;
      out.push({ file, line, module, relative, ...(target && target !== file ? { target } : {}) });
    }
    this.importList = out;
    return out;
  }

  /**
   * The `depends_on` edges beadloom's index adds from code (create_import_edges): from the node owning the importing
   * file by its folders to the node the import resolves to, once per pair, at the first such import.
   */
  importEdges(): GraphEdge[] {
    const out: GraphEdge[] = [];
    const seen = new Set<string>();
    for (const imp of this.imports()) {
      const dst = this.importNode(imp);
      if (!dst) continue;
      const src = this.ownerOfFile(imp.file);
      if (!src || src === dst) continue;
      const key = `${src}\u0000${dst}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ src, dst, kind: 'depends_on', at: { file: imp.file, line: imp.line } });
    }
    return out;
  }

  /** What `forbid_import.to` is matched against: the module path with every dot a slash, or a relative import's file. */
  importPath(imp: RuleImport): string | undefined {
    return imp.relative ? imp.target : imp.module.replace(/\./g, '/');
  }

  /** The node an import points at (beadloom's resolve_import_to_node), or undefined. */
  importNode(imp: RuleImport): string | undefined {
    if (imp.relative) return imp.target ? this.ownerOfFile(imp.target) : undefined;
    const prefixes = this.modulePrefixes();
    const parts = imp.module.replace(/\./g, '/');
    for (const prefix of prefixes) {
      for (const candidate of [`${prefix}${parts}.py`, `${prefix}${parts}/__init__.py`]) {
        const first = this.symbolAnnotations(candidate)[0];
        for (const kind of ['domain', 'service', 'feature']) {
          const v = first?.[kind];
          if (v !== undefined && this.graph.nodes.has(`${kind}:${v}`)) return `${kind}:${v}`;
        }
      }
    }
    let dir: string | undefined = parts;
    if (TS_LIKE.test(imp.file)) {
      const alias = TS_ALIASES.find(([a]) => imp.module.startsWith(a));
      dir = alias ? alias[1] + imp.module.slice(alias[0].length) : undefined;
    }
    if (dir === undefined) return undefined;
    for (const prefix of prefixes) {
      const segs = `${prefix}${dir}`.split('/');
      for (let i = segs.length; i > 0; i--) {
        const hit = this.nodeWithSource(segs.slice(0, i).join('/'));
        if (hit) return hit;
      }
    }
    return undefined;
  }

  /**
   * Folders a module path may be relative to, in beadloom's order (scan paths, then the root). Without a beadloom
   * config the root comes first: beadloom's order sends `src.auth.users` to a root node whose source is `src/`.
   */
  private modulePrefixes(): string[] {
    const scan = this.scope.scanPaths;
    return scan ? [...scan.map((p) => `${p}/`), ''] : ['', ...DEFAULT_SCAN.map((p) => `${p}/`)];
  }

  /** The node owning a file by its folders (beadloom's _find_node_for_file): the file itself is not looked at. */
  ownerOfFile(path: string): string | undefined {
    const segs = path.split('/');
    for (let i = segs.length - 1; i > 0; i--) {
      const hit = this.nodeWithSource(segs.slice(0, i).join('/'));
      if (hit) return hit;
    }
    return undefined;
  }

  /** The node of a file for `deny` (beadloom's _get_file_node): the first annotation value naming a node. */
  fileNode(path: string): string | undefined {
    if (!this.fileNodes.has(path)) {
      let found: string | undefined;
      for (const ann of this.symbolAnnotations(path)) {
        found = Object.values(ann).find((v) => this.graph.nodes.has(v));
        if (found) break;
      }
      // Without a beadloom config, an unannotated file belongs to the node whose source it is or lies under.
      if (!found && !this.scope.scanPaths) found = this.bySource.get(path) ?? this.ownerOfFile(path);
      this.fileNodes.set(path, found);
    }
    return this.fileNodes.get(path);
  }

  /**
   * Each top-level definition's annotations in line order, module-level pairs first and the definition's own after
   * (beadloom's code_symbols rows). A file without top-level definitions has none, whatever its comments say.
   */
  symbolAnnotations(path: string): Array<Record<string, string>> {
    const id = this.fileId(path);
    if (id === undefined) return [];
    const fileAnn: Record<string, string> = {};
    const own = new Map<number, Record<string, string>>();
    for (const r of this.code.db.all('SELECT symbol_id, key, value FROM annotations WHERE file_id = ? ORDER BY rowid', [id])) {
      if (r.symbol_id === null) fileAnn[String(r.key)] = String(r.value);
      else {
        const s = Number(r.symbol_id);
        if (!own.has(s)) own.set(s, {});
        own.get(s)![String(r.key)] = String(r.value);
      }
    }
    return this.code.db.all(`SELECT id FROM symbols WHERE file_id = ? AND container IS NULL AND kind IN ${OUTLINE} ORDER BY line_start`, [id])
      .map((r) => ({ ...fileAnn, ...own.get(Number(r.id)) }));
  }

  private fileId(path: string): number | undefined {
    this.fileIds ??= new Map([...this.code.fileTable()].map(([p, f]) => [p, f.id]));
    return this.fileIds.get(path);
  }

  private nodeWithSource(segment: string): string | undefined {
    return this.bySource.get(`${segment}/`) ?? this.bySource.get(segment);
  }
}
