/**
 * A ParserHost backed by worker threads, so indexing never blocks the host's event loop.
 * Requests are split across workers by size and language; a worker that dies fails only its own batch (reported per
 * file).
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import { LANGUAGES, type ParseRequest, type ParseResult, type ParserHost } from '../core';
import { wasmOptimizing } from './wasm-tiering';

interface Pending {
  resolve: (r: ParseResult[]) => void;
  reject: (e: Error) => void;
}

/**
 * Workers idle this long are stopped: each holds a tree-sitter runtime and every grammar it compiled (tens of MB),
 * which a long-running host (language server, MCP server) should not keep between bursts of commits.
 */
const IDLE_MS = 60_000;

/**
 * What a worker's first file of a language costs beyond its parse, in characters of source parsed in the same time:
 * compiling the language's tags query (TSX 0.4-0.9 s on a loaded 2-core machine, TypeScript 0.2-0.3 s, at ~0.5-1 MB/s
 * of parsing). A language few files use stays on one worker instead of being compiled on each.
 */
const QUERY_COMPILE_CHARS = 300_000;

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Languages sent to this worker: their queries are compiled there (or will be by the time it reaches them). */
  languages: Set<string>;
  /** Characters sent and not answered yet: the work queued on this worker. */
  queued: number;
  /** Grammar files whose compiled module this worker has been sent. */
  grammars: Set<string>;
  /**
   * Settles once the last batch sent is posted: batches are posted in the order they were sent, though a later one
   * may have its grammars compiled sooner (the worker parses them in the order they arrive, parse-worker.ts).
   */
  posted: Promise<void>;
}

const RUNTIME = 'tree-sitter.wasm';
/** The global WebAssembly object: @types/node declares its types but not the value (that comes with the DOM lib). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }).WebAssembly;

/**
 * Characters of parsing past which work gets a worker per core (up to `workers`); below, it gets `lean` workers, a
 * core fewer, as the thread that starts them is busy too (an index run writes rows there about as long as the workers
 * parse) and V8's compiler and collector threads take about half a core more. Each worker pays its own start (its
 * runtime, its languages' tags queries, its JIT), 0.3-0.8 CPU-s, which a small tree does not win back. Full index on
 * two cores, one worker against two, quiet (load 1.2-2.3), 3 alternating runs, medians: hono (2.6 MB) 2.85 vs 2.93 s
 * wall, 4.31 vs 4.88 CPU-s, 196 vs 228 MB; tokio (5.7 MB) 3.97 vs 3.78 s, 5.85 vs 6.51 CPU-s; pydantic (7.4 MB) 5.34
 * vs 5.23 s, 8.05 vs 8.84 CPU-s. So from 4 MB on, two workers, for the wall time; and with big work they keep the
 * indexing thread fed: the 124k-file corpus took 349 s with one worker and 266 s with two (load 3-5).
 */
const BIG_WORK_CHARS = 4 << 20;

export function createWorkerParserHost(
  assetRoot: string,
  workers = Math.max(1, Math.min(availableParallelism(), 4)),
  idleMs = IDLE_MS,
  lean = Math.max(1, Math.min(workers, availableParallelism() - 1)),
): ParserHost & { running(): number; languages(): string[][] } {
  const pool: Slot[] = [];
  /** Workers the run under way announced it needs (warm), 0 when none did; forgotten when the pool stops idle. */
  let planned = 0;
  const wanted = (files: number, chars: number) => Math.min(files, chars >= BIG_WORK_CHARS ? workers : lean);
  let nextId = 1;
  const unavailable: Record<string, string> = {};
  let busy = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  /**
   * The runtime and each grammar compiled once here and posted to the workers, which then share its machine code:
   * compiled per worker, each compiled (lazily) and optimised every hot function on its own. Undefined when the
   * compile failed: the worker then loads the file itself and reports what goes wrong per file, as before.
   */
  const modules = new Map<string, Promise<WebAssembly.Module | undefined>>();
  const compiled = (file: string) => {
    let module = modules.get(file);
    if (!module) {
      module = readFile(join(assetRoot, file)).then((bytes) => wasm.compile(bytes), () => undefined).catch(() => undefined);
      modules.set(file, module);
    }
    return module;
  };
  const grammarOf = new Map(LANGUAGES.map((l) => [l.id, l.grammar]));

  function stopWhenIdle(): void {
    clearTimeout(idleTimer);
    if (busy > 0) return;
    idleTimer = setTimeout(() => {
      if (busy > 0) return;
      planned = 0;
      void Promise.all(pool.splice(0).map((s) => s.worker.terminate()));
    }, idleMs);
    idleTimer.unref();
  }

  function spawn(runtime: WebAssembly.Module | undefined): Slot {
    // A parse makes mostly short-lived garbage (syntax node wrappers, strings): a young generation of 8 MB instead of
    // V8's default keeps ~40 MB less resident per worker at 10k files and parsed no slower (28.4 vs 28.8 s).
    const worker = new Worker(join(assetRoot, 'parse-worker.js'), { workerData: { assetRoot, runtime }, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    const slot: Slot = { worker, pending: new Map<number, Pending>(), languages: new Set(), queued: 0, grammars: new Set(), posted: Promise.resolve() };
    worker.on('message', (msg: { id: number; results: ParseResult[]; unavailable: Record<string, string> }) => {
      Object.assign(unavailable, msg.unavailable);
      slot.pending.get(msg.id)?.resolve(msg.results);
      slot.pending.delete(msg.id);
    });
    const fail = (e: Error) => {
      for (const p of slot.pending.values()) p.reject(e);
      slot.pending.clear();
      const i = pool.indexOf(slot);
      if (i >= 0) pool.splice(i, 1);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`parse worker exited with code ${code}`)));
    return slot;
  }

  async function send(slot: Slot, requests: ParseRequest[], chars: number): Promise<ParseResult[]> {
    const id = nextId++;
    slot.queued += chars;
    // The grammars this batch needs that the worker has not been sent (one message ahead of their first use).
    const grammars = [...new Set(requests.map((r) => grammarOf.get(r.language)))].filter((g): g is string => !!g && !slot.grammars.has(g));
    for (const g of grammars) slot.grammars.add(g);
    const compiling = Promise.all(grammars.map(async (g) => [g, await compiled(g)] as const));
    const turn = slot.posted.then(() => compiling);
    slot.posted = turn.then(() => undefined);
    const sent = await turn;
    const modules = Object.fromEntries(sent.filter(([, m]) => m));
    return new Promise<ParseResult[]>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, requests, modules });
    }).finally(() => { slot.queued -= chars; }).catch((e: Error) => requests.map((r) => ({
      path: r.path, language: r.language, error: { code: 'parse_failed' as const, message: e.message },
      hasSyntaxErrors: false, symbols: [], references: [], imports: [], fileAnnotations: {}, chunks: [],
    })));
  }

  /** Starts workers up to `count` (at most `workers`); a one-file commit wakes one worker, not all of them. */
  async function grow(count: number): Promise<void> {
    if (pool.length >= Math.min(workers, count)) return;
    // Parsing is the long work a process started on baseline wasm code (wasm-tiering.ts) was waiting to see; set
    // before the compile, so the shared modules tier up.
    wasmOptimizing();
    const runtime = await compiled(RUNTIME);
    while (pool.length < Math.min(workers, count)) pool.push(spawn(runtime));
  }

  async function parseOnPool(requests: ParseRequest[]): Promise<ParseResult[]> {
    const chars = requests.reduce((n, r) => n + r.text.length, 0);
    await grow(Math.max(wanted(requests.length, chars), Math.min(planned, requests.length)));
    // Balance by characters, work already queued included: largest first onto the worker that would finish it
    // soonest, counting a query to compile for a language the worker has not had. Files of a language some workers
    // lack go first, and the batch's files of languages every worker has (`fill`) go last, to whichever is behind:
    // so a language's worker may run ahead by that much before another compiles it too. Placed together, largest
    // first, a language few files use went to a second worker whenever its own was ahead for a moment, though the
    // rest of the batch could have evened that out (hono: TSX, 32 of 390 files, was compiled on both in every run).
    const shares: ParseRequest[][] = pool.map(() => []);
    const added = pool.map(() => 0);
    const everywhere = (language: string) => pool.every((s) => s.languages.has(language));
    const bySize = (a: ParseRequest, b: ParseRequest) => b.text.length - a.text.length;
    const fill = requests.filter((r) => everywhere(r.language)).sort(bySize);
    let fillLeft = fill.reduce((n, r) => n + r.text.length, 0);
    const others = Math.max(1, pool.length - 1);
    const cost = (k: number, r: ParseRequest) => pool[k]!.queued + added[k]! + (pool[k]!.languages.has(r.language) ? 0 : QUERY_COMPILE_CHARS + fillLeft / others);
    const place = (r: ParseRequest) => {
      let k = 0;
      for (let j = 1; j < pool.length; j++) if (cost(j, r) < cost(k, r)) k = j;
      shares[k]!.push(r);
      added[k]! += r.text.length;
      pool[k]!.languages.add(r.language);
    };
    requests.filter((r) => !everywhere(r.language)).sort(bySize).forEach(place);
    fillLeft = 0;
    fill.forEach(place);
    const parts = await Promise.all(pool.map((slot, k) => (shares[k]!.length ? send(slot, shares[k]!, added[k]!) : Promise.resolve([]))));
    const byPath = new Map(parts.flat().map((r) => [r.path, r]));
    return requests.map((r) => byPath.get(r.path)!);
  }

  return {
    async parse(requests) {
      if (!requests.length) return [];
      busy++;
      clearTimeout(idleTimer);
      try {
        return await parseOnPool(requests);
      } finally {
        busy--;
        stopWhenIdle();
      }
    },
    warm(files, chars = 0) {
      planned = wanted(files, chars);
      // Counted busy until started, so the idle timer cannot stop workers that are still booting.
      busy++;
      clearTimeout(idleTimer);
      // A runtime that fails to load fails the first parse instead, as a typed error; here it is not ours to report
      // (unhandled, it would end the process).
      void grow(planned).catch(() => undefined).finally(() => {
        busy--;
        stopWhenIdle();
      });
    },
    async unavailable() {
      return { ...unavailable };
    },
    /** Workers alive now (for tests and diagnostics). */
    running: () => pool.length,
    /** The languages each running worker was given (for tests and diagnostics). */
    languages: () => pool.map((s) => [...s.languages].sort()),
    async dispose() {
      clearTimeout(idleTimer);
      await Promise.all(pool.splice(0).map((s) => s.worker.terminate()));
    },
  };
}
