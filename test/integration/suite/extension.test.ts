import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IndexOutcome } from '../../../src/core/model';
import type { StatusReport } from '../../../src/extension/commands';
import { EXTENSION_ID, requestScreenshot, silentStatus, waitForStatus, workspaceRoot } from './helpers';

const isIndexed = (s: StatusReport): boolean => s.state === 'ready' && s.exists;

suite('Context Oracle in a real VS Code', () => {
  test('the extension is present and activates quickly', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} not found`);
    await ext.activate();
    assert.equal(ext.isActive, true);
    const ms = await vscode.commands.executeCommand<number>('contextOracle.activationTime');
    console.log(`ACTIVATION_MS=${ms.toFixed(1)} (VS Code ${vscode.version}, node ${process.versions.node})`);
    assert.ok(ms > 0 && ms < 1000, `activate() took ${ms} ms`);
  });

  test('both commands are registered and contributed', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const id of ['contextOracle.reindex', 'contextOracle.showStatus']) assert.ok(all.includes(id), `${id} is not registered`);
    const contributed = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.commands as { command: string; title: string; category?: string }[])
      .map((c) => `${c.category ? `${c.category}: ` : ''}${c.title}`);
    assert.ok(contributed.includes('Context Oracle: Reindex Workspace'), contributed.join(', '));
    assert.ok(contributed.includes('Context Oracle: Show Index Status'), contributed.join(', '));
  });

  test('the background index holds exactly the fixture workspace', async () => {
    const s = await waitForStatus(isIndexed, 'the first index run');
    assert.equal(s.root, workspaceRoot());
    assert.deepEqual(s.filesByLanguage, { go: 1, python: 1, typescript: 2 });
    assert.equal(s.files, 4);
    assert.ok((s.skips.gitignored ?? 0) >= 1, `gitignored skips: ${JSON.stringify(s.skips)}`);
    assert.ok(s.symbols > 0, `symbols: ${s.symbols}`);
    assert.equal(s.annotations, 2, 'one oracle: annotation in greeter.ts and one in report.py');
    assert.equal(s.filesWithSyntaxErrors, 0);
    assert.ok(s.updatedAt, 'updatedAt is set');
    assert.ok(fs.existsSync(s.indexPath), `index file ${s.indexPath} exists`);
  });

  test('Show Index Status, run as a user would, returns the IndexStatus', async () => {
    const s = await vscode.commands.executeCommand<StatusReport>('contextOracle.showStatus');
    assert.equal(s.exists, true);
    assert.equal(s.files, 4);
    assert.equal(s.trusted, true);
    assert.ok(s.activationMs > 0);
  });

  test('Reindex Workspace rebuilds the index and the status follows', async () => {
    const before = await waitForStatus(isIndexed, 'an idle index');
    fs.writeFileSync(path.join(workspaceRoot(), 'tools', 'extra.py'), 'def added_later():\n    return 1\n');
    const outcome = await vscode.commands.executeCommand<IndexOutcome | undefined>('contextOracle.reindex');
    assert.ok(outcome, 'reindex returned no outcome (cancelled or failed)');
    assert.equal(outcome.full, true);
    assert.equal(outcome.filesSeen, 5);
    assert.equal(outcome.parsed, 5);
    const after = await silentStatus();
    assert.equal(after.state, 'ready');
    assert.equal(after.files, 5);
    assert.deepEqual(after.filesByLanguage, { go: 1, python: 2, typescript: 2 });
    assert.ok(Date.parse(after.updatedAt!) >= Date.parse(before.updatedAt!), `${after.updatedAt} < ${before.updatedAt}`);
    assert.equal(after.lastRun?.full, true);
  });

  test('changing contextOracle.exclude re-indexes without the excluded files', async () => {
    const config = vscode.workspace.getConfiguration('contextOracle');
    await config.update('exclude', ['tools/**'], vscode.ConfigurationTarget.Workspace);
    try {
      const s = await waitForStatus((x) => isIndexed(x) && x.files === 3, 'an index without tools/');
      assert.deepEqual(s.filesByLanguage, { go: 1, typescript: 2 });
    } finally {
      await config.update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
    }
    const back = await waitForStatus((x) => isIndexed(x) && x.files === 5, 'tools/ back in the index');
    assert.deepEqual(back.filesByLanguage, { go: 1, python: 2, typescript: 2 });
  });

  test('the status bar shows the index state (screenshot by the code-server harness)', async () => {
    await waitForStatus(isIndexed, 'an idle index');
    const taken = await requestScreenshot('workbench-status-bar');
    console.log(taken ? 'screenshot taken' : 'no screenshot (not running under the code-server harness)');
  });
});
