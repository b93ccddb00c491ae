import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StatusReport } from '../../../src/extension/commands';

export const EXTENSION_ID = 'context-oracle.context-oracle';

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the integration tests need the fixture workspace open');
  return folder.uri.fsPath;
}

export function silentStatus(): Thenable<StatusReport> {
  return vscode.commands.executeCommand<StatusReport>('contextOracle.showStatus', { silent: true });
}

/** Polls Show Index Status until `done` holds (no blind sleeps); fails with the last status seen. */
export async function waitForStatus(done: (s: StatusReport) => boolean, what: string, timeoutMs = 45_000): Promise<StatusReport> {
  const deadline = Date.now() + timeoutMs;
  let last: StatusReport | undefined;
  while (Date.now() < deadline) {
    last = await silentStatus();
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last status: ${JSON.stringify(last)}`);
}

/**
 * Asks the code-server harness (test/integration/run.mjs) for a screenshot of the workbench right now and waits until
 * it is taken. Does nothing under @vscode/test-electron, which sets no CONTEXT_ORACLE_IT_SIGNAL_DIR.
 */
export async function requestScreenshot(name: string, timeoutMs = 20_000): Promise<boolean> {
  const dir = process.env.CONTEXT_ORACLE_IT_SIGNAL_DIR;
  if (!dir) return false;
  const doneFile = path.join(dir, `${name}.done`);
  console.log(`[harness:screenshot] ${name}`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(doneFile)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * Asks the code-server harness to perform a UI step in chromium (test/integration/harness/ui-steps.mjs) and returns
 * its findings; undefined under @vscode/test-electron, which has no browser to drive.
 */
export async function requestUi<T = Record<string, unknown>>(step: string, args: Record<string, unknown> = {}, timeoutMs = 90_000): Promise<T | undefined> {
  const dir = process.env.CONTEXT_ORACLE_IT_SIGNAL_DIR;
  if (!dir) return undefined;
  const file = path.join(dir, `${step}.json`);
  fs.rmSync(file, { force: true });
  console.log(`[harness:ui] ${step} ${JSON.stringify(args)}`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(file)) {
      const result = JSON.parse(fs.readFileSync(file, 'utf8')) as T & { error?: string };
      fs.rmSync(file, { force: true });
      if (result.error) throw new Error(`UI step ${step} failed: ${result.error}`);
      return result;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`UI step ${step} did not finish within ${timeoutMs} ms`);
}

/** Polls `probe` until it returns a value `done` accepts (no blind sleeps). */
export async function waitFor<T>(probe: () => Thenable<T> | Promise<T> | T, done: (v: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(last)?.slice(0, 500)}`);
}

export function fileUri(rel: string): vscode.Uri {
  return vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, ...rel.split('/'));
}
