/**
 * The workspace folders the language server indexes: one IndexSession (engine, cache-folder index) per folder, added
 * and removed as the editor's folders change. Paths crossing the protocol are VS Code's own form: workspace-relative
 * with one folder open, `folderName/path` with several (what `asRelativePath(uri, true)` prints), so a citation or a
 * location names its folder exactly when the user could not tell otherwise. Independent of the LSP library.
 */
import { EngineError } from '../core';
import type { IndexSession } from './index-session';

export interface ServedFolder {
  /** The editor's name for the folder (its `WorkspaceFolder.name`): the prefix of its paths when several are open. */
  name: string;
  root: string;
  session: IndexSession;
}

export class WorkspaceFolders {
  private readonly folders: ServedFolder[] = [];

  constructor(initial: ServedFolder[] = []) {
    for (const f of initial) this.add(f);
  }

  list(): readonly ServedFolder[] {
    return this.folders;
  }

  /** With several folders open, every path the client sees or sends starts with a folder's name. */
  several(): boolean {
    return this.folders.length > 1;
  }

  /** The first folder: what requests that name no path go to (the repo map, the graph, lint). */
  primary(): ServedFolder {
    const f = this.folders[0];
    if (!f) throw new EngineError('not_initialized', 'no workspace folder is open, so there is nothing to index');
    return f;
  }

  byName(name: string): ServedFolder | undefined {
    return this.folders.find((f) => f.name === name);
  }

  add(folder: ServedFolder): void {
    if (this.byName(folder.name)) throw new EngineError('invalid_input', `a workspace folder named ${folder.name} is already open`);
    this.folders.push(folder);
  }

  remove(name: string): ServedFolder | undefined {
    const i = this.folders.findIndex((f) => f.name === name);
    return i < 0 ? undefined : this.folders.splice(i, 1)[0];
  }

  /** A folder's path (or `path::symbol` ref_id) as the client sees it. */
  outPath(folder: ServedFolder, path: string): string {
    return this.several() ? `${folder.name}/${path}` : path;
  }

  /**
   * The folder a client path (or ref_id) names and the path inside it. A path that names no folder (a declared
   * node's ref_id, or one folder open) belongs to the primary folder, unchanged. The longest name wins, so folders
   * named `app` and `app/web` do not shadow each other.
   */
  route(path: string): { folder: ServedFolder; path: string } {
    if (!this.several()) return { folder: this.primary(), path };
    let best: ServedFolder | undefined;
    for (const f of this.folders) {
      if (path.startsWith(`${f.name}/`) && (!best || f.name.length > best.name.length)) best = f;
    }
    return best ? { folder: best, path: path.slice(best.name.length + 1) } : { folder: this.primary(), path };
  }
}
