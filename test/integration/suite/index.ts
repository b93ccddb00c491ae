/**
 * Entry point VS Code loads as `extensionTestsPath`: runs every `*.test.js` next to this file with mocha (tdd UI)
 * inside the extension host. The same module serves @vscode/test-electron and the code-server harness.
 *
 * A window reload in two phases (code-server only, where the harness keeps the page): phase 1 runs every suite, the
 * reload suite last (it asks the panel something and writes what it expects); then this module records phase 1's
 * figures and reloads the window. The workbench loads the same test payload again; phase 2 sees the record and runs
 * only the after-reload suite, then reports both phases together.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { AFTER_RELOAD_FILE, RELOAD_FILE, reloadRecord, type PhaseOne } from './reload-phase';

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
  const before = record?.read();
  let passing: number;
  let failures: number;
  if (before) {
    const after = await runMocha([AFTER_RELOAD_FILE]);
    passing = before.passing + after.passing;
    failures = before.failures + after.failures;
    // The harness reads the last summary: both phases together.
    console.log(`\n  ${passing} passing (both sides of the window reload)\n  ${failures} failing`);
  } else {
    const files = fs.readdirSync(__dirname).sort().filter((f) => f.endsWith('.test.js') && f !== RELOAD_FILE && f !== AFTER_RELOAD_FILE);
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
