/**
 * Entry point VS Code loads as `extensionTestsPath`: runs every `*.test.js` next to this file with mocha (tdd UI)
 * inside the extension host. The same module serves @vscode/test-electron and the code-server harness.
 *
 * A window reload in two phases (code-server only, where the harness keeps the page): phase 1 runs every suite, the
 * reload suite last (it asks the panel something and writes what it expects); then this module records phase 1's
 * figures and reloads the window. The workbench loads the same test payload again; phase 2 sees the record and runs
 * only the after-reload suite, then reports both phases together.
 *
 * Then the harness opens a second window on a `.code-workspace` of two folders: there only the multi-root suite runs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { AFTER_RELOAD_FILE, RELOAD_FILE, reloadRecord, type PhaseOne } from './reload-phase';

/** Runs in the harness's second window, a `.code-workspace` of two folders (see harness/workspace.mjs). */
const MULTI_ROOT_FILE = 'multi-root.test.js';

function mochaFor(files: string[]): Mocha {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, reporter: 'spec' });
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  return mocha;
}

function runMocha(files: string[]): Promise<{ passing: number; failures: number }> {
  return new Promise((resolve) => {
    let passing = 0;
    const runner = mochaFor(files).run((failures) => resolve({ passing, failures }));
    runner.on('pass', () => { passing++; });
  });
}

export async function run(): Promise<void> {
  console.log('CONTEXT-ORACLE-INTEGRATION-START'); // tells the harness the extension host loaded the suite
  const record = reloadRecord();
  // A window on a `.code-workspace` is the harness's multi-root pass: only the multi-root file runs there. Told by the
  // workspace file, not the folder count: under load the folders of a workspace may not be there yet when this runs.
  const multiRoot = vscode.workspace.workspaceFile?.path.endsWith('.code-workspace') === true;
  console.log(`workspace: ${vscode.workspace.workspaceFile?.toString() ?? '(no workspace file)'}, folders ${JSON.stringify(vscode.workspace.workspaceFolders?.map((f) => f.name) ?? [])}`);
  const before = multiRoot ? undefined : record?.read();
  let passing: number;
  let failures: number;
  if (multiRoot) {
    ({ passing, failures } = await runMocha([MULTI_ROOT_FILE]));
  } else if (before) {
    const after = await runMocha([AFTER_RELOAD_FILE]);
    passing = before.passing + after.passing;
    failures = before.failures + after.failures;
    // The harness reads the last summary: both phases together.
    console.log(`\n  ${passing} passing (both sides of the window reload)\n  ${failures} failing`);
  } else {
    const files = fs.readdirSync(__dirname).sort().filter((f) => f.endsWith('.test.js') && f !== RELOAD_FILE && f !== AFTER_RELOAD_FILE && f !== MULTI_ROOT_FILE);
    const main = await runMocha([...files, RELOAD_FILE]);
    passing = main.passing;
    failures = main.failures;
    if (record?.prepared()) {
      record.write({ passing, failures } satisfies PhaseOne);
      console.log('CONTEXT-ORACLE-INTEGRATION-RELOADING');
      await vscode.commands.executeCommand('workbench.action.reloadWindow');
      return new Promise<void>(() => undefined); // this extension host ends with the window
    }
  }
  console.log(`CONTEXT-ORACLE-INTEGRATION-DONE failures=${failures}`);
  if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
}
