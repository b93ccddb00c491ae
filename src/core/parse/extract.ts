/**
 * Turns a tree-sitter tree plus a tags query into symbols, references, imports, annotations and chunks.
 * Captures follow the tags convention: `@name.definition.<kind>` + `@definition.<kind>`,
 * `@name.reference.<kind>`, and `@import.source` / `@import.name` for imports.
 */
import type { Node, Query, Tree } from 'web-tree-sitter';
import { findAnnotations, isAttached, isCommentLine } from './annotations';
import type {
  ExtractedChunk, ExtractedImport, ExtractedReference, ExtractedSymbol, ParseResult, ReferenceKind, SymbolKind,
} from './types';

const SYMBOL_KINDS = new Set<SymbolKind>([
  'function', 'method', 'class', 'interface', 'type', 'enum', 'struct', 'trait', 'module', 'constant', 'variable',
  'field', 'macro', 'protocol', 'object',
]);
const CONTAINER_KINDS = new Set<SymbolKind>([
  'class', 'interface', 'struct', 'trait', 'module', 'enum', 'protocol', 'object', 'type',
]);
const REFERENCE_KINDS = new Set<ReferenceKind>(['call', 'type', 'class', 'implementation', 'import']);

/** Chunks larger than this are cut; the search index wants symbol-sized pieces, not whole files. */
const CHUNK_MAX_LINES = 150;
const CHUNK_MAX_CHARS = 8_000;
const FILE_WINDOW_LINES = 80;

interface RawDef {
  name: string;
  kind: SymbolKind;
  nameNode: Node;
  startIndex: number;
  endIndex: number;
  lineStart: number;
  lineEnd: number;
}

export function extractFromTree(path: string, language: string, text: string, tree: Tree, query: Query): ParseResult {
  const lines = text.split('\n');
  const defs = new Map<number, RawDef>();
  const references: ExtractedReference[] = [];
  const imports: ExtractedImport[] = [];

  for (const match of query.matches(tree.rootNode)) {
    let importSource: string | undefined;
    const importNames: string[] = [];
    let importLine = 0;
    let defNode: Node | undefined;
    let nameNode: Node | undefined;
    let defKind: string | undefined;
    for (const capture of match.captures) {
      const cname = capture.name;
      if (cname.startsWith('name.definition.')) {
        nameNode = capture.node;
        defKind = cname.slice('name.definition.'.length);
      } else if (cname.startsWith('definition.')) {
        defNode = capture.node;
        defKind ??= cname.slice('definition.'.length);
      } else if (cname.startsWith('name.reference.')) {
        const kind = cname.slice('name.reference.'.length) as ReferenceKind;
        const node = capture.node;
        references.push({
          name: node.text,
          kind: REFERENCE_KINDS.has(kind) ? kind : 'other',
          line: node.startPosition.row + 1,
          column: node.startPosition.column + 1,
          endColumn: node.endPosition.column + 1,
        });
      } else if (cname === 'import.source') {
        importSource = stripQuotes(capture.node.text);
        importLine = capture.node.startPosition.row + 1;
      } else if (cname === 'import.name') {
        importNames.push(capture.node.text);
      }
    }
    if (importSource !== undefined) imports.push({ source: importSource, names: importNames, line: importLine });
    if (nameNode && defKind) {
      const kind = (SYMBOL_KINDS.has(defKind as SymbolKind) ? defKind : 'other') as SymbolKind;
      const whole = defNode ?? nameNode.parent ?? nameNode;
      const key = nameNode.startIndex;
      const existing = defs.get(key);
      // Several patterns can capture one name (an exported function, say); keep the widest node, and let a
      // specific kind (method) win over a generic one (function).
      if (!existing || (existing.kind === 'function' && kind === 'method') || whole.endIndex - whole.startIndex > existing.endIndex - existing.startIndex) {
        defs.set(key, {
          name: nameNode.text,
          kind: existing && existing.kind === 'method' ? 'method' : kind,
          nameNode,
          startIndex: whole.startIndex,
          endIndex: whole.endIndex,
          lineStart: whole.startPosition.row + 1,
          lineEnd: whole.endPosition.row + 1,
        });
      }
    }
  }

  const symbols = buildSymbols([...defs.values()], lines);
  attachCallers(references, symbols);
  const annotations = findAnnotations(lines);
  const fileAnnotations = applyAnnotations(annotations, symbols, lines);
  dedupeReferences(references);
  return {
    path,
    language,
    hasSyntaxErrors: tree.rootNode.hasError,
    symbols,
    references,
    imports,
    fileAnnotations,
    chunks: buildChunks(symbols, lines),
  };
}

function stripQuotes(s: string): string {
  return s.replace(/^[`'"<]+|[`'">]+$/g, '');
}

function buildSymbols(raw: RawDef[], lines: string[]): ExtractedSymbol[] {
  // Sort outer before inner so a stack yields each definition's innermost container.
  raw.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  const stack: { def: RawDef; qualified: string }[] = [];
  const out: ExtractedSymbol[] = [];
  for (const def of raw) {
    while (stack.length && stack[stack.length - 1]!.def.endIndex <= def.startIndex) stack.pop();
    // A definition can only contain another if it is container-like or a function (closures, nested defs).
    const parent = stack.length ? stack[stack.length - 1] : undefined;
    const qualified = parent ? `${parent.qualified}.${def.name}` : def.name;
    let kind = def.kind;
    if (kind === 'function' && parent && CONTAINER_KINDS.has(parent.def.kind)) kind = 'method';
    const pos = def.nameNode.startPosition;
    out.push({
      name: def.name,
      qualifiedName: qualified,
      kind,
      ...(parent ? { container: parent.qualified } : {}),
      lineStart: def.lineStart,
      lineEnd: def.lineEnd,
      nameLine: pos.row + 1,
      nameColumn: pos.column + 1,
      nameEndColumn: def.nameNode.endPosition.row === pos.row ? def.nameNode.endPosition.column + 1 : pos.column + 1 + def.name.length,
      signature: signatureOf(lines, def.lineStart, def.nameNode.startPosition.row + 1),
      ...docOf(lines, def.lineStart),
      annotations: {},
    });
    stack.push({ def, qualified });
  }
  return out;
}

/** The declaration head: from the definition's first line to where its body opens, whitespace collapsed. */
function signatureOf(lines: string[], lineStart: number, nameLine: number): string {
  let text = '';
  const first = Math.min(lineStart, nameLine);
  for (let l = first; l < first + 6 && l <= lines.length; l++) {
    const line = lines[l - 1]!;
    text += (text ? ' ' : '') + line.trim();
    const open = findBodyStart(text);
    if (open >= 0) {
      text = text.slice(0, open);
      break;
    }
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 240 ? `${text.slice(0, 237)}...` : text;
}

function findBodyStart(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '<') depth++;
    else if (c === ')' || c === ']' || c === '>') depth = Math.max(0, depth - 1);
    else if (depth === 0 && c === '{') return i;
    else if (depth === 0 && c === ':' && i === text.length - 1) return i; // python `def f(x):`
    else if (depth === 0 && c === '=' && text[i + 1] === '>' ) return -1;
  }
  return -1;
}

const DOC_MARKERS = /^\s*(\/\*\*?|\*\/|\*|\/\/\/?|#!?|--)\s?/;

/** A comment block immediately above the definition (decorators skipped), or a Python docstring below it. */
function docOf(lines: string[], lineStart: number): { doc?: string } {
  const collected: string[] = [];
  let l = lineStart - 1;
  while (l >= 1 && /^\s*(@|#\[)/.test(lines[l - 1]!)) l--;
  while (l >= 1 && isCommentLine(lines[l - 1]!)) {
    collected.unshift(lines[l - 1]!.replace(DOC_MARKERS, '').replace(/\*\/\s*$/, '').trim());
    l--;
  }
  let doc = collected.filter((s) => s.length > 0).join(' ');
  if (!doc) {
    const next = lines[lineStart]?.trim() ?? '';
    const m = /^[rbu]?("""|''')(.*)/.exec(next);
    if (m) {
      const rest = [m[2] ?? ''];
      for (let k = lineStart + 1; k < lineStart + 8 && !rest[rest.length - 1]!.includes(m[1]!) && k <= lines.length; k++) {
        rest.push(lines[k - 1]!.trim());
      }
      doc = rest.join(' ').split(m[1]!)[0]!.trim();
    }
  }
  if (!doc) return {};
  return { doc: doc.length > 400 ? `${doc.slice(0, 397)}...` : doc };
}

function attachCallers(references: ExtractedReference[], symbols: ExtractedSymbol[]): void {
  // Innermost definition containing the reference line; symbols are sorted outer-first by start.
  for (const ref of references) {
    let best: ExtractedSymbol | undefined;
    for (const s of symbols) {
      if (s.lineStart > ref.line) break;
      if (s.lineEnd >= ref.line && (s.kind === 'function' || s.kind === 'method' || CONTAINER_KINDS.has(s.kind))) {
        if (!best || s.lineStart >= best.lineStart) best = s;
      }
    }
    if (best) ref.inSymbol = best.qualifiedName;
  }
}

function dedupeReferences(references: ExtractedReference[]): void {
  const seen = new Set<string>();
  let w = 0;
  for (const ref of references) {
    const key = `${ref.line}:${ref.column}:${ref.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    references[w++] = ref;
  }
  references.length = w;
}

function applyAnnotations(
  annotations: ReturnType<typeof findAnnotations>,
  symbols: ExtractedSymbol[],
  lines: string[],
): Record<string, string> {
  const file: Record<string, string> = {};
  const firstSymbolLine = symbols.length ? Math.min(...symbols.map((s) => s.lineStart)) : Number.MAX_SAFE_INTEGER;
  const own = new Map<ExtractedSymbol, Record<string, string>>();
  for (const ann of annotations) {
    const target = symbols.find((s) => isAttached(lines, ann.line, s.lineStart))
      ?? symbols.find((s) => s.lineStart === ann.line); // trailing comment on the definition line
    if (target) own.set(target, { ...own.get(target), ...ann.pairs });
    else if (ann.line < firstSymbolLine) Object.assign(file, ann.pairs);
  }
  // Module-level annotations apply to every symbol; a symbol's own annotations take precedence.
  for (const s of symbols) s.annotations = { ...file, ...own.get(s) };
  return file;
}

function capChunk(lines: string[], from: number, to: number): string {
  const end = Math.min(to, from + CHUNK_MAX_LINES - 1);
  const text = lines.slice(from - 1, end).join('\n');
  return text.length > CHUNK_MAX_CHARS ? text.slice(0, CHUNK_MAX_CHARS) : text;
}

function buildChunks(symbols: ExtractedSymbol[], lines: string[]): ExtractedChunk[] {
  const chunks: ExtractedChunk[] = [];
  const chunkable = symbols.filter((s) => s.kind !== 'field' && s.kind !== 'variable' && !(s.kind === 'constant' && s.lineEnd === s.lineStart && s.container));
  for (const s of chunkable) {
    const children = chunkable.filter((c) => c.container === s.qualifiedName);
    let text: string;
    let lineEnd = s.lineEnd;
    if (children.length && CONTAINER_KINDS.has(s.kind)) {
      // A container's chunk is its head plus the signatures of its members; members get chunks of their own.
      const firstChild = Math.min(...children.map((c) => c.lineStart));
      const head = capChunk(lines, s.lineStart, Math.max(s.lineStart, firstChild - 1));
      text = [head, ...children.map((c) => `  ${c.signature}`)].join('\n');
      lineEnd = Math.max(s.lineStart, firstChild - 1);
    } else {
      text = capChunk(lines, s.lineStart, s.lineEnd);
    }
    chunks.push({
      symbol: s.qualifiedName,
      kind: s.kind,
      lineStart: s.lineStart,
      lineEnd,
      ...(s.container ? { container: s.container } : {}),
      signature: s.signature,
      text: s.doc && !text.includes(s.doc.slice(0, 20)) ? `${s.doc}\n${text}` : text,
    });
  }
  // Top-level code outside any symbol (imports, module docs, scripts) still deserves to be found.
  const covered = new Uint8Array(lines.length + 2);
  for (const s of symbols) if (!s.container) for (let l = s.lineStart; l <= s.lineEnd; l++) covered[l] = 1;
  let l = 1;
  while (l <= lines.length) {
    if (covered[l]) { l++; continue; }
    const start = l;
    while (l <= lines.length && !covered[l] && l - start < FILE_WINDOW_LINES) l++;
    const text = lines.slice(start - 1, l - 1).join('\n');
    if (text.trim().length > 0) chunks.push({ kind: 'file', lineStart: start, lineEnd: l - 1, text: text.slice(0, CHUNK_MAX_CHARS) });
  }
  return chunks;
}
