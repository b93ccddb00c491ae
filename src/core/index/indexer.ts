/**
 * Full and incremental indexing: walk, pre-filter by mtime/size, hash, parse only what changed (in batches through
 * the ParserHost), drop deleted files, persist atomically. Files that fail keep what the index already had.
 */
import type { EngineConfig } from '../config';
import { throwIfAborted } from '../errors';
import type { EngineDeps } from '../ports';
import type { IndexDatabase } from '../store/database';
import { ChangeRecorder } from '../store/changes';
import { indexedRows, type FileFacts, type FileRows } from '../store/file-writes';
import type { ParseRequest, ParseResult } from '../parse/types';
import { contentHash, decodeText, lineCount, looksBinary, looksMinified } from './content';
import { classifyPaths, walkWorkspace, type Candidate, type SkipReason } from './walker';
import { folderRange } from './paths';
import { BatchBudget } from './batch-budget';

export interface IndexProgress {
  phase: 'walking' | 'parsing' | 'persisting' | 'done';
  done: number;
  total: number;
}

export interface IndexReport {
  full: boolean;
  filesSeen: number;
  parsed: number;
  unchanged: number;
  /** Files whose mtime moved but whose content hash did not (only their stamp was updated). */
  touched: number;
  removed: number;
  failed: number;
  lossyUtf8: number;
  skipCounts: Partial<Record<SkipReason, number>>;
  durationMs: number;
  /** Bytes handed to the parser (files indexed as copies of others are not parsed). */
  bytesParsed: number;
  /** Files with the same bytes and language as another indexed file, indexed as copies of its rows (counted in `parsed`). */
  reused: number;
  /** Batches handed to the parser host. */
  batches: number;
  /**
   * Present when memory reached the limit (EngineConfig.indexMemoryMb): how often batches shrank, and to what; the
   * most resident memory seen (at each batch and at the end of the parse) against the limit, in MB.
   */
  memoryLimited?: { shrinks: number; smallestBatch: number; peakMb: number; limitMb: number };
}

export interface IndexRunOptions {
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
  /**
   * Index only these workspace-relative paths (queued changes) instead of walking the workspace; paths that are
   * gone or now ignored leave the index. Everything else in the index is left as it is.
   */
  onlyPaths?: readonly string[];
}

interface Stored {
  size: number;
  mtime: number;
  hash: string;
  language: string;
}

/** A file indexed as a copy of another with the same bytes and language (file-writes.ts copyFile). */
interface Copy {
  file: Candidate;
  facts: FileFacts;
  /** Same content earlier in this run: its key in `firsts`. */
  key?: string;
  /** Same content already in the index, under this path (a path this run does not rewrite). */
  indexedAs?: string;
  /** Kept for the fallback parse, should the indexed file no longer be there at write time. */
  text?: string;
}

/** The first file of a content in this run: a later file with its bytes copies its rows, or its failure. */
interface First {
  lines: number;
  lossy: boolean;
  rows?: FileRows;
  /** Its chunks' search bodies from the parse, while the run's budget for them lasts (copies reuse them). */
  bodies?: Uint8Array[];
  error?: { code: SkipReason; message: string };
}

export async function runIndex(
  deps: EngineDeps,
  config: EngineConfig,
  db: IndexDatabase,
  full: boolean,
  options: IndexRunOptions = {},
  /** Where the run's writes go (and are kept for the journal); a non-recording one by default. */
  writes: ChangeRecorder = new ChangeRecorder(db, false),
): Promise<IndexReport> {
  const { signal, onProgress } = options;
  const started = deps.clock.now();
  onProgress?.({ phase: 'walking', done: 0, total: 0 });
  const classified = options.onlyPaths && !full ? await classifyPaths(deps.root, deps.fs, config, options.onlyPaths) : undefined;
  // A folder among the changes (moved or copied in) is walked the only way the rules allow, as part of the workspace.
  const targeted = classified?.folders.length ? undefined : classified;
  const walk = targeted ?? await walkWorkspace(deps.root, deps.fs, config, deps.logger, signal);
  throwIfAborted(signal);

  const stored = new Map<string, Stored>();
  const keepRow = (r: Record<string, unknown> | undefined) => {
    if (r) stored.set(String(r.path), { size: Number(r.size), mtime: Number(r.mtime), hash: String(r.hash), language: String(r.language) });
  };
  // A targeted commit looks up only its own paths: reading every file row costs more than the commit itself at 10k files.
  if (targeted) {
    for (const p of [...targeted.files.map((f) => f.path), ...targeted.gone]) keepRow(db.getPrepared('SELECT path, size, mtime, hash, language FROM files WHERE path = ?', [p]));
    // Files under a gone path (a folder deleted or moved away).
    for (const p of targeted.gone) for (const r of db.all('SELECT path, size, mtime, hash, language FROM files WHERE path > ? AND path < ?', folderRange(p))) keepRow(r);
  } else for (const r of db.all('SELECT path, size, mtime, hash, language FROM files')) keepRow(r);
  const report: IndexReport = {
    full, filesSeen: walk.files.length, parsed: 0, unchanged: 0, touched: 0, removed: 0, failed: 0, lossyUtf8: 0,
    skipCounts: { ...walk.skipCounts }, durationMs: 0, bytesParsed: 0, reused: 0, batches: 0,
  };
  const skips = [...walk.skipped];
  const skip = (path: string, reason: SkipReason, detail?: string): void => {
    report.skipCounts[reason] = (report.skipCounts[reason] ?? 0) + 1;
    skips.push({ path, reason, ...(detail ? { detail } : {}) });
  };

  // mtime/size pre-filter first; only files that look changed are read and hashed.
  const changed = walk.files.filter((f) => {
    const s = stored.get(f.path);
    const same = !full && s && s.size === f.size && s.mtime === f.mtimeMs;
    if (same) report.unchanged++;
    return !same;
  });

  const keep = new Set(walk.files.map((f) => f.path));
  const total = changed.length;
  // What a full run will parse, at most (copies show only when read): enough starts a parse thread on every core.
  if (full) deps.parser.warm?.(changed.length, changed.reduce((n, f) => n + f.size, 0));

  // One parse per distinct content: vendored and copied trees repeat files byte for byte (a 100k-file corpus held
  // 6.5k distinct ones). Keyed by hash and language: the extraction depends on nothing else.
  const contentKey = (hash: string, language: string) => `${hash}\0${language}`;
  const firsts = new Map<string, First>();
  // Files already indexed that this run leaves as they are, by content: a new copy of one (a file moved or
  // duplicated) copies its rows. Built once, on the first file that needs it; not for a run of named paths.
  let indexedByContent: Map<string, string> | undefined;
  const indexedAs = (key: string): string | undefined => {
    if (full || targeted) return undefined;
    if (!indexedByContent) {
      const rewritten = new Set(changed.map((f) => f.path));
      indexedByContent = new Map();
      for (const [path, s] of stored) if (!rewritten.has(path)) indexedByContent.set(contentKey(s.hash, s.language), path);
    }
    return indexedByContent.get(key);
  };
  // Batches are read at once but sifted in order, so the first file of a content is always in an earlier batch
  // than its copies, or earlier in the same one, and written before them.
  let sifted: Promise<void> = Promise.resolve();
  // Search bodies kept for copies, bounded: a sixteenth of the memory limit (64 MB by default); past it, copies
  // rebuild theirs from the stored text.
  let bodyBudget = (config.indexMemoryMb > 0 ? config.indexMemoryMb : 1024) * 1024 * 1024 / 16;

  /**
   * Reads, sniffs and hashes one batch on this thread, then hands the changed files to the parser host. `posted`
   * settles once the batch is with the parser host, `parsed` once its results are back.
   */
  function prepare(batch: Candidate[]) {
    const requests: ParseRequest[] = [];
    const facts = new Map<string, FileFacts>();
    const touchOnly: Candidate[] = [];
    /** Files to write in batch order: a parse request's path, or a copy. */
    const order: Array<string | Copy> = [];
    const before = sifted;
    const readAll = async () => {
      // All reads of a batch at once: one at a time, each took several event-loop turns, and none of them ran while
      // this thread wrote a batch, so the workers ran dry behind the writes.
      const read = await Promise.all(batch.map((file) => deps.fs.readFile(file.abs).then((bytes) => ({ bytes }), (e: unknown) => ({ error: e }))));
      await before;
      for (const [i, file] of batch.entries()) {
        const got = read[i]!;
        if ('error' in got) {
          // Deleted or unreadable between walk and read: keep whatever the index had for it.
          const e = got.error;
          const gone = (e as { code?: string }).code === 'ENOENT';
          skip(file.path, gone ? 'vanished' : 'unreadable', e instanceof Error ? e.message : String(e));
          continue;
        }
        const bytes = got.bytes;
        if (looksBinary(bytes)) {
          skip(file.path, 'binary');
          keep.delete(file.path);
          continue;
        }
        const hash = contentHash(bytes);
        const prior = stored.get(file.path);
        if (!full && prior && prior.hash === hash) {
          touchOnly.push(file);
          continue;
        }
        const key = contentKey(hash, file.language);
        const first = firsts.get(key);
        if (first) {
          // The same bytes were sifted already: neither minified nor binary, and `lines` is theirs.
          if (first.lossy) report.lossyUtf8++;
          order.push({ file, key, facts: { path: file.path, language: file.language, size: file.size, mtimeMs: file.mtimeMs, hash, lines: first.lines } });
          continue;
        }
        const { text, lossy } = decodeText(bytes);
        const indexed = indexedAs(key);
        if (indexed !== undefined) {
          if (lossy) report.lossyUtf8++;
          order.push({ file, indexedAs: indexed, text, facts: { path: file.path, language: file.language, size: file.size, mtimeMs: file.mtimeMs, hash, lines: lineCount(text) } });
          continue;
        }
        if (looksMinified(text)) {
          // Bundles and minified builds: one line holding hundreds of definitions pollutes search and costs the
          // most to index, and nobody navigates them.
          skip(file.path, 'minified');
          keep.delete(file.path);
          continue;
        }
        if (lossy) report.lossyUtf8++;
        const lines = lineCount(text);
        facts.set(file.path, { path: file.path, language: file.language, size: file.size, mtimeMs: file.mtimeMs, hash, lines });
        firsts.set(key, { lines, lossy });
        requests.push({ path: file.path, language: file.language, text });
        order.push(file.path);
        report.bytesParsed += bytes.length;
      }
    };
    const reading = readAll();
    sifted = reading.then(() => undefined, () => undefined);
    // parse() hands the requests over before it first waits, so the batch is with the parser host once read.
    const parsed = reading.then(async () => ({
      size: batch.length, facts, touchOnly, order, results: requests.length ? await deps.parser.parse(requests, signal) : [],
    }));
    return { posted: reading.then(() => undefined, () => undefined), parsed };
  }

  // Batches in flight (batch-budget.ts): while this thread writes one batch into SQLite, the workers parse the next.
  const budget = new BatchBudget(config.batchSize, config.indexMemoryMb, deps.memory);
  const MB = 1024 * 1024;
  const inFlight: Array<ReturnType<typeof prepare>> = [];
  let next = 0;
  /** Tops up the batches in flight and waits until the new ones are with the parser host, so it never runs dry. */
  const refill = async () => {
    const added: Promise<void>[] = [];
    while (inFlight.length < budget.depth() && next < changed.length) {
      const n = budget.take(changed, next);
      const batch = prepare(changed.slice(next, next + n));
      inFlight.push(batch);
      added.push(batch.posted);
      next += n;
      report.batches++;
    }
    await Promise.all(added);
  };
  await refill();
  /** Writes parse results (in request order) and copies, in `order`; copies whose source is gone are returned. */
  const writeInOrder = (order: Array<string | Copy>, facts: Map<string, FileFacts>, results: ParseResult[], now: number): Copy[] => {
    const orphans: Copy[] = [];
    let next = 0;
    for (const item of order) {
      if (typeof item === 'string') {
        const result = results[next++]!;
        const first = firsts.get(contentKey(facts.get(result.path)!.hash, result.language));
        if (result.error) {
          report.failed++;
          skip(result.path, result.error.code, result.error.message);
          if (first) first.error = result.error;
          continue; // the previous version of the file, if any, stays indexed
        }
        const rows = writes.apply({ op: 'write', facts: facts.get(result.path)!, result, now });
        if (first) {
          first.rows = rows;
          const bodies = result.chunks.map((c) => c.utf8?.search);
          const bytes = bodies.reduce((n, b) => n + (b?.length ?? 0), 0);
          if (bodies.every((b) => b !== undefined) && bytes <= bodyBudget) {
            first.bodies = bodies as Uint8Array[];
            bodyBudget -= bytes;
          }
        }
        report.parsed++;
        continue;
      }
      const first = item.key === undefined ? undefined : firsts.get(item.key);
      if (first?.error) {
        // The same bytes fail the same way.
        report.failed++;
        skip(item.file.path, first.error.code, first.error.message);
        continue;
      }
      const from = first?.rows ?? (item.indexedAs === undefined ? undefined : indexedRows(db, item.indexedAs));
      if (!from) {
        if (item.indexedAs === undefined) throw new Error(`${item.file.path}: copied from a file of this run that was not written before it`);
        orphans.push(item);
        continue;
      }
      writes.apply({ op: 'copy', facts: item.facts, from, now, ...(first?.bodies ? { bodies: first.bodies } : {}) });
      report.parsed++;
      report.reused++;
    }
    return orphans;
  };

  let done = 0;
  const orphans: Copy[] = [];
  while (inFlight.length) {
    // Let go of the batch once taken: a settled promise kept around would hold every parse result of the run.
    const { size, facts, touchOnly, order, results } = await inFlight.shift()!.parsed;
    await refill();
    throwIfAborted(signal);
    const now = deps.clock.now();
    db.transaction(() => {
      for (const f of touchOnly) {
        writes.apply({ op: 'touch', path: f.path, mtimeMs: f.mtimeMs, size: f.size });
        report.unchanged++;
        report.touched++;
      }
      orphans.push(...writeInOrder(order, facts, results, now));
    });
    done += size;
    onProgress?.({ phase: 'parsing', done, total });
  }
  if (orphans.length) {
    // Copies of an indexed file that was not there at write time (a run never rewrites its source; this is the
    // safety net): parsed after all.
    const requests = orphans.map((o) => ({ path: o.file.path, language: o.file.language, text: o.text! }));
    const facts = new Map(orphans.map((o) => [o.file.path, o.facts]));
    const results = await deps.parser.parse(requests, signal);
    for (const o of orphans) report.bytesParsed += o.file.size;
    const now = deps.clock.now();
    db.transaction(() => writeInOrder(requests.map((r) => r.path), facts, results, now));
  }
  // Judged on runs that parsed: a run with nothing to parse holds what the host already held.
  if (changed.length) budget.sample();
  if (budget.shrinks || budget.peak > config.indexMemoryMb * MB) {
    const peakMb = Math.ceil(budget.peak / MB);
    report.memoryLimited = { shrinks: budget.shrinks, smallestBatch: budget.smallest, peakMb, limitMb: config.indexMemoryMb };
    // Batches shrink down to one file, but what a run holds whatever its batches (the parse workers' runtimes, the
    // compiled grammars, SQLite's page cache: ~370 MB on a 14-language workspace) is not theirs to give back.
    if (budget.peak > config.indexMemoryMb * MB) {
      deps.logger.warn(`indexing went over its memory limit (indexMemoryMb ${config.indexMemoryMb} MB): ${peakMb} MB at most, with batches down to ${budget.smallest} file(s); below ~400 MB the parsers and SQLite's cache alone exceed it`);
    }
  }

  // A targeted run removes only the requested paths that are gone; a walk removes whatever it did not see.
  const removable = targeted ? [...stored.keys()].filter((p) => targeted.gone.some((g) => p === g || p.startsWith(`${g}/`))) : [...stored.keys()];
  db.transaction(() => {
    for (const path of removable) {
      if (!keep.has(path)) {
        writes.apply({ op: 'remove', path });
        report.removed++;
      }
    }
    writes.apply({ op: 'skips', clear: !targeted, rows: skips.map((s) => [s.path, s.reason, s.detail ?? null]) });
  });
  report.durationMs = deps.clock.now() - started;
  const changedAnything = full || report.parsed + report.removed + report.touched > 0;
  writes.apply({ op: 'meta', values: {
    // The version caches are keyed on: a run that changed nothing keeps it, so they stay warm.
    ...(changedAnything ? { updated_at: String(deps.clock.now()) } : {}),
    // A targeted run saw only its own paths; the walk's skip counts stay the workspace-wide truth.
    ...(targeted ? {} : { skip_counts: JSON.stringify(report.skipCounts) }),
    unavailable_languages: JSON.stringify(await deps.parser.unavailable()),
    last_report: JSON.stringify(report),
  } });
  return report;
}
