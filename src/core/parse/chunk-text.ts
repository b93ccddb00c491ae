/**
 * What a chunk's text is, as one rule: the extractor builds chunk text with it, and the index rebuilds chunk text with
 * it from the file's stored text and the file's stored symbols, so the two cannot drift. The index keeps a chunk's
 * span (file, symbol, lines), never its text. Changing anything here changes what an index means: bump
 * SCHEMA_VERSION (store/schema.ts).
 */
import type { SymbolKind } from './types';

/** Chunks larger than this are cut; the search index wants symbol-sized pieces, not whole files. */
export const CHUNK_MAX_LINES = 150;
export const CHUNK_MAX_CHARS = 8_000;

/** Kinds whose definitions hold others; their chunk is their head plus their members' signatures. */
export const CONTAINER_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>([
  'class', 'interface', 'struct', 'trait', 'module', 'enum', 'protocol', 'object', 'type',
]);

/** What a symbol contributes to chunks: the fields the index stores for it. */
export interface ChunkSymbol {
  qualifiedName: string;
  kind: SymbolKind;
  container?: string;
  lineStart: number;
  lineEnd: number;
  signature: string;
  doc?: string;
}

/** Fields and variables are found through their container; a one-line member constant too. */
export function hasChunk(s: ChunkSymbol): boolean {
  return s.kind !== 'field' && s.kind !== 'variable' && !(s.kind === 'constant' && s.lineEnd === s.lineStart && Boolean(s.container));
}

/** Source lines `from`..`to` (1-based), capped at CHUNK_MAX_LINES lines and CHUNK_MAX_CHARS characters. */
export function cappedLines(lines: readonly string[], from: number, to: number): string {
  const end = Math.min(to, from + CHUNK_MAX_LINES - 1);
  const text = lines.slice(from - 1, end).join('\n');
  return text.length > CHUNK_MAX_CHARS ? text.slice(0, CHUNK_MAX_CHARS) : text;
}

export interface SymbolChunk {
  /** Last source line shown (a container shows its head only). */
  lineEnd: number;
  /** The text starts with the symbol's doc comment, which sits outside the source lines shown. */
  docPrefix: boolean;
  text: string;
}

/**
 * The chunk of `symbols[index]` (a symbol with hasChunk), from the file's lines and all of the file's symbols in
 * extraction order. A container's chunk is its head plus the signatures of its members; members get chunks of their
 * own. A doc comment goes first unless the lines shown already hold it (a docstring).
 */
export function symbolChunk(lines: readonly string[], symbols: readonly ChunkSymbol[], index: number): SymbolChunk {
  const s = symbols[index]!;
  const children = CONTAINER_KINDS.has(s.kind) ? symbols.filter((c) => c.container === s.qualifiedName && hasChunk(c)) : [];
  let lineEnd = s.lineEnd;
  let text: string;
  if (children.length) {
    lineEnd = Math.max(s.lineStart, Math.min(...children.map((c) => c.lineStart)) - 1);
    text = [cappedLines(lines, s.lineStart, lineEnd), ...children.map((c) => `  ${c.signature}`)].join('\n');
  } else {
    text = cappedLines(lines, s.lineStart, s.lineEnd);
  }
  const docPrefix = s.doc !== undefined && s.doc !== '' && !text.includes(s.doc.slice(0, 20));
  return { lineEnd, docPrefix, text: docPrefix ? `${s.doc}\n${text}` : text };
}

/** A file-level chunk: top-level lines outside any symbol, in windows shorter than the line cap. */
export function fileChunkText(lines: readonly string[], lineStart: number, lineEnd: number): string {
  return cappedLines(lines, lineStart, lineEnd);
}
