/** Data that crosses the parser boundary (worker threads): plain and structured-clone friendly. */

/** The kinds a tags query may name (`@definition.<kind>`); anything else is recorded as `other`. */
export const SYMBOL_KINDS = [
  'function', 'method', 'class', 'interface', 'type', 'enum', 'struct', 'trait', 'module', 'constant', 'variable',
  'field', 'macro', 'protocol', 'object',
] as const;

export type SymbolKind = (typeof SYMBOL_KINDS)[number] | 'other';

export interface ExtractedSymbol {
  name: string;
  /** Containers joined with '.', e.g. `Server.listen`. */
  qualifiedName: string;
  kind: SymbolKind;
  /** Qualified name of the enclosing definition, if any. */
  container?: string;
  /** 1-based lines of the whole definition. */
  lineStart: number;
  lineEnd: number;
  /** 1-based position of the name itself. */
  nameLine: number;
  nameColumn: number;
  nameEndColumn: number;
  signature: string;
  doc?: string;
  /** `oracle:`/`beadloom:` annotations attached to this symbol (file-level ones are merged in). */
  annotations: Record<string, string>;
}

export type ReferenceKind = 'call' | 'type' | 'class' | 'implementation' | 'import' | 'other';

export interface ExtractedReference {
  name: string;
  kind: ReferenceKind;
  line: number;
  column: number;
  endColumn: number;
  /** Qualified name of the innermost definition containing the reference (the caller). */
  inSymbol?: string;
  /** Index of that definition in ParseResult.symbols (the index stores the caller by row, not by name). */
  inSymbolIndex?: number;
}

export interface ExtractedImport {
  /** Module specifier as written: './util', 'os.path', 'github.com/x/y'. */
  source: string;
  /** Names brought in, when the syntax lists them. */
  names: string[];
  line: number;
}

export interface ExtractedChunk {
  /** Qualified name of the symbol the chunk covers; undefined for file-level chunks. */
  symbol?: string;
  /** Index of that symbol in ParseResult.symbols. */
  symbolIndex?: number;
  kind: SymbolKind | 'file';
  /** Lines shown; `text` follows from them, the file's text and its symbols by the rule in chunk-text.ts. */
  lineStart: number;
  lineEnd: number;
  container?: string;
  signature?: string;
  /** Left empty by the parser host once `utf8` is made: the index rebuilds it from ParseResult.content. */
  text: string;
  /** `text` with identifiers split for full-text search (see identifiers.ts), made by the parser host. */
  searchText?: string;
  /**
   * UTF-8 of `searchText`, made by the parser host so the indexing thread binds bytes instead of re-encoding large
   * strings for SQLite (and a worker can transfer them without copying). When present, `searchText` may be empty.
   */
  utf8?: { search: Uint8Array };
}

export interface ParseRequest {
  path: string;
  language: string;
  text: string;
}

export interface ParseResult {
  path: string;
  language: string;
  /** Set when the file could not be parsed at all (grammar missing, parser crash). */
  error?: { code: 'grammar_unavailable' | 'parse_failed'; message: string };
  /** The tree had ERROR/MISSING nodes; what the partial tree gave was still indexed. */
  hasSyntaxErrors: boolean;
  symbols: ExtractedSymbol[];
  references: ExtractedReference[];
  imports: ExtractedImport[];
  fileAnnotations: Record<string, string>;
  chunks: ExtractedChunk[];
  /** The file's text as parsed, packed by file-content.ts; made by the parser host. Chunk text is rebuilt from it. */
  content?: Uint8Array;
  /** Characters (code points) in all chunk texts together; made by the parser host. */
  chunkChars?: number;
}
