/**
 * Turns a tree-sitter tree plus a tags query into symbols, references, imports, annotations and chunks.
 * Captures follow the tags convention: `@name.definition.<kind>` + `@definition.<kind>`,
 * `@name.reference.<kind>`, and `@import.source` / `@import.name` for imports. An optional `@container` in a
 * definition pattern names the type a definition belongs to when the syntax does not nest it inside that type
 * (Go receivers, Rust `impl` blocks, C++ `Foo::bar` defined out of line).
 */
import type { Node, Query, Tree } from 'web-tree-sitter';
import { findAnnotations, isAttached } from './annotations';
import { CONTAINER_KINDS, fileChunkText, hasChunk, symbolChunk } from './chunk-text';
import { reparseBrokenRegions } from './error-recovery';
import { symbolDoc } from './symbol-doc';
import type {
  ExtractedChunk, ExtractedImport, ExtractedReference, ExtractedSymbol, ParseResult, ReferenceKind, SymbolKind,
} from './types';
import { SYMBOL_KINDS } from './types';

const KNOWN_KINDS = new Set<string>(SYMBOL_KINDS);
const REFERENCE_KINDS = new Set<ReferenceKind>(['call', 'type', 'class', 'implementation', 'import']);
/**
 * Specificity when several patterns define one name: a method beats a function, a function beats the constant or
 * field holding it, a specific type kind beats `class` (the generic pattern in grammars with one node for class,
 * interface and enum: Kotlin, Swift), and a constant beats a variable (C: every global, then the `const` ones).
 */
const KIND_RANK = (kind: SymbolKind): number =>
  kind === 'method' ? 4 : kind === 'function' ? 3 : CONTAINER_KINDS.has(kind) && kind !== 'class' ? 2 : kind === 'variable' ? 0 : 1;

const FILE_WINDOW_LINES = 80;

interface RawDef {
  name: string;
  kind: SymbolKind;
  nameNode: Node;
  startIndex: number;
  endIndex: number;
  lineStart: number;
  lineEnd: number;
  /** Columns (0-based, UTF-16 units like JS strings) where the definition starts and ends. */
  startColumn: number;
  endColumn: number;
  /** Container named by an `@container` capture; joined under any range-nesting container. */
  container?: string;
}

/** `parsedText` is what the parser saw (the language's rewrites of `text`, same length): broken regions are re-parsed from it. */
export function extractFromTree(path: string, language: string, text: string, tree: Tree, query: Query, parsedText = text): ParseResult {
  // Pieces of regions the grammar could not parse, parsed again on their own; their nodes share the file's
  // positions, so their matches merge with the main tree's (same name node, same key).
  const recovered = reparseBrokenRegions(tree, parsedText);
  try {
    const trees = recovered.replacesRoot ? recovered.trees : [tree, ...recovered.trees];
    return extractFromTrees(path, language, text, tree, trees, query);
  } finally {
    for (const t of recovered.trees) t.delete();
  }
}

function extractFromTrees(path: string, language: string, text: string, tree: Tree, trees: Tree[], query: Query): ParseResult {
  const lines = text.split('\n');
  const defs = new Map<number, RawDef>();
  const references: ExtractedReference[] = [];
  const imports: ExtractedImport[] = [];

  for (const match of trees.flatMap((t) => query.matches(t.rootNode))) {
    let importSource: string | undefined;
    const importNames: string[] = [];
    let importLine = 0;
    let defNode: Node | undefined;
    let nameNode: Node | undefined;
    let defKind: string | undefined;
    let container: string | undefined;
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
      } else if (cname === 'container') {
        container = capture.node.text;
      }
    }
    if (importSource !== undefined) addImport(imports, { source: importSource, names: importNames, line: importLine });
    if (nameNode && defKind) {
      const kind = (KNOWN_KINDS.has(defKind) ? defKind : 'other') as SymbolKind;
      const whole = defNode ?? nameNode.parent ?? nameNode;
      const key = nameNode.startIndex;
      const existing = defs.get(key);
      const inherited = container ?? existing?.container;
      // Several patterns can capture one name (an exported function, say); keep the widest node, and let the
      // more specific kind win: a method over a function or a field, a function over a constant holding it.
      const upgrade = existing !== undefined && KIND_RANK(kind) > KIND_RANK(existing.kind);
      if (!existing || upgrade || whole.endIndex - whole.startIndex > existing.endIndex - existing.startIndex) {
        defs.set(key, {
          // A Ruby symbol (`attr_reader :total`) names `total`.
          name: nameNode.text.replace(/^:/, ''),
          kind: existing && KIND_RANK(existing.kind) > KIND_RANK(kind) ? existing.kind : kind,
          nameNode,
          startIndex: whole.startIndex,
          endIndex: whole.endIndex,
          lineStart: whole.startPosition.row + 1,
          lineEnd: lastLineOf(whole),
          startColumn: whole.startPosition.column,
          // A node ending at column 0 ends with the whole of the line before.
          endColumn: lastLineOf(whole) === whole.endPosition.row ? Number.MAX_SAFE_INTEGER : whole.endPosition.column,
          ...(inherited ? { container: inherited } : {}),
        });
      } else if (container && !existing.container) {
        existing.container = container;
      }
    }
  }

  const symbols = buildSymbols([...defs.values()], lines);
  attachCallers(references, symbols);
  const annotations = findAnnotations(lines);
  const fileAnnotations = applyAnnotations(annotations, symbols, lines);
  dedupeReferences(references, symbols);
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

/** 1-based last line of a node; a node that ends at column 0 (a C `#define` takes its newline) ends a line before. */
function lastLineOf(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

/**
 * One import statement often matches several patterns (one per imported name, plus a names-free one for the
 * bare statement); fold them into one entry per source and line.
 */
function addImport(imports: ExtractedImport[], imp: ExtractedImport): void {
  const same = imports.find((i) => i.line === imp.line && i.source === imp.source);
  if (!same) {
    imports.push(imp);
    return;
  }
  for (const name of imp.names) if (!same.names.includes(name)) same.names.push(name);
}

function stripQuotes(s: string): string {
  return s.replace(/^[`'"<]+|[`'">]+$/g, '');
}

function buildSymbols(raw: RawDef[], lines: string[]): ExtractedSymbol[] {
  // Sort outer before inner so a stack yields each definition's innermost container.
  raw.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  const stack: { def: RawDef; qualified: string }[] = [];
  const out: ExtractedSymbol[] = [];
  for (const [i, def] of raw.entries()) {
    while (stack.length && stack[stack.length - 1]!.def.endIndex <= def.startIndex) stack.pop();
    // Definitions sharing one node (Go `x, y int`, C `int a, b;`) are siblings, not each other's container.
    let depth = stack.length - 1;
    while (depth >= 0 && stack[depth]!.def.startIndex === def.startIndex && stack[depth]!.def.endIndex === def.endIndex) depth--;
    const parent = depth >= 0 ? stack[depth] : undefined;
    const containerName = [parent?.qualified, def.container].filter(Boolean).join('.');
    const qualified = containerName ? `${containerName}.${def.name}` : def.name;
    let kind = def.kind;
    // A function in a type is a method; one in a module or namespace stays a function.
    const inType = parent !== undefined && CONTAINER_KINDS.has(parent.def.kind) && parent.def.kind !== 'module';
    if (kind === 'function' && (def.container || inType)) kind = 'method';
    const pos = def.nameNode.startPosition;
    out.push({
      name: def.name,
      qualifiedName: qualified,
      kind,
      ...(containerName ? { container: containerName } : {}),
      lineStart: def.lineStart,
      lineEnd: def.lineEnd,
      nameLine: pos.row + 1,
      nameColumn: pos.column + 1,
      nameEndColumn: def.nameNode.endPosition.row === pos.row ? def.nameNode.endPosition.column + 1 : pos.column + 1 + def.name.length,
      signature: signatureOf(lines, def, raw[i + 1]),
      ...docField(symbolDoc(lines, def.lineStart)),
      annotations: {},
    });
    stack.push({ def, qualified });
  }
  return out;
}

/**
 * The declaration head: from where the definition starts to where its body opens, whitespace collapsed. It stays
 * inside the definition's own columns and before its first member, so a one-line constant does not swallow the
 * declarations after it and a member declared on its container's line does not take the container's head.
 */
function signatureOf(lines: string[], def: RawDef, next: RawDef | undefined): string {
  let text = '';
  const nameLine = def.nameNode.startPosition.row + 1;
  const first = Math.min(def.lineStart, nameLine);
  // A body without braces (`@interface ... @end`) ends its head where the first member starts.
  const firstMember = next && next.startIndex < def.endIndex && next.lineStart > nameLine ? next.lineStart - 1 : def.lineEnd;
  const last = Math.min(lines.length, Math.max(Math.min(def.lineEnd, firstMember), nameLine));
  for (let l = first; l < first + 6 && l <= last; l++) {
    let line = lines[l - 1]!;
    if (l === def.lineEnd) line = line.slice(0, def.endColumn);
    if (l === def.lineStart) line = line.slice(def.startColumn);
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
    else if (c === '=' && text[i + 1] === '>') i++; // an arrow: its `>` closes nothing, and a `{` after it opens the body
  }
  return -1;
}

/**
 * Each reference's caller: the innermost function, method or container whose lines hold it, i.e. of those that do,
 * the one latest in `symbols` (sorted outer-first by start). References are taken in line order against a heap of
 * the candidates started so far, so a file costs (references + symbols) log symbols, not their product.
 */
function attachCallers(references: ExtractedReference[], symbols: ExtractedSymbol[]): void {
  const byLine = references.map((_, i) => i).sort((a, b) => references[a]!.line - references[b]!.line);
  const heap = new MaxHeap();
  let next = 0;
  for (const r of byLine) {
    const ref = references[r]!;
    for (; next < symbols.length && symbols[next]!.lineStart <= ref.line; next++) {
      const s = symbols[next]!;
      if (s.kind === 'function' || s.kind === 'method' || CONTAINER_KINDS.has(s.kind)) heap.push(next);
    }
    // Lines only grow from here on: a candidate ended before this line holds no later reference either.
    while (heap.size && symbols[heap.top]!.lineEnd < ref.line) heap.pop();
    if (heap.size) {
      ref.inSymbol = symbols[heap.top]!.qualifiedName;
      ref.inSymbolIndex = heap.top;
    }
  }
}

/** A max-heap of numbers (symbol indices). */
class MaxHeap {
  private readonly items: number[] = [];
  get size(): number { return this.items.length; }
  get top(): number { return this.items[0]!; }
  push(value: number): void {
    const a = this.items;
    let i = a.push(value) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (a[parent]! >= value) break;
      a[i] = a[parent]!;
      i = parent;
    }
    a[i] = value;
  }
  pop(): void {
    const a = this.items;
    const last = a.pop()!;
    if (!a.length) return;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= a.length) break;
      if (child + 1 < a.length && a[child + 1]! > a[child]!) child++;
      if (a[child]! <= last) break;
      a[i] = a[child]!;
      i = child;
    }
    a[i] = last;
  }
}

/** When two patterns capture one node, the more specific kind wins (an instantiation over a plain type use). */
const REFERENCE_RANK: Record<ReferenceKind, number> = { implementation: 5, class: 4, call: 3, type: 2, import: 1, other: 0 };

/**
 * One reference per node, and none at a definition's own name: queries may capture every type identifier
 * (simpler and sturdier than listing each type position) and leave the declaring occurrence to be dropped here.
 */
function dedupeReferences(references: ExtractedReference[], symbols: ExtractedSymbol[]): void {
  const declared = new Set(symbols.map((s) => `${s.nameLine}:${s.nameColumn}:${s.name}`));
  const kept = new Map<string, number>();
  let w = 0;
  for (const ref of references) {
    const key = `${ref.line}:${ref.column}:${ref.name}`;
    if (declared.has(key)) continue;
    const at = kept.get(key);
    if (at !== undefined) {
      if (REFERENCE_RANK[ref.kind] > REFERENCE_RANK[references[at]!.kind]) references[at] = ref;
      continue;
    }
    kept.set(key, w);
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

function buildChunks(symbols: ExtractedSymbol[], lines: string[]): ExtractedChunk[] {
  const chunks: ExtractedChunk[] = [];
  for (const [index, s] of symbols.entries()) {
    if (!hasChunk(s)) continue;
    const { lineEnd, text } = symbolChunk(lines, symbols, index);
    chunks.push({
      symbol: s.qualifiedName,
      symbolIndex: index,
      kind: s.kind,
      lineStart: s.lineStart,
      lineEnd,
      ...(s.container ? { container: s.container } : {}),
      signature: s.signature,
      text,
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
    if (lines.slice(start - 1, l - 1).join('\n').trim().length > 0) {
      chunks.push({ kind: 'file', lineStart: start, lineEnd: l - 1, text: fileChunkText(lines, start, l - 1) });
    }
  }
  return chunks;
}

const docField = (doc: string | undefined): { doc?: string } => (doc === undefined ? {} : { doc });
