/** The commands: Reindex Workspace, Show Index Status, and the activation time (for tests and diagnostics). */
import * as vscode from 'vscode';
import type { IndexOutcome, IndexStatus } from '../core';
import type { IndexActivity } from '../protocol/language-server';
import { engineErrorCode, errorMessage, isCancellation } from './errors';
import type { IndexState } from './index-state';
import type { OracleClient } from './oracle-client';
import { statusReport, statusSummary, type StatusView, type ViewState } from './status-view';

export const COMMANDS = {
  reindex: 'contextOracle.reindex',
  showStatus: 'contextOracle.showStatus',
  activationTime: 'contextOracle.activationTime',
  cancelIndexing: 'contextOracle.cancelIndexing',
} as const;

/** What Show Index Status returns: the engine's IndexStatus plus what the extension knows. */
export interface StatusReport extends IndexStatus {
  state: ViewState;
  activity?: IndexActivity;
  /** Duration of activate() in ms. */
  activationMs: number;
  trusted: boolean;
}

export interface ShowStatusOptions {
  /** Return the report without a notification or output (for tests and other callers). */
  silent?: boolean;
}

export interface CommandDeps {
  client: OracleClient;
  state: IndexState;
  log: vscode.LogOutputChannel;
  activationMs(): number;
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.reindex, () => reindex(deps)),
    vscode.commands.registerCommand(COMMANDS.showStatus, (options?: ShowStatusOptions) => showStatus(deps, options)),
    vscode.commands.registerCommand(COMMANDS.activationTime, () => deps.activationMs()),
    vscode.commands.registerCommand(COMMANDS.cancelIndexing, async () => {
      if (!deps.client.isRunning()) return 0;
      const r = await deps.client.request('contextOracle/cancelIndex', {});
      if (r.cancelled) deps.log.info(`cancelled ${r.cancelled} index run(s)`);
      return r.cancelled;
    }),
  ];
}

async function reindex({ client, log }: CommandDeps): Promise<IndexOutcome | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Context Oracle does not index untrusted workspaces. Trust this workspace to enable indexing.');
    return undefined;
  }
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Context Oracle: Reindexing workspace', cancellable: true },
    async (progress, token) => {
      let reported = 0;
      const sub = client.onActivity((a) => {
        const p = a.progress;
        if (a.state !== 'indexing' || !p) return;
        if (p.phase === 'parsing' && p.total > 0) {
          const pct = Math.floor((100 * p.done) / p.total);
          progress.report({ message: `${p.done}/${p.total} files`, increment: Math.max(0, pct - reported) });
          reported = Math.max(reported, pct);
        } else if (p.phase === 'persisting') {
          progress.report({ message: 'saving the index' });
        }
      });
      try {
        const outcome = await client.request('contextOracle/index', { full: true }, token);
        log.info(`reindexed: ${outcome.filesSeen} files, ${outcome.parsed} parsed, ${outcome.failed} failed in ${outcome.elapsedMs} ms`);
        void vscode.window.showInformationMessage(`Context Oracle: reindexed ${outcome.filesSeen} files in ${(outcome.elapsedMs / 1000).toFixed(1)} s.`);
        return outcome;
      } catch (e) {
        if (isCancellation(e)) {
          log.info('reindex cancelled');
          void vscode.window.showInformationMessage('Context Oracle: reindex cancelled; the previous index is kept.');
          return undefined;
        }
        log.error(`reindex failed (${engineErrorCode(e) ?? 'error'}): ${errorMessage(e)}`);
        void vscode.window.showErrorMessage(`Context Oracle: reindex failed: ${errorMessage(e)}`);
        return undefined;
      } finally {
        sub.dispose();
      }
    },
  );
}

const DETAILS = 'Show Details';
const CANCEL = 'Cancel Indexing';

/** The notification of Show Index Status; while a run is under way it carries Cancel. */
function notifyStatus(view: StatusView, log: vscode.LogOutputChannel): void {
  const actions = view.state === 'indexing' ? [CANCEL, DETAILS] : [DETAILS];
  void vscode.window.showInformationMessage(statusSummary(view), ...actions).then((pick) => {
    if (pick === DETAILS) log.show(true);
    else if (pick === CANCEL) void vscode.commands.executeCommand(COMMANDS.cancelIndexing);
  });
}

async function showStatus(deps: CommandDeps, options?: ShowStatusOptions): Promise<StatusReport> {
  const { client, state, log } = deps;
  // During a run the server may answer late (it is busy parsing): a click on the status bar shows what the
  // progress notifications said at once instead of waiting for it.
  const shownEarly = !options?.silent && state.view.state === 'indexing';
  if (shownEarly) notifyStatus(state.view, log);
  let view: StatusView = state.view;
  let activity: IndexActivity | undefined;
  if (client.isRunning()) {
    try {
      const result = await client.request('contextOracle/status', {});
      activity = result.activity;
      view = { ...view, state: result.activity.state, status: result.index, ...(result.activity.progress ? { progress: result.activity.progress } : {}), ...(result.activity.folders ? { folders: result.activity.folders } : {}) };
    } catch (e) {
      view = { ...view, error: errorMessage(e) };
      log.warn(`status request failed (${engineErrorCode(e) ?? 'error'}): ${errorMessage(e)}`);
    }
  }
  const report: StatusReport = {
    ...(view.status ?? emptyStatus()),
    state: view.state,
    ...(activity ? { activity } : {}),
    activationMs: deps.activationMs(),
    trusted: vscode.workspace.isTrusted,
  };
  if (!options?.silent) {
    for (const line of statusReport(view, deps.activationMs())) log.info(line);
    if (!shownEarly) notifyStatus(view, log);
  }
  return report;
}

function emptyStatus(): IndexStatus {
  return {
    root: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', indexPath: '', exists: false, files: 0, filesByLanguage: {},
    symbols: 0, chunks: 0, references: 0, imports: 0, annotations: 0, filesWithSyntaxErrors: 0, skips: {}, indexBytes: 0,
    unavailableLanguages: {},
  };
}
