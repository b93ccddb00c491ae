/**
 * What the editor shows beside the code, computed from engine answers only: annotated symbols of a file (hover and
 * CodeLens), stale docs and rule violations (Problems), ref_id suggestions (quick pick) and the symbol around a line
 * (Why at the cursor). Plain functions over the Engine so they run in plain Node tests.
 */
import { type CodeSymbol, type Engine, EngineError, findAnnotations, isAttached, type NodeSummary } from '../core';
import type { AnnotatedNode, AnnotatedSymbol, FileInsights, ProblemsResult, RefIdSuggestion, SymbolAt } from '../protocol/editor';

const quiet = (e: unknown): boolean => EngineError.is(e, 'not_initialized') || EngineError.is(e, 'not_found') || EngineError.is(e, 'index_corrupt');

/** The indexed definitions of one file, or [] when the file is not indexed. */
async function symbolsOf(engine: Engine, path: string): Promise<CodeSymbol[]> {
  try {
    // Depth 2 reaches the file's methods (depth 1 stops at its top-level definitions); a high node cap keeps them all.
    const { bundle } = await engine.contextBundle([path], { depth: 2, maxNodes: 500, maxChunks: 0 });
    return bundle.code_symbols.filter((s) => s.file_path === path).sort((a, b) => a.line_start - b.line_start);
  } catch (e) {
    if (quiet(e)) return [];
    throw e;
  }
}

async function declaredNodes(engine: Engine): Promise<Map<string, NodeSummary>> {
  try {
    const view = await engine.graphView();
    return new Map(view.nodes.map((n) => [n.ref_id, n]));
  } catch (e) {
    if (quiet(e)) return new Map();
    throw e;
  }
}

export async function fileInsights(engine: Engine, path: string, text: string): Promise<FileInsights> {
  const lines = text.split(/\r?\n/);
  const annotations = findAnnotations(lines);
  if (!annotations.length) return { path, symbols: [] };
  const [symbols, nodes, sync] = await Promise.all([
    symbolsOf(engine, path),
    declaredNodes(engine),
    engine.sync({ check: true }).catch((e: unknown) => { if (quiet(e)) return undefined; throw e; }),
  ]);
  const dependents = new Map<string, number>();
  const out: AnnotatedSymbol[] = [];
  for (const a of annotations) {
    // The definition an annotation belongs to: the first one after it with only comments or decorators between.
    const sym = symbols.find((s) => s.line_start > a.line && isAttached(lines, a.line, s.line_start));
    const annotated: AnnotatedNode[] = [];
    for (const value of new Set(Object.values(a.pairs))) {
      const node = nodes.get(value);
      if (!node) continue;
      if (!dependents.has(value)) {
        const why = await engine.why(value, { depth: 1 }).catch(() => undefined);
        dependents.set(value, why?.impact.downstream_direct ?? 0);
      }
      const staleDocs = (sync?.pairs ?? []).filter((p) => p.ref_id === value && p.code_path === path && p.status === 'stale').map((p) => p.doc_path);
      annotated.push({ ...node, dependents: dependents.get(value)!, staleDocs });
    }
    out.push({
      ref_id: sym ? `${path}::${sym.symbol_name}` : path,
      name: sym?.symbol_name ?? path.split('/').pop()!,
      kind: sym?.kind ?? 'file',
      line: sym?.line_start ?? a.line,
      endLine: sym?.line_end ?? a.line,
      annotationLine: a.line,
      pairs: a.pairs,
      nodes: annotated,
    });
  }
  return { path, symbols: out };
}

export async function problems(engine: Engine): Promise<ProblemsResult> {
  const [sync, lint] = await Promise.all([
    engine.sync({ check: true }).catch((e: unknown) => { if (quiet(e)) return undefined; throw e; }),
    engine.lint().catch((e: unknown) => { if (quiet(e)) return undefined; throw e; }),
  ]);
  return {
    staleDocs: (sync?.pairs ?? []).filter((p) => p.status === 'stale').map((p) => ({ ref_id: p.ref_id, doc_path: p.doc_path, code_path: p.code_path, line: 1 })),
    violations: lint?.violations ?? [],
  };
}

/**
 * Declared nodes first (filtered by `query` when given), then definitions named like the query. With no query, the
 * files and definitions of the repo map follow the nodes, most important first: a quick pick lists them at once and
 * filters them as the user types, instead of waiting empty for the first words.
 */
export async function refIdSuggestions(engine: Engine, query: string | undefined, limit = 50): Promise<RefIdSuggestion[]> {
  const q = (query ?? '').trim().toLowerCase();
  const out: RefIdSuggestion[] = [...(await declaredNodes(engine)).values()]
    .filter((n) => !q || n.ref_id.toLowerCase().includes(q) || n.summary.toLowerCase().includes(q))
    .map((n) => ({ ref_id: n.ref_id, kind: n.kind, summary: n.summary }));
  if (!q) {
    try {
      const map = await engine.repoMap({ maxTokens: 4_000 });
      for (const f of map.files) {
        out.push({ ref_id: f.path, kind: 'file', summary: '' });
        for (const s of f.symbols) out.push({ ref_id: `${f.path}::${s.qualifiedName}`, kind: s.kind, summary: s.signature });
      }
    } catch (e) {
      if (!quiet(e)) throw e;
    }
  }
  if (q.length >= 2) {
    try {
      const defs = await engine.definitions(query!.trim(), { limit: 10 });
      for (const d of defs.results) out.push({ ref_id: `${d.path}::${d.qualifiedName}`, kind: d.kind, summary: d.preview });
    } catch (e) {
      if (!quiet(e)) throw e;
      const suggestions = EngineError.is(e, 'not_found') ? (e.detail?.suggestions as string[] | undefined) ?? [] : [];
      for (const s of suggestions) out.push({ ref_id: s, kind: 'suggestion', summary: `did you mean ${s}?` });
    }
  }
  const seen = new Set<string>();
  return out.filter((s) => !seen.has(s.ref_id) && seen.add(s.ref_id)).slice(0, limit);
}

/** The innermost indexed definition whose lines hold `line`. */
export async function symbolAt(engine: Engine, path: string, line: number): Promise<SymbolAt | null> {
  const around = (await symbolsOf(engine, path)).filter((s) => s.line_start <= line && line <= s.line_end);
  around.sort((a, b) => (a.line_end - a.line_start) - (b.line_end - b.line_start));
  const s = around[0];
  return s ? { ref_id: `${path}::${s.symbol_name}`, name: s.symbol_name, kind: s.kind, line: s.line_start, endLine: s.line_end } : null;
}
