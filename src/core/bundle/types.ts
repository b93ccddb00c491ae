/** The context bundle, version 2, in exactly the shape the "Context Oracle" seed gives. */
import type { CodeSymbol } from '../graph/code-view';
import type { SubgraphEdge } from '../graph/bfs';
import type { NodeSummary } from '../graph/knowledge';
import type { NodeLink } from '../graph/types';
import type { Activity } from '../activity/activity';
import type { TestMapping } from '../testmap/map';

export interface BundleChunk {
  doc_path: string;
  section: string;
  heading: string;
  content: string;
}

export interface BundleRoute {
  method: string;
  path: string;
  handler: string;
  file: string;
  line: number;
}

export interface BundleConstraint {
  rule: string;
  description: string;
  type: string;
  definition: Record<string, unknown>;
}

export interface ContextBundle {
  version: 2;
  focus: NodeSummary & { links?: NodeLink[]; activity?: Activity };
  graph: { nodes: NodeSummary[]; edges: SubgraphEdge[] };
  text_chunks: BundleChunk[];
  code_symbols: CodeSymbol[];
  sync_status: { stale_docs: Array<{ doc_path: string; code_path: string }>; last_reindex: string | null };
  constraints: BundleConstraint[];
  routes: BundleRoute[];
  tests: TestMapping | null;
  warning: string | null;
}

export interface BundleOptions {
  /** BFS depth (default 2). */
  depth?: number;
  /** Hard limit on subgraph nodes (default 20; focus nodes always count). */
  maxNodes?: number;
  /** Most doc chunks (default 10). */
  maxChunks?: number;
  /** Token budget for the serialised bundle; lower-priority content is dropped to fit. */
  maxTokens?: number;
}

/** Options of a conditional call: with the etag of the bundle the caller holds, an unchanged bundle is not resent. */
export interface ConditionalBundleOptions extends BundleOptions {
  etag?: string;
}

/** The reply to a conditional call whose bundle has not changed (beadloom's MCP `cached` reply). */
export interface BundleUnchanged {
  unchanged: true;
  etag: string;
  hint: string;
}

export const BUNDLE_DEFAULTS = { depth: 2, maxNodes: 20, maxChunks: 10 } as const;

export interface BundleResult {
  bundle: ContextBundle;
  /** Tokens of the compact JSON of `bundle` (o200k_base). */
  tokens: number;
  /**
   * `sha256:<16 hex>` of the bundle as returned: of the bundle as built, or of the trimmed bundle when max_tokens
   * trimmed it (so an etag never stands for more than its holder received).
   */
  etag: string;
  /** Where it came from: built now, or the in-memory (l1) or index-table (l2) cache. */
  cache: 'miss' | 'l1' | 'l2';
}

export function isUnchanged(r: BundleResult | BundleUnchanged): r is BundleUnchanged {
  return 'unchanged' in r && r.unchanged === true;
}
