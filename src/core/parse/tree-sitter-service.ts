/**
 * Loads grammars and tags queries on demand and parses files. Runs wherever it is put: inside a worker thread
 * (src/node/parse-worker.ts) or in-process (tests, small workspaces).
 */
import { Language, Parser, Query } from 'web-tree-sitter';
import type { AssetLocator, WasmModule } from '../ports';
import { extractFromTree } from './extract';
import { packContent } from './file-content';
import { searchableText } from './identifiers';
import { languageById, textForParser } from './languages';
import type { LanguageSpec } from './languages';
import type { ParseRequest, ParseResult } from './types';

interface Loaded {
  parser: Parser;
  query: Query;
  spec: LanguageSpec;
}

let runtimeReady: Promise<void> | undefined;
const utf8 = new TextEncoder();

/** The one WebAssembly call made here, typed locally: core is built without the DOM or Node typings. */
const wasm = (globalThis as unknown as { WebAssembly: { Instance: new (module: WasmModule, imports: object) => object } }).WebAssembly;

/**
 * The runtime's module object: the options Parser.init is given become it, and its `loadWebAssemblyModule` (which
 * Language.load calls with the grammar's bytes) also takes a compiled module. Set when that is so.
 */
let grammarLoader: { loadWebAssemblyModule: (binary: unknown, ...rest: unknown[]) => unknown } | undefined;
/** Compiled grammars by the empty array Language.load is handed in their place (it accepts bytes only). */
const compiledGrammars = new WeakMap<Uint8Array, WasmModule>();

function initRuntime(assets: AssetLocator): Promise<void> {
  // Parser.init loads the tree-sitter runtime once per JS realm (each worker has its own).
  // The runtime's bytes are handed over directly, so no bundler or path guessing is involved.
  runtimeReady ??= (async () => {
    const compiled = assets.compiledWasm?.('tree-sitter.wasm');
    const bytes = compiled ? undefined : await assets.readBytes('tree-sitter.wasm');
    const options: Record<string, unknown> = compiled
      // Instantiated synchronously, so a failure rejects Parser.init instead of leaving it waiting.
      ? { instantiateWasm: (imports: object, receive: (instance: object, module: WasmModule) => void) => { receive(new wasm.Instance(compiled, imports), compiled); return {}; } }
      : { wasmBinary: bytes!.buffer.slice(bytes!.byteOffset, bytes!.byteOffset + bytes!.byteLength) };
    await Parser.init(options as unknown as EmscriptenModule);
    const load = options.loadWebAssemblyModule;
    if (typeof load === 'function') {
      const loader = options as unknown as { loadWebAssemblyModule: (binary: unknown, ...rest: unknown[]) => unknown };
      loader.loadWebAssemblyModule = (binary, ...rest) => load.call(options, (binary instanceof Uint8Array && compiledGrammars.get(binary)) || binary, ...rest);
      grammarLoader = loader;
    }
  })();
  return runtimeReady;
}

/**
 * Grammar loads run one at a time per realm: web-tree-sitter links each grammar module against shared runtime
 * state, and two loads interleaving across an await resolve symbols into the wrong module (seen as "bad export type
 * for 'tree_sitter_kotlin_external_scanner_create'" while loading Java, when two batches reached one worker).
 */
let loadChain: Promise<unknown> = Promise.resolve();
function loadLanguage(bytes: Uint8Array): Promise<Language> {
  const next = loadChain.then(() => Language.load(bytes));
  loadChain = next.catch(() => undefined);
  return next;
}

/** The grammar in `file`, from the module another thread compiled when the host shares one, else from its bytes. */
async function loadGrammar(assets: AssetLocator, file: string): Promise<Language> {
  const compiled = grammarLoader && assets.compiledWasm?.(file);
  if (!compiled) return loadLanguage(await assets.readBytes(file));
  const stand = new Uint8Array(0);
  compiledGrammars.set(stand, compiled);
  return loadLanguage(stand);
}

export class TreeSitterService {
  private readonly loaded = new Map<string, Promise<Loaded>>();
  private readonly failures = new Map<string, string>();

  constructor(private readonly assets: AssetLocator) {}

  unavailable(): Record<string, string> {
    return Object.fromEntries(this.failures);
  }

  private load(languageId: string): Promise<Loaded> {
    let pending = this.loaded.get(languageId);
    if (!pending) {
      pending = (async () => {
        const spec = languageById(languageId);
        if (!spec) throw new Error(`unknown language ${languageId}`);
        await initRuntime(this.assets);
        const language = await loadGrammar(this.assets, spec.grammar);
        const sources = await Promise.all(spec.queries.map((q) => this.assets.readText(q)));
        const query = new Query(language, sources.join('\n'));
        const parser = new Parser();
        parser.setLanguage(language);
        return { parser, query, spec };
      })();
      pending.catch((e: unknown) => this.failures.set(languageId, e instanceof Error ? e.message : String(e)));
      this.loaded.set(languageId, pending);
    }
    return pending;
  }

  /** Parses and extracts, packed for the index: see packForIndex. */
  async parse(req: ParseRequest): Promise<ParseResult> {
    const result = await this.extract(req);
    return result.error ? result : packForIndex(result, req.text);
  }

  /** Parses and extracts, with every chunk's text. */
  async extract(req: ParseRequest): Promise<ParseResult> {
    let loaded: Loaded;
    try {
      loaded = await this.load(req.language);
    } catch (e) {
      return failed(req, 'grammar_unavailable', `grammar for ${req.language} failed to load: ${e instanceof Error ? e.message : String(e)}`);
    }
    let tree;
    try {
      // The parser sees the rewritten text; names, signatures and chunks come from the file's own text.
      const parsed = textForParser(loaded.spec, req.text);
      tree = loaded.parser.parse(parsed);
      if (!tree) return failed(req, 'parse_failed', 'parser returned no tree');
      return extractFromTree(req.path, req.language, req.text, tree, loaded.query, parsed);
    } catch (e) {
      // A parser crash (e.g. WASM out of bounds on pathological input) is this file's problem only.
      loaded.parser.reset();
      return failed(req, 'parse_failed', e instanceof Error ? e.message : String(e));
    } finally {
      // Trees live in WASM memory: without delete() it grows by ~0.3 MB per parse.
      tree?.delete();
    }
  }
}

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * What the indexing thread needs and no more, made here because this runs on the parse workers: the file's text
 * packed once (chunk text is rebuilt from it on read), each chunk's search text as UTF-8, and the chunks' total
 * length; the chunk texts themselves are dropped.
 */
export function packForIndex(result: ParseResult, text: string): ParseResult {
  let chars = 0;
  for (const chunk of result.chunks) {
    chunk.utf8 = { search: utf8.encode(searchableText(chunk.text)) };
    // Code points, as SQLite's length() counts them: a surrogate pair is one.
    chars += chunk.text.length - (chunk.text.match(SURROGATE_PAIR)?.length ?? 0);
    chunk.text = '';
  }
  result.content = packContent(text);
  result.chunkChars = chars;
  return result;
}

function failed(req: ParseRequest, code: 'grammar_unavailable' | 'parse_failed', message: string): ParseResult {
  return {
    path: req.path, language: req.language, error: { code, message }, hasSyntaxErrors: false,
    symbols: [], references: [], imports: [], fileAnnotations: {}, chunks: [],
  };
}
