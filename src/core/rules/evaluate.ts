/**
 * Evaluates rules against the joined graph. Rules that read code (deny, forbid_import, check, module_coverage,
 * unregistered_feature_candidate) need the index and read it as beadloom records it (see code-facts.ts).
 */
import { findCycles } from '../graph/cycles';
import type { Knowledge } from '../graph/knowledge';
import type { GraphEdge, GraphNode } from '../graph/types';
import { RuleCode, type RuleScope } from './code-facts';
import { fnmatch } from './fnmatch';
import { matches, type CardinalityRule, type DenyRule, type ImportBoundaryRule, type LayerRule, type ModuleCoverageRule, type Rule, type UnregisteredFeatureRule, type Violation } from './types';

export interface RuleContext {
  scope?: RuleScope;
  /** Share of a node's doc↔code pairs in sync (0..1), for `check.min_doc_coverage`; undefined when it has none. */
  docCoverage?: (refId: string) => number | undefined;
}

export function evaluateRules(k0: Knowledge, rules: readonly Rule[], context: RuleContext = {}): Violation[] {
  const out: Violation[] = [];
  const rc = k0.code ? new RuleCode(k0.code, k0.graph, context.scope) : undefined;
  // In a beadloom project, graph rules see the edges beadloom's edges table holds: the declared ones plus the
  // depends_on edges its index derives from imports. Not deny's unless_edge: an edge derived from an import would
  // exempt that very import (beadloom does so; `unless_edge: [depends_on]` would then never fire).
  const k = rc && context.scope?.scanPaths ? withImportEdges(k0, rc.importEdges()) : k0;
  for (const rule of rules) {
    switch (rule.type) {
      case 'deny': if (rc) out.push(...deny(k0, rule, rc)); break;
      case 'require': {
        for (const node of k.graph.nodes.values()) {
          if (!matches(rule.for, node)) continue;
          const ok = (k.graph.out.get(node.ref_id) ?? []).some((e) => (!rule.edgeKind || e.kind === rule.edgeKind) && matches(rule.hasEdgeTo, k.graph.nodes.get(e.dst)!));
          if (!ok) out.push(v(rule, `node "${node.ref_id}" (${node.kind}) has no ${rule.edgeKind ?? 'outgoing'} edge to ${describe(rule.hasEdgeTo)}`, { from: node.ref_id, ...at(node) }));
        }
        break;
      }
      case 'forbid_cycles': {
        const edges = k.graph.edges.filter((e) => rule.edgeKinds.includes(e.kind) && live(e));
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
      case 'forbid_import': if (rc) out.push(...importBoundary(rule, rc)); break;
      case 'layers': out.push(...layers(k, rule)); break;
      case 'check': out.push(...cardinality(k, rule, rc, context.docCoverage)); break;
      case 'module_coverage': if (rc) out.push(...moduleCoverage(k, rule, rc)); break;
      case 'unregistered_feature_candidate': if (rc) out.push(...unregisteredFeatures(k, rule, rc)); break;
    }
  }
  return out;
}

/** Cycles and layers count live edges only, as beadloom does: `planned`, `deprecated` and `dead` are not reality yet (or any more). */
function live(e: GraphEdge): boolean {
  return e.lifecycle === undefined || e.lifecycle === 'active';
}

function withImportEdges(k: Knowledge, derived: GraphEdge[]): Knowledge {
  const have = new Set(k.graph.edges.map((e) => `${e.src}\u0000${e.dst}\u0000${e.kind}`));
  const extra = derived.filter((e) => !have.has(`${e.src}\u0000${e.dst}\u0000${e.kind}`));
  if (!extra.length) return k;
  const out = new Map(k.graph.out);
  const into = new Map(k.graph.in);
  for (const e of extra) {
    out.set(e.src, [...(out.get(e.src) ?? []), e]);
    into.set(e.dst, [...(into.get(e.dst) ?? []), e]);
  }
  return { ...k, graph: { ...k.graph, edges: [...k.graph.edges, ...extra], out, in: into } };
}

/**
 * An import from a file whose node matches `from` to a module whose node matches `to`, unless the graph declares an
 * edge of an `unless_edge` kind from the one node to the other (that direction only, as beadloom checks it).
 */
function deny(k: Knowledge, rule: DenyRule, rc: RuleCode): Violation[] {
  const out: Violation[] = [];
  for (const imp of rc.imports()) {
    const src = rc.fileNode(imp.file);
    if (!src) continue;
    const dst = rc.importNode(imp);
    if (!dst || src === dst) continue;
    const a = k.graph.nodes.get(src)!;
    const b = k.graph.nodes.get(dst)!;
    if (!matches(rule.from, a) || !matches(rule.to, b)) continue;
    if (rule.unlessEdge.length && (k.graph.out.get(src) ?? []).some((e) => e.dst === dst && rule.unlessEdge.includes(e.kind))) continue;
    out.push(v(rule, `${imp.file} (${src}) imports ${imp.module} (${dst})`, { file: imp.file, line: imp.line, from: src, to: dst }));
  }
  return out;
}

/** fnmatch globs: `from` on the importing file, `to` on the imported module path (dots as slashes). */
function importBoundary(rule: ImportBoundaryRule, rc: RuleCode): Violation[] {
  const out: Violation[] = [];
  for (const imp of rc.imports()) {
    if (!fnmatch(imp.file, rule.fromGlob)) continue;
    const path = rc.importPath(imp);
    if (path !== undefined && fnmatch(path, rule.toGlob)) out.push(v(rule, `${imp.file} imports ${imp.module}`, { file: imp.file, line: imp.line }));
  }
  return out;
}

/**
 * Every module under the source root with at least `minSymbols` top-level definitions (or none at all: a module of
 * constants is still a module) is covered by a feature/component annotation, by being a node's file `source`, by
 * lying under a non-domain node's folder `source` (other than the root itself), or by an `exempt` glob.
 */
function moduleCoverage(k: Knowledge, rule: ModuleCoverageRule, rc: RuleCode): Violation[] {
  const root = rule.sourceRoot;
  const rootDir = `${root.replace(/\/+$/, '')}/`;
  const fileSources = new Set<string>();
  const dirSources: string[] = [];
  for (const n of k.graph.nodes.values()) {
    if (!n.source) continue;
    if (!n.source.endsWith('/')) fileSources.add(n.source);
    else if (n.kind !== 'domain' && `${n.source.replace(/\/+$/, '')}/` !== rootDir) dirSources.push(`${n.source.replace(/\/+$/, '')}/`);
  }
  const out: Violation[] = [];
  for (const file of rc.files()) {
    if (!file.startsWith(root)) continue;
    const symbols = rc.symbolAnnotations(file);
    if (!symbols.length && !file.endsWith('.py')) continue;
    if (symbols.length && symbols.length < rule.minSymbols) continue;
    if (symbols.some((a) => 'feature' in a || 'component' in a) || fileSources.has(file)) continue;
    if (dirSources.some((d) => file.startsWith(d)) || rule.exempt.some((g) => fnmatch(file, g))) continue;
    out.push(v(rule, `${file} (${symbols.length} symbols): not covered by any node and not exempt; classify it as a feature/component or add it to exempt`, { file }));
  }
  return out;
}

/** Modules under a matching node's folder annotated with its domain and no feature, with at least `minSymbols` definitions. */
function unregisteredFeatures(k: Knowledge, rule: UnregisteredFeatureRule, rc: RuleCode): Violation[] {
  const out: Violation[] = [];
  const files = rc.files();
  for (const node of k.graph.nodes.values()) {
    // beadloom matches this rule's `for` on ref_id and kind only.
    if (!node.source || !matches({ ...rule.for, tag: undefined }, node)) continue;
    const prefix = `${node.source.replace(/\/+$/, '')}/`;
    for (const file of files) {
      if (!file.startsWith(prefix)) continue;
      const symbols = rc.symbolAnnotations(file);
      if (!symbols.some((a) => a.domain === node.ref_id) || symbols.some((a) => 'feature' in a)) continue;
      if (symbols.length < rule.minSymbols || rule.exclude.some((g) => fnmatch(file, g))) continue;
      out.push(v(rule, `${node.ref_id}/${file.slice(prefix.length)} (${symbols.length} symbols): domain-only, no feature; a candidate unregistered feature`, { file, from: node.ref_id }));
    }
  }
  return out;
}

function layers(k: Knowledge, rule: LayerRule): Violation[] {
  const layerOf = (n: GraphNode): number => rule.layers.findIndex((l) => n.tags.includes(l.tag));
  const out: Violation[] = [];
  for (const e of k.graph.edges) {
    if (e.kind !== rule.edgeKind || e.src === e.dst || !live(e)) continue;
    const a = layerOf(k.graph.nodes.get(e.src)!);
    const b = layerOf(k.graph.nodes.get(e.dst)!);
    if (a < 0 || b < 0 || a === b) continue;
    if (b < a) out.push(v(rule, `${e.src} (${rule.layers[a]!.name}) -${e.kind}-> ${e.dst} (${rule.layers[b]!.name}) goes up the layers`, { from: e.src, to: e.dst, ...(e.at ?? {}) }));
    else if (!rule.allowSkip && b > a + 1) out.push(v(rule, `${e.src} (${rule.layers[a]!.name}) -${e.kind}-> ${e.dst} (${rule.layers[b]!.name}) skips a layer`, { from: e.src, to: e.dst, ...(e.at ?? {}) }));
  }
  return out;
}

/**
 * Size limits count what lies under the node's folder `source` (beadloom: top-level definitions and files whose path
 * starts with `source/`; a file `source` counts nothing); doc coverage is the share of the node's doc↔code pairs in
 * sync, 0 when it has none.
 */
function cardinality(k: Knowledge, rule: CardinalityRule, rc: RuleCode | undefined, docCoverage: RuleContext['docCoverage']): Violation[] {
  const out: Violation[] = [];
  for (const node of k.graph.nodes.values()) {
    if (!matches(rule.for, node)) continue;
    const prefix = node.source ? `${node.source.replace(/\/+$/, '')}/` : undefined;
    const files = rc && prefix ? rc.files().filter((f) => f.startsWith(prefix)) : [];
    if (rc && prefix && rule.maxFiles !== undefined && files.length > rule.maxFiles) {
      out.push(v(rule, `node "${node.ref_id}" has ${files.length} files (limit ${rule.maxFiles})`, { from: node.ref_id, ...at(node) }));
    }
    if (rc && prefix && rule.maxSymbols !== undefined) {
      const symbols = files.reduce((n, f) => n + rc.symbolAnnotations(f).length, 0);
      if (symbols > rule.maxSymbols) out.push(v(rule, `node "${node.ref_id}" has ${symbols} symbols (limit ${rule.maxSymbols})`, { from: node.ref_id, ...at(node) }));
    }
    if (rule.minDocCoverage !== undefined && docCoverage) {
      const coverage = docCoverage(node.ref_id) ?? 0;
      if (coverage < rule.minDocCoverage) {
        out.push(v(rule, `node "${node.ref_id}" has doc coverage ${Math.round(coverage * 100)}% (min ${Math.round(rule.minDocCoverage * 100)}%)`, { from: node.ref_id, ...at(node) }));
      }
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
      case 'forbid_import': return nodes.some((n) => n.source && (fnmatch(n.source, r.fromGlob) || fnmatch(`${n.source.replace(/\/+$/, '')}/x`, r.fromGlob)));
      // Workspace-wide policies about modules, not constraints on a node (beadloom's bundles leave them out too).
      case 'unregistered_feature_candidate': case 'module_coverage': return false;
    }
    return false;
  });
}
