/**
 * Watches a workspace and reports changed files in batches: the one watcher behind `context-oracle watch` and the
 * MCP server, both of which feed the engine's change queue with what it reports.
 *
 * macOS and Windows watch a tree natively with one handle. Elsewhere (Linux) Node's recursive mode walks the whole
 * tree synchronously and watches every file, node_modules and .git included (a second of blocked event loop and
 * tens of thousands of inotify watches on a mid-sized JS repository); here each folder gets one watch instead, added
 * by an asynchronous walk and as new folders appear, and the folders the index always skips are never entered.
 *
 * Reported: workspace-relative POSIX paths of files in a language the index knows, created, changed or deleted.
 * .gitignore and the configured excludes are left to the engine, which drops such paths when it commits a batch.
 */
import { promises as fsp, watch, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';
import { BUILTIN_EXCLUDES, languageForPath } from '../core';

export interface WorkspaceWatcher {
  /** Settles when every folder that existed at the start is watched. */
  readonly ready: Promise<void>;
  /** Reports the changes gathered so far now, instead of after the delay. */
  flush(): void;
  /** Stops watching; changes not yet reported are dropped. */
  close(): void;
}

export interface WatchOptions {
  /** A batch of changed paths (each at most once per batch). */
  onChanges(paths: string[]): void;
  /** The watcher failed (for example out of inotify watches) and stopped: changes are no longer seen. */
  onError?(error: Error): void;
  /** How long changes gather before a batch is reported; a save or a checkout comes as a burst of events. */
  delayMs?: number;
  /** One native recursive watch (default on macOS and Windows) rather than one watch per folder. */
  recursive?: boolean;
}

const DEFAULT_DELAY_MS = 200;
/** Errors that mean the system will not give us more watches: stop and say so rather than watch part of the tree. */
const OUT_OF_WATCHES = new Set(['ENOSPC', 'EMFILE', 'ENFILE']);

export function watchWorkspace(root: string, options: WatchOptions): WorkspaceWatcher {
  const pending = new Set<string>();
  const watchers = new Map<string, FSWatcher>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!pending.size || closed) return;
    const paths = [...pending];
    pending.clear();
    options.onChanges(paths);
  };
  const report = (rel: string): void => {
    if (closed || !isIndexable(rel)) return;
    pending.add(rel);
    timer ??= setTimeout(flush, options.delayMs ?? DEFAULT_DELAY_MS);
  };
  const close = (): void => {
    closed = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
    pending.clear();
    for (const w of watchers.values()) w.close();
    watchers.clear();
  };
  const fail = (e: unknown): void => {
    if (closed) return;
    close();
    options.onError?.(e instanceof Error ? e : new Error(String(e)));
  };

  if (options.recursive ?? (process.platform === 'darwin' || process.platform === 'win32')) {
    try {
      const w = watch(root, { recursive: true }, (_event, file) => {
        if (file) report(String(file).split(sep).join('/'));
      });
      w.on('error', fail);
      watchers.set('', w);
    } catch (e) {
      fail(e);
    }
    return { ready: Promise.resolve(), flush, close };
  }

  /** Watches `rel` and the folders below it; `announce` reports the files found (a folder that just appeared). */
  async function watchTree(rel: string, announce: boolean): Promise<void> {
    if (closed || watchers.has(rel)) return;
    const abs = rel ? join(root, rel) : root;
    try {
      const w = watch(abs, (event, name) => {
        if (!name) return;
        const child = rel ? `${rel}/${String(name)}` : String(name);
        if (isSkippedDir(String(name))) return;
        report(child);
        // A new or renamed folder: watch it and report what it already holds.
        if (event === 'rename' && !languageForPath(child)) void checkFolder(child);
      });
      w.on('error', (e: NodeJS.ErrnoException) => {
        if (OUT_OF_WATCHES.has(e.code ?? '')) fail(e);
        else forget(rel);
      });
      watchers.set(rel, w);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (OUT_OF_WATCHES.has(code)) fail(e);
      // Gone or unreadable by now: nothing to watch there.
      return;
    }
    let entries;
    try {
      entries = await fsp.readdir(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && !isSkippedDir(e.name)) await watchTree(child, announce);
      else if (announce && e.isFile()) report(child);
    }
  }

  async function checkFolder(rel: string): Promise<void> {
    const st = await fsp.lstat(join(root, rel)).catch(() => undefined);
    if (st?.isDirectory()) await watchTree(rel, true);
    else if (!st) forget(rel);
  }

  /** Stops watching a folder that went away, and everything below it. */
  function forget(rel: string): void {
    for (const [dir, w] of watchers) {
      if (dir === rel || dir.startsWith(`${rel}/`)) {
        w.close();
        watchers.delete(dir);
      }
    }
  }

  const ready = watchTree('', false).catch(fail);
  return { ready, flush, close };
}

function isSkippedDir(name: string): boolean {
  return BUILTIN_EXCLUDES.includes(name);
}

/** A path the index could hold: in a known language and outside the folders it always skips. */
function isIndexable(rel: string): boolean {
  return languageForPath(rel) !== undefined && !rel.split('/').some(isSkippedDir);
}
