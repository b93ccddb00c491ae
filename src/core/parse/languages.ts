/** The languages the index understands: file extensions, the grammar to load and the tags query to run. */
export interface LanguageSpec {
  id: string;
  extensions: string[];
  /** Asset path of the WASM grammar, relative to the asset root. */
  grammar: string;
  /** Asset paths of the tags queries, concatenated (TSX = the TypeScript query + the JSX patterns). */
  queries: string[];
  /**
   * Rewrites of the text the grammar sees, for constructs newer than the grammar that would turn the rest of a
   * definition into ERROR nodes. Each replacement keeps the length, so every position stays the file's.
   */
  rewrites?: readonly SourceRewrite[];
}

/** `pattern` (global) is replaced by as many spaces as it matched. */
export interface SourceRewrite {
  pattern: RegExp;
  /** Why the grammar needs it. */
  why: string;
}

/** The text handed to the parser: `text` with the language's rewrites applied (same length). */
export function textForParser(spec: LanguageSpec, text: string): string {
  let out = text;
  for (const r of spec.rewrites ?? []) out = out.replace(r.pattern, (m) => ' '.repeat(m.length));
  return out;
}

// Grammars come from @vscode/tree-sitter-wasm where it has them (maintained by the VS Code team), else from
// tree-sitter-wasms. Both load in web-tree-sitter 0.25.x (0.26+ rejects tree-sitter-wasms' ABI).
/** The grammar packages (pinned in package.json); part of the index's grammar-set hash. */
export const GRAMMAR_PACKAGES = '@vscode/tree-sitter-wasm@0.3.1 tree-sitter-wasms@0.1.13 web-tree-sitter@0.25.10';

const spec = (id: string, extensions: string[], grammarFile: string, queryIds = [id]): LanguageSpec => ({
  id,
  extensions,
  grammar: `grammars/${grammarFile}`,
  queries: queryIds.map((q) => `queries/${q}.scm`),
});

export const LANGUAGES: readonly LanguageSpec[] = [
  spec('typescript', ['.ts', '.mts', '.cts'], 'tree-sitter-typescript.wasm'),
  spec('tsx', ['.tsx'], 'tree-sitter-tsx.wasm', ['typescript', 'jsx']),
  spec('javascript', ['.js', '.mjs', '.cjs'], 'tree-sitter-javascript.wasm', ['javascript', 'jsx']),
  spec('jsx', ['.jsx'], 'tree-sitter-javascript.wasm', ['javascript', 'jsx']),
  spec('python', ['.py', '.pyi'], 'tree-sitter-python.wasm'),
  spec('go', ['.go'], 'tree-sitter-go.wasm'),
  spec('rust', ['.rs'], 'tree-sitter-rust.wasm'),
  spec('java', ['.java'], 'tree-sitter-java.wasm'),
  {
    ...spec('kotlin', ['.kt', '.kts'], 'tree-sitter-kotlin.wasm'),
    // `interface` is a hard keyword, so `fun` before it can only be this modifier: blanked, the rest is an interface.
    rewrites: [{ pattern: /\bfun(?=\s+interface\b)/g, why: 'fun interface (Kotlin 1.4) is newer than tree-sitter-kotlin 0.x: it reads an extension function named by the next word and loses the body' }],
  },
  spec('swift', ['.swift'], 'tree-sitter-swift.wasm'),
  spec('objc', ['.m', '.mm'], 'tree-sitter-objc.wasm', ['c', 'objc']),
  spec('c', ['.c', '.h'], 'tree-sitter-c.wasm'),
  spec('cpp', ['.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx'], 'tree-sitter-cpp.wasm'),
  spec('csharp', ['.cs'], 'tree-sitter-c_sharp.wasm'),
  spec('ruby', ['.rb', '.rake'], 'tree-sitter-ruby.wasm'),
  spec('php', ['.php'], 'tree-sitter-php.wasm'),
];

const byExtension = new Map<string, LanguageSpec>();
for (const lang of LANGUAGES) for (const ext of lang.extensions) byExtension.set(ext, lang);
const byId = new Map(LANGUAGES.map((l) => [l.id, l] as const));

export function languageForPath(path: string): LanguageSpec | undefined {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  // `.d.ts` is TypeScript too; the generic lookup handles it through `.ts`.
  return byExtension.get(path.slice(dot).toLowerCase());
}

export function languageById(id: string): LanguageSpec | undefined {
  return byId.get(id);
}
