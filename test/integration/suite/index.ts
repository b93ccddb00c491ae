/**
 * Entry point VS Code loads as `extensionTestsPath`: runs every `*.test.js` next to this file with mocha (tdd UI)
 * inside the extension host. The same module serves @vscode/test-electron and the code-server harness.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  console.log('CONTEXT-ORACLE-INTEGRATION-START'); // tells the harness the extension host loaded the suite
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, reporter: 'spec' });
  for (const f of fs.readdirSync(__dirname).sort()) {
    if (f.endsWith('.test.js')) mocha.addFile(path.join(__dirname, f));
  }
  return new Promise((resolve, reject) => {
    mocha.run((failures) => {
      console.log(`CONTEXT-ORACLE-INTEGRATION-DONE failures=${failures}`);
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
  });
}
