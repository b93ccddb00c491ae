/** API routes found in source and schema files. */
export interface Route {
  /** GET, POST, …, `*` for any method; QUERY, MUTATION, SUBSCRIPTION for GraphQL; RPC for gRPC; WS for websockets. */
  method: string;
  /** `/api/users/{id}`, a GraphQL field name, or `Service/Method` for gRPC. */
  path: string;
  /** The handler's name, `<anonymous>` for an inline function. */
  handler: string;
  /** Workspace-relative file. */
  file: string;
  /** 1-based line of the route declaration. */
  line: number;
  framework: string;
}

export const MAX_ROUTES_PER_FILE = 100;

/** What the index's tree-sitter pass knows about a file: definitions and call sites. */
export interface FileFacts {
  symbols: Array<{ name: string; kind: string; nameLine: number; lineStart: number; lineEnd: number }>;
  /** 1-based lines holding a call (or decorator) the parser saw, so comments and strings never match. */
  callLines: Set<number>;
}
