/** The declared architecture graph: nodes and typed edges read from YAML, plus what went wrong reading them. */

/** Edge kinds with a traversal priority (lower walks first). Other kinds load too and walk last. */
export const EDGE_PRIORITY: Readonly<Record<string, number>> = {
  part_of: 1,
  touches_entity: 2,
  uses: 3,
  implements: 3,
  depends_on: 4,
  touches_code: 5,
};
export const UNKNOWN_EDGE_PRIORITY = 6;
/** Edge kinds a graph file may declare: the traversal kinds plus beadloom's contract kinds. Others load with a warning. */
export const KNOWN_EDGE_KINDS: readonly string[] = [...Object.keys(EDGE_PRIORITY), 'produces', 'consumes'];

export function edgePriority(kind: string): number {
  return EDGE_PRIORITY[kind] ?? UNKNOWN_EDGE_PRIORITY;
}

/** Where a node, edge or problem was declared: workspace-relative POSIX file, 1-based line. */
export interface SourcePosition {
  file: string;
  line: number;
}

export interface NodeLink {
  url: string;
  label?: string;
}

export interface GraphNode {
  ref_id: string;
  kind: string;
  summary: string;
  /** Workspace-relative file or folder the node is implemented in, when declared. */
  source?: string;
  /** Workspace-relative markdown files (or folders of them) documenting the node. */
  docs: string[];
  links: NodeLink[];
  /** Tags from the node itself and from a rules file's `tags:` map. */
  tags: string[];
  /** Every other field of the YAML mapping, kept as written (routes, tests, activity, lifecycle, …). */
  extra: Record<string, unknown>;
  at: SourcePosition;
}

export interface GraphEdge {
  src: string;
  dst: string;
  kind: string;
  /** beadloom's edge lifecycle when declared (`planned`, `deprecated`, `dead`, …); absent means active. */
  lifecycle?: string;
  at?: SourcePosition;
}

export type GraphIssueCode =
  | 'yaml_syntax' | 'invalid_shape' | 'missing_id' | 'duplicate_id' | 'dangling_edge' | 'invalid_edge'
  | 'cycle' | 'unreadable' | 'invalid_rule' | 'unsupported_rule' | 'unknown_edge_kind';

/** A problem found while loading; errors drop the offending item, warnings keep it. The rest always loads. */
export interface GraphIssue {
  severity: 'error' | 'warning';
  code: GraphIssueCode;
  file: string;
  line: number;
  message: string;
}

export interface DeclaredGraph {
  nodes: Map<string, GraphNode>;
  edges: GraphEdge[];
  /** Edges by source and by destination, in declaration order. */
  out: Map<string, GraphEdge[]>;
  in: Map<string, GraphEdge[]>;
  issues: GraphIssue[];
  /** The YAML files read, workspace-relative. */
  files: string[];
}
