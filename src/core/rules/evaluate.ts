/** Evaluates rules against the joined graph. Rules that need code (deny, forbid_import, check) need the index. */
import picomatch from 'picomatch';
import { findCycles } from '../graph/cycles';
import type { Knowledge } from '../graph/knowledge';
import type { GraphNode } from '../graph/types';
import { matches, type CardinalityRule, type DenyRule, type ImportBoundaryRule, type LayerRule, type Rule, type Violation } from './types';

export function evaluateRules(k: Knowledge, rules: readonly Rule[]): Violation[] {
  const out: Violation[] = [];
  const imports = k.code ? codeImports(k) : [];
  const nodeOf = memo((path: string) => k.code!.nodesOfFile(k.graph, path)[0]);
  for (const rule of rules) {
    switch (rule.type) {
      case 'deny': out.push(...deny(k, rule, imports, nodeOf)); break;
      case 'require': {
        for (const node of k.graph.nodes.values()) {
          if (!matches(rule.for, node)) continue;
          const ok = (k.graph.out.get(node.ref_id) ?? []).some((e) => (!rule.edgeKind || e.kind === rule.edgeKind) && matches(rule.hasEdgeTo, k.graph.nodes.get(e.dst)!));
          if (!ok) out.push(v(rule, `node "${node.ref_id}" (${node.kind}) has no ${rule.edgeKind ?? 'outgoing'} edge to ${describe(rule.hasEdgeTo)}`, { from: node.ref_id, ...at(node) }));
        }
        break;
      }
      case 'forbid_cycles': {
        const edges = k.graph.edges.filter((e) => rule.edgeKinds.includes(e.kind));
        for (const e of edges) if (e.src === e.dst) out.push(v(rule, `${e.kind} self-loop on "${e.src}"`, { from: e.src, to: e.dst, ...(e.at ?? {}) }));
        for (const cycle of findCycles(edges.filter((e) => e.src !== e.dst))) {
          const first = k.graph.nodes.get(cycle[0]!)!;
          out.push(v(rule, `${rule.edgeKinds.join('/')} cycle: ${[...cycle, cycle[0]].join(' -> ')}`, { from: cycle[0]!, ...at(first) }));
        }
        break;
      }
      case 'forbid': {
        for (const e of k.graph.edges) {
          if (rule.edgeKind && e.kind !== rule.edgeKind) continue;
          if (matches(rule.from, k.graph.nodes.get(e.src)!) && matches(rule.to, k.graph.nodes.get(e.dst)!)) {
            out.push(v(rule, `edge ${e.src} -${e.kind}-> ${e.dst} is forbidden`, { from: e.src, to: e.dst, ...(e.at ?? {}) }));
          }
        }
        break;
      }
      case 'forbid_import': out.push(...importBoundary(rule, imports)); break;
      case 'layers': out.push(...layers(k, rule)); break;
      case 'check': out.push(...cardinality(k, rule)); break;
    }
  }
  return out;
}

interface CodeImport { file: string; line: number; source: string; target?: string }

function codeImports(k: Knowledge): CodeImport[] {
  const code = k.code!;
  return code.db.all('SELECT f.path, i.source, i.line FROM imports i JOIN files f ON f.id = i.file_id ORDER BY f.path, i.line').map((r) => {
    const file = String(r.path);
    const target = code.resolver().resolve(file, String(r.source));
    return { file, line: Number(r.line), source: String(r.source), ...(target && target !== file ? { target } : {}) };
  });
}

function deny(k: Knowledge, rule: DenyRule, imports: readonly CodeImport[], nodeOf: (path: string) => string | undefined): Violation[] {
  const out: Violation[] = [];
  for (const imp of imports) {
    if (!imp.target) continue;
    const src = nodeOf(imp.file);
    const dst = nodeOf(imp.target);
    if (!src || !dst || src === dst) continue;
    const a = k.graph.nodes.get(src)!;
    const b = k.graph.nodes.get(dst)!;
    if (!matches(rule.from, a) || !matches(rule.to, b)) continue;
    if (rule.unlessEdge.length && (k.graph.out.get(src) ?? []).some((e) => e.dst === dst && rule.unlessEdge.includes(e.kind))) continue;
    out.push(v(rule, `${imp.file} (${src}) imports ${imp.target} (${dst})`, { file: imp.file, line: imp.line, from: src, to: dst }));
  }
  return out;
}

function importBoundary(rule: ImportBoundaryRule, imports: readonly CodeImport[]): Violation[] {
  const from = picomatch(rule.fromGlob, { dot: true });
  const to = picomatch(rule.toGlob, { dot: true });
  const out: Violation[] = [];
  for (const imp of imports) {
    if (!from(imp.file)) continue;
    const raw = imp.source.startsWith('.') ? undefined : imp.source.replace(/::/g, '/').replace(/\./g, '/');
    if ((imp.target && to(imp.target)) || (raw && to(raw))) {
      out.push(v(rule, `${imp.file} imports ${imp.target ?? imp.source}`, { file: imp.file, line: imp.line }));
    }
  }
  return out;
}

function layers(k: Knowledge, rule: LayerRule): Violation[] {
  const layerOf = (n: GraphNode): number => rule.layers.findIndex((l) => n.tags.includes(l.tag));
  const out: Violation[] = [];
  for (const e of k.graph.edges) {
    if (e.kind !== rule.edgeKind || e.src === e.dst) continue;
    const a = layerOf(k.graph.nodes.get(e.src)!);
    const b = layerOf(k.graph.nodes.get(e.dst)!);
    if (a < 0 || b < 0 || a === b) continue;
    if (b < a) out.push(v(rule, `${e.src} (${rule.layers[a]!.name}) -${e.kind}-> ${e.dst} (${rule.layers[b]!.name}) goes up the layers`, { from: e.src, to: e.dst, ...(e.at ?? {}) }));
    else if (!rule.allowSkip && b > a + 1) out.push(v(rule, `${e.src} (${rule.layers[a]!.name}) -${e.kind}-> ${e.dst} (${rule.layers[b]!.name}) skips a layer`, { from: e.src, to: e.dst, ...(e.at ?? {}) }));
  }
  return out;
}

function cardinality(k: Knowledge, rule: CardinalityRule): Violation[] {
  if (!k.code) return [];
  const out: Violation[] = [];
  for (const node of k.graph.nodes.values()) {
    if (!matches(rule.for, node)) continue;
    if (rule.maxFiles !== undefined) {
      const files = k.code.filesOfNode(k.graph, node.ref_id).length;
      if (files > rule.maxFiles) out.push(v(rule, `node "${node.ref_id}" has ${files} files (limit ${rule.maxFiles})`, { from: node.ref_id, ...at(node) }));
    }
    if (rule.maxSymbols !== undefined) {
      const symbols = k.code.symbolsOfNodes(k.graph, [node.ref_id], 0).total;
      if (symbols > rule.maxSymbols) out.push(v(rule, `node "${node.ref_id}" has ${symbols} symbols (limit ${rule.maxSymbols})`, { from: node.ref_id, ...at(node) }));
    }
  }
  return out;
}

function v(rule: Rule, message: string, extra: Partial<Violation>): Violation {
  return { rule: rule.name, type: rule.type, severity: rule.severity, message: rule.description ? `${message}: ${rule.description}` : message, ...extra };
}

function at(node: GraphNode): { file: string; line: number } {
  return { file: node.at.file, line: node.at.line };
}

function describe(m: { ref_id?: string; kind?: string; tag?: string }): string {
  const parts = [m.ref_id && `ref_id=${m.ref_id}`, m.kind && `kind=${m.kind}`, m.tag && `tag=${m.tag}`].filter(Boolean);
  return parts.length ? `a node with ${parts.join(', ')}` : 'any node';
}

function memo<A, R>(fn: (a: A) => R): (a: A) => R {
  const cache = new Map<A, R>();
  return (a) => {
    if (!cache.has(a)) cache.set(a, fn(a));
    return cache.get(a)!;
  };
}

/** Rules that concern at least one of the nodes (for a bundle's `constraints`). */
export function rulesRelevantTo(k: Knowledge, rules: readonly Rule[], refIds: readonly string[]): Rule[] {
  const nodes = refIds.map((id) => k.graph.nodes.get(id)).filter((n): n is GraphNode => !!n);
  const any = (m: { ref_id?: string; kind?: string; tag?: string }) => nodes.some((n) => matches(m, n));
  return rules.filter((r) => {
    switch (r.type) {
      case 'deny': case 'forbid': return any(r.from) || any(r.to);
      case 'require': case 'check': return any(r.for);
      case 'layers': return nodes.some((n) => r.layers.some((l) => n.tags.includes(l.tag)));
      case 'forbid_cycles': return refIds.some((id) => (k.graph.out.get(id) ?? []).some((e) => r.edgeKinds.includes(e.kind)));
      case 'forbid_import': {
        const from = picomatch(r.fromGlob, { dot: true });
        return nodes.some((n) => n.source && (from(n.source) || from(`${n.source.replace(/\/+$/, '')}/x`)));
      }
    }
    return false;
  });
}
