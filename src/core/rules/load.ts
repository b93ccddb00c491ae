/**
 * rules.yml → typed rules, in beadloom's vocabulary (every rule type of its types.py). A malformed rule, an unknown
 * rule type or an unknown edge kind is reported as an error with its file and line and the rule is skipped; the
 * other rules still load.
 */
import type { GraphFile } from '../graph/build';
import type { GraphIssue } from '../graph/types';
import { VALID_EDGE_KINDS, VALID_NODE_KINDS, type NodeMatcher, type Rule, type Severity } from './types';

export interface RuleSet {
  rules: Rule[];
  issues: GraphIssue[];
  files: string[];
}

const RULE_TYPES = ['deny', 'require', 'forbid_cycles', 'forbid_import', 'forbid', 'layers', 'check', 'unregistered_feature_candidate', 'module_coverage'];
const COMMON_FIELDS = ['name', 'description', 'severity', 'enabled'];
/** Fields a `layers` rule keeps beside its list (its block is the rule itself). */
const LAYER_FIELDS = ['enforce', 'allow_skip', 'edge_kind'];

class RuleError extends Error {}

export function loadRules(files: readonly GraphFile[]): RuleSet {
  const set: RuleSet = { rules: [], issues: [], files: [] };
  const names = new Set<string>();
  for (const { file, parsed } of files) {
    if (!parsed.hasRules) continue;
    set.files.push(file);
    for (const { data, line } of parsed.rules) {
      const name = typeof data.name === 'string' && data.name.trim() ? data.name.trim() : `${file}:${line}`;
      try {
        const types = Object.keys(data).filter((k) => RULE_TYPES.includes(k));
        if (types.length !== 1) {
          const other = Object.keys(data).filter((k) => !COMMON_FIELDS.includes(k) && !LAYER_FIELDS.includes(k));
          set.issues.push({
            severity: 'error', code: 'unsupported_rule', file, line,
            message: types.length > 1
              ? `rule "${name}" has ${types.map((t) => `\`${t}\``).join(' and ')}; a rule has exactly one type; skipped`
              : `rule "${name}": ${other.length ? `unknown rule type \`${other[0]}\`` : 'no rule type'} (known: ${RULE_TYPES.join(', ')}); skipped`,
          });
          continue;
        }
        const rule = parseRule(name, data, file, line);
        if (!rule) continue;
        if (names.has(name)) set.issues.push({ severity: 'warning', code: 'invalid_rule', file, line, message: `rule name "${name}" is used twice` });
        names.add(name);
        if (data.enabled !== false) set.rules.push(rule);
      } catch (e) {
        if (!(e instanceof RuleError)) throw e;
        set.issues.push({ severity: 'error', code: 'invalid_rule', file, line, message: `rule "${name}": ${e.message}; skipped` });
      }
    }
  }
  return set;
}

function parseRule(name: string, data: Record<string, unknown>, file: string, line: number): Rule | undefined {
  const description = typeof data.description === 'string' ? data.description : '';
  const base = (defaultSeverity: Severity, definition: Record<string, unknown>) =>
    ({ name, description, severity: severity(data.severity, defaultSeverity), definition, at: { file, line } });
  if (data.deny !== undefined) {
    const d = mapping(data.deny, 'deny');
    return { ...base('error', d), type: 'deny', from: matcher(d.from, 'deny.from'), to: matcher(d.to, 'deny.to'), unlessEdge: edgeKinds(strings(d.unless_edge, 'deny.unless_edge'), 'deny.unless_edge') };
  }
  if (data.require !== undefined) {
    const r = mapping(data.require, 'require');
    const edgeKind = edgeKind1(optionalString(r.edge_kind, 'require.edge_kind'), 'require.edge_kind');
    return { ...base('error', r), type: 'require', for: matcher(r.for, 'require.for'), hasEdgeTo: matcher(r.has_edge_to, 'require.has_edge_to', true), ...(edgeKind ? { edgeKind } : {}) };
  }
  if (data.forbid_cycles !== undefined) {
    const c = mapping(data.forbid_cycles, 'forbid_cycles');
    const kinds = edgeKinds(strings(c.edge_kind, 'forbid_cycles.edge_kind'), 'forbid_cycles.edge_kind');
    if (!kinds.length) throw new RuleError('forbid_cycles.edge_kind is required');
    return { ...base('error', c), type: 'forbid_cycles', edgeKinds: kinds };
  }
  if (data.forbid !== undefined) {
    const f = mapping(data.forbid, 'forbid');
    const edgeKind = edgeKind1(optionalString(f.edge_kind, 'forbid.edge_kind'), 'forbid.edge_kind');
    return { ...base('error', f), type: 'forbid', from: matcher(f.from, 'forbid.from'), to: matcher(f.to, 'forbid.to'), ...(edgeKind ? { edgeKind } : {}) };
  }
  if (data.forbid_import !== undefined) {
    const f = mapping(data.forbid_import, 'forbid_import');
    const fromGlob = optionalString(f.from, 'forbid_import.from');
    const toGlob = optionalString(f.to, 'forbid_import.to');
    if (!fromGlob || !toGlob) throw new RuleError('forbid_import needs non-empty `from` and `to` globs');
    return { ...base('error', f), type: 'forbid_import', fromGlob, toGlob };
  }
  if (data.layers !== undefined) {
    if (!Array.isArray(data.layers) || data.layers.length < 2) throw new RuleError('`layers` must list at least two layers');
    const layers = data.layers.map((l, i) => {
      const m = mapping(l, `layers[${i}]`);
      const layerName = optionalString(m.name, `layers[${i}].name`);
      const tag = optionalString(m.tag, `layers[${i}].tag`);
      if (!layerName || !tag) throw new RuleError(`layers[${i}] needs \`name\` and \`tag\``);
      return { name: layerName, tag };
    });
    const enforce = data.enforce ?? 'top-down';
    if (enforce !== 'top-down') throw new RuleError(`enforce must be top-down, got ${JSON.stringify(enforce)}`);
    const { name: _n, description: _d, severity: _s, ...definition } = data;
    return { ...base('error', definition), type: 'layers', layers, allowSkip: data.allow_skip !== false, edgeKind: edgeKind1(optionalString(data.edge_kind, 'edge_kind'), 'edge_kind') ?? 'uses' };
  }
  if (data.check !== undefined) {
    const c = mapping(data.check, 'check');
    const num = (v: unknown, what: string): number | undefined => {
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'number' || v < 0 || !Number.isFinite(v)) throw new RuleError(`${what} must be a non-negative number`);
      return v;
    };
    const maxSymbols = num(c.max_symbols, 'check.max_symbols');
    const maxFiles = num(c.max_files, 'check.max_files');
    const minDocCoverage = num(c.min_doc_coverage, 'check.min_doc_coverage');
    if (minDocCoverage !== undefined && minDocCoverage > 1) throw new RuleError('check.min_doc_coverage must be between 0.0 and 1.0');
    if (maxSymbols === undefined && maxFiles === undefined && minDocCoverage === undefined) throw new RuleError('check needs at least one of max_symbols, max_files or min_doc_coverage');
    return {
      ...base('warn', c), type: 'check', for: matcher(c.for, 'check.for'), ...(maxSymbols !== undefined ? { maxSymbols } : {}),
      ...(maxFiles !== undefined ? { maxFiles } : {}), ...(minDocCoverage !== undefined ? { minDocCoverage } : {}),
    };
  }
  if (data.unregistered_feature_candidate !== undefined) {
    const u = mapping(data.unregistered_feature_candidate, 'unregistered_feature_candidate');
    return {
      ...base('warn', u), type: 'unregistered_feature_candidate', for: matcher(u.for, 'unregistered_feature_candidate.for'),
      minSymbols: count(u.min_symbols, 5, 'unregistered_feature_candidate.min_symbols'), exclude: globs(u.exclude, 'unregistered_feature_candidate.exclude'),
    };
  }
  if (data.module_coverage !== undefined) {
    const m = mapping(data.module_coverage, 'module_coverage');
    return {
      ...base('warn', m), type: 'module_coverage', sourceRoot: optionalString(m.source_root, 'module_coverage.source_root') ?? 'src/beadloom/',
      minSymbols: count(m.min_symbols, 1, 'module_coverage.min_symbols'), exempt: globs(m.exempt, 'module_coverage.exempt'),
    };
  }
  return undefined;
}

function count(v: unknown, fallback: number, what: string): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new RuleError(`${what} must be a non-negative integer`);
  return v;
}

function globs(v: unknown, what: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new RuleError(`${what} must be a list of glob strings`);
  return v as string[];
}

function edgeKinds(kinds: string[], what: string): string[] {
  for (const k of kinds) edgeKind1(k, what);
  return kinds;
}

function edgeKind1(kind: string | undefined, what: string): string | undefined {
  if (kind !== undefined && !VALID_EDGE_KINDS.includes(kind)) throw new RuleError(`${what}: unknown edge kind \`${kind}\` (known: ${VALID_EDGE_KINDS.join(', ')})`);
  return kind;
}

function severity(v: unknown, fallback: Severity): Severity {
  if (v === undefined || v === null) return fallback;
  if (v === 'error') return 'error';
  if (v === 'warn' || v === 'warning') return 'warn';
  throw new RuleError(`severity must be error or warn, got ${JSON.stringify(v)}`);
}

function mapping(v: unknown, what: string): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new RuleError(`${what} must be a mapping`);
  return v as Record<string, unknown>;
}

function optionalString(v: unknown, what: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new RuleError(`${what} must be a string`);
  return v.trim() || undefined;
}

function strings(v: unknown, what: string): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new RuleError(`${what} must be a string or a list of strings`);
  return v as string[];
}

function matcher(v: unknown, what: string, allowEmpty = false): NodeMatcher {
  const m = mapping(v ?? (allowEmpty ? {} : undefined), what);
  const str = (x: unknown, field: string) => (x === undefined || x === null ? undefined : typeof x === 'string' || typeof x === 'number' ? String(x) : (() => { throw new RuleError(`${what}.${field} must be a string`); })());
  const out: NodeMatcher = {};
  const ref = str(m.ref_id, 'ref_id');
  const kind = str(m.kind, 'kind');
  const tag = str(m.tag, 'tag');
  if (ref !== undefined) out.ref_id = ref;
  if (kind !== undefined && !VALID_NODE_KINDS.includes(kind)) throw new RuleError(`${what}.kind: unknown node kind \`${kind}\` (known: ${VALID_NODE_KINDS.join(', ')})`);
  if (kind !== undefined) out.kind = kind;
  if (tag !== undefined) out.tag = tag;
  if (m.exclude !== undefined) out.exclude = strings(m.exclude, `${what}.exclude`);
  if (!allowEmpty && out.ref_id === undefined && out.kind === undefined && out.tag === undefined) {
    throw new RuleError(`${what} needs at least one of ref_id, kind or tag`);
  }
  return out;
}
