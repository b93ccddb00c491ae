/** DTOs of code navigation: definitions, references, implementations. Plain data, 1-based lines and columns. */

/** Where an answer came from: the editor's language servers or the tree-sitter index. */
export type NavigationSource = 'lsp' | 'index';

export interface DefinitionHit {
  name: string;
  /** Containers joined with '.', e.g. `Server.listen`. */
  qualifiedName: string;
  kind: string;
  container?: string;
  path: string;
  /** 1-based line of the name. */
  line: number;
  /** 1-based column range of the name; `endColumn` is exclusive. */
  column: number;
  endColumn: number;
  /** 1-based last line of the whole definition. */
  endLine: number;
  /** Declaration head, whitespace collapsed (may span several source lines). */
  signature: string;
  /** One line: the head cut at the first line break or 160 characters. */
  preview: string;
  source: NavigationSource;
}

/** How a reference relates to the definition's file: the basis of "import proximity" ranking. */
export type ReferenceProximity =
  | 'same-file'
  /** The file imports the name (or its module) from the definition's file. */
  | 'imports'
  /** The file imports it through a re-exporting module (barrel, `__init__.py`, `mod.rs`). */
  | 're-export'
  /** Same package (Go: same directory, where names need no import). */
  | 'same-package'
  /** No import links them, but the name has only one definition in the workspace. */
  | 'unique-name'
  /** Reported by the language server; no index relation computed. */
  | 'lsp';

export interface ReferenceHit {
  path: string;
  line: number;
  column: number;
  endColumn: number;
  /** call, type, class, implementation, import (the import statement naming it), other. */
  kind: string;
  /** The source line, trimmed. */
  preview: string;
  /** Qualified name of the definition the reference sits in (the caller), when known. */
  inSymbol?: string;
  proximity: ReferenceProximity;
  source: NavigationSource;
}

export interface DefinitionOptions {
  limit?: number;
  signal?: AbortSignal;
}

export interface DefinitionsResult {
  query: string;
  results: DefinitionHit[];
}

export interface ReferenceOptions {
  limit?: number;
  /** Include the definition's own name occurrence (default false). */
  includeDefinition?: boolean;
  signal?: AbortSignal;
}

export interface ReferencesResult {
  query: string;
  /** The definition the references point to (the top-ranked one for an ambiguous name). */
  definition: DefinitionHit;
  /** How many other definitions the name had; their references are not included. */
  otherDefinitions: number;
  results: ReferenceHit[];
  /** References found before `limit` cut the list. */
  total: number;
  source: NavigationSource;
}

export interface ImplementationsResult {
  query: string;
  definition: DefinitionHit;
  results: DefinitionHit[];
  source: NavigationSource;
}
