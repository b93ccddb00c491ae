/** Architecture rules in beadloom's rules.yml vocabulary (schema versions 1–3), and what breaking one looks like. */

/** Node and edge kinds beadloom's rules accept (types.py); a rule naming another is reported, not ignored. */
export const VALID_NODE_KINDS = ['domain', 'feature', 'component', 'service', 'entity', 'adr'];
export const VALID_EDGE_KINDS = ['part_of', 'depends_on', 'uses', 'implements', 'touches_entity', 'touches_code'];

export interface NodeMatcher {
  ref_id?: string;
  kind?: string;
  tag?: string;
  exclude?: string[];
}

export type Severity = 'error' | 'warn';

interface RuleBase {
  name: string;
  description: string;
  severity: Severity;
  /** The rule's own block as written (the `deny:` mapping, the `require:` mapping, …), for bundles. */
  definition: Record<string, unknown>;
  at: { file: string; line: number };
}

/** Imports from code of one node into code of another are forbidden, unless a declared edge allows them. */
export interface DenyRule extends RuleBase { type: 'deny'; from: NodeMatcher; to: NodeMatcher; unlessEdge: string[] }
/** Every matching node needs an outgoing edge (of a kind, when given) to a node matching `hasEdgeTo`. */
export interface RequireRule extends RuleBase { type: 'require'; for: NodeMatcher; hasEdgeTo: NodeMatcher; edgeKind?: string }
export interface CycleRule extends RuleBase { type: 'forbid_cycles'; edgeKinds: string[] }
/** Declared edges between matching nodes are forbidden. */
export interface ForbidEdgeRule extends RuleBase { type: 'forbid'; from: NodeMatcher; to: NodeMatcher; edgeKind?: string }
/** Imports from files matching one glob to files (or import paths) matching another are forbidden. */
export interface ImportBoundaryRule extends RuleBase { type: 'forbid_import'; fromGlob: string; toGlob: string }
/** Ordered layers (by tag): a layer may depend only on layers below it. */
export interface LayerRule extends RuleBase { type: 'layers'; layers: Array<{ name: string; tag: string }>; allowSkip: boolean; edgeKind: string }
/** Size limits on a node's code, and a floor on its docs' sync coverage. */
export interface CardinalityRule extends RuleBase { type: 'check'; for: NodeMatcher; maxSymbols?: number; maxFiles?: number; minDocCoverage?: number }
/** Every module under `sourceRoot` is covered by a node (annotation, `source`) or matches an `exempt` glob. */
export interface ModuleCoverageRule extends RuleBase { type: 'module_coverage'; sourceRoot: string; minSymbols: number; exempt: string[] }
/** Modules annotated with a matching domain, no feature, and at least `minSymbols` definitions: unmodelled features. */
export interface UnregisteredFeatureRule extends RuleBase { type: 'unregistered_feature_candidate'; for: NodeMatcher; minSymbols: number; exclude: string[] }

export type Rule = DenyRule | RequireRule | CycleRule | ForbidEdgeRule | ImportBoundaryRule | LayerRule | CardinalityRule | ModuleCoverageRule | UnregisteredFeatureRule;
export type RuleType = Rule['type'];

export interface Violation {
  rule: string;
  type: RuleType | 'graph' | 'rules';
  severity: Severity;
  message: string;
  file?: string;
  line?: number;
  from?: string;
  to?: string;
}

export function matches(m: NodeMatcher, node: { ref_id: string; kind: string; tags: readonly string[] }): boolean {
  if (m.exclude?.includes(node.ref_id)) return false;
  if (m.ref_id !== undefined && m.ref_id !== node.ref_id) return false;
  if (m.kind !== undefined && m.kind !== node.kind) return false;
  if (m.tag !== undefined && !node.tags.includes(m.tag)) return false;
  return true;
}
