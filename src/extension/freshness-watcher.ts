/**
 * Feeds the server's change queue from VS Code's file watcher: files written to disk (a save, a checkout, a tool)
 * and deletions, batched for a moment. Unsaved edits never reach the disk, so they are never sent. Changes inside
 * the index folder are not source changes, but graph and rules files there change what hovers, CodeLens, the Problems
 * view and the ref_id list show, so their edits reach those at once (no Sync Now).
 */
import * as vscode from 'vscode';
import type { ChangeNotice } from '../core';
import { folderRelative, relativePath } from './navigation-bridge';
import type { OracleClient } from './oracle-client';

// Editor and tool settings folders hold no indexable source; a settings change must not sit in the queue.
const IGNORED_DIRS = ['.git/', 'node_modules/', '.hg/', '.svn/', '.vscode/', '.idea/'];

/** Whether a path is a graph or rules file (hovers, CodeLens, the Problems view and the ref_id list read them). */
export function isGraphFile(rel: string): boolean {
  return /^(\.context-oracle\/graph|\.beadloom\/_graph)\/.+\.ya?ml$/.test(rel) || /^\.context-oracle\/rules\.ya?ml$/.test(rel);
}

/** Whether a workspace-relative path is a source change worth queueing (pure; tested in the integration suite). */
export function isSourceChange(rel: string): boolean {
  const dirs = rel.split('/').map((s) => `${s}/`);
  return dirs[0] !== '.context-oracle/' && !dirs.some((d) => IGNORED_DIRS.includes(d));
}

export interface ChangeWatcher extends vscode.Disposable {
  /** Sends what is pending now (before Sync Now, so a file saved a moment ago is in the batch). */
  flush(): void;
}

export function watchForChanges(client: OracleClient, onGraphOrDocChange: () => void, delayMs = 300): ChangeWatcher {
  // A glob, not a RelativePattern: it watches every workspace folder, those added later included.
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const pending = new Map<string, ChangeNotice['kind']>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = (): void => {
    timer = undefined;
    if (!pending.size) return;
    const changes: ChangeNotice[] = [...pending].map(([path, kind]) => ({ path, ...(kind ? { kind } : {}) }));
    pending.clear();
    client.notify('contextOracle/fileChanges', { changes });
  };
  const note = (uri: vscode.Uri, kind: ChangeNotice['kind']): void => {
    const rel = folderRelative(uri)?.rel;
    const named = relativePath(uri);
    if (!rel || !named) return;
    if (isGraphFile(rel) || rel.endsWith('.md')) onGraphOrDocChange();
    if (!isSourceChange(rel)) return;
    pending.set(named, kind);
    timer ??= setTimeout(flush, delayMs);
  };
  const disposable = vscode.Disposable.from(
    watcher,
    // A save is reported at once; the watcher's event for the same write follows later and merges into the batch.
    vscode.workspace.onDidSaveTextDocument((d) => note(d.uri, 'changed')),
    watcher.onDidChange((u) => note(u, 'changed')),
    watcher.onDidCreate((u) => note(u, 'changed')),
    watcher.onDidDelete((u) => note(u, 'deleted')),
    new vscode.Disposable(() => { if (timer) clearTimeout(timer); }),
  );
  return Object.assign(disposable, {
    flush() {
      if (timer) clearTimeout(timer);
      flush();
    },
  });
}
