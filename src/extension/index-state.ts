import * as vscode from 'vscode';
import type { FreshnessStamp } from '../core';
import type { ActivityNotification } from './oracle-client';
import type { StatusView } from './status-view';

/** The extension's view of the index: fed by trust, client start-up and the server's activity notifications. */
export class IndexState implements vscode.Disposable {
  private current: StatusView;
  private readonly changed = new vscode.EventEmitter<StatusView>();
  readonly onDidChange = this.changed.event;

  constructor(initial: StatusView) {
    this.current = initial;
  }

  get view(): StatusView {
    return this.current;
  }

  set(view: StatusView): void {
    this.current = view;
    this.changed.fire(view);
  }

  /** A server notification: keep the last known index status until a finished run brings a new one. */
  applyActivity(a: ActivityNotification): void {
    const status = a.status ?? this.current.status;
    this.set({
      state: a.state,
      ...(a.progress ? { progress: a.progress } : {}),
      ...(a.full !== undefined ? { full: a.full } : {}),
      ...(status ? { status } : {}),
      ...(a.error ? { error: a.error.message } : {}),
      ...(a.folders ? { folders: a.folders } : {}),
      ...(this.current.freshness ? { freshness: this.current.freshness } : {}),
    });
  }

  /** The server's change queue changed. */
  applyFreshness(freshness: FreshnessStamp): void {
    this.set({ ...this.current, freshness });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
