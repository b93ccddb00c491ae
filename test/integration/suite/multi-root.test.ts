/**
 * A multi-root window (a `.code-workspace` of the fixture workspace and a second folder, `ledger`): the harness opens
 * it after the main suite and runs only this file there (see index.ts). Every folder is indexed and answered; paths
 * name their folder; a folder added at runtime starts its engine and one removed stops it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DefinitionsResult } from '../../../src/core/model';
import type { AskResult } from '../../../src/core/oracle/types';
import type { StatusReport } from '../../../src/extension/commands';
import { requestUi, silentStatus, waitFor, waitForStatus } from './helpers';

const folder = (name: string): vscode.WorkspaceFolder => {
  const f = vscode.workspace.workspaceFolders?.find((x) => x.name === name);
  if (!f) throw new Error(`no workspace folder named ${name}: ${vscode.workspace.workspaceFolders?.map((x) => x.name).join(', ')}`);
  return f;
};
const uriIn = (name: string, rel: string): vscode.Uri => vscode.Uri.joinPath(folder(name).uri, ...rel.split('/'));
const folderStates = (s: StatusReport): string => (s.activity?.folders ?? []).map((f) => `${f.name}:${f.state}`).join(',');
const allReady = (names: string[]) => (s: StatusReport): boolean => s.state === 'ready' && folderStates(s) === names.map((n) => `${n}:ready`).join(',');
const QUESTION = 'How does settleAccount compute the account balance?';

async function waitForActive(match: (e: vscode.TextEditor) => boolean, what: string): Promise<vscode.TextEditor> {
  return waitFor(() => vscode.window.activeTextEditor, (e) => !!e && match(e), what, 10_000) as Promise<vscode.TextEditor>;
}

suite('Multi-root workspace: every folder indexed and answered', () => {
  suiteSetup(async () => {
    await waitFor(() => vscode.workspace.workspaceFolders?.map((f) => f.name).join(',') ?? '', (n) => n === 'workspace,ledger', 'the workspace\'s two folders', 30_000);
    await waitForStatus(allReady(['workspace', 'ledger']), 'both folders indexed', 90_000);
  });

  test('the status adds both folders up and the status bar tooltip names each', async () => {
    const s = await silentStatus();
    const files = Object.fromEntries((s.activity?.folders ?? []).map((f) => [f.name, f.files ?? 0]));
    assert.ok(files.workspace! > 1 && files.ledger === 1, JSON.stringify(files));
    assert.equal(s.files, files.workspace! + files.ledger!, 'the files of both folders');
    const ui = await requestUi<{ itemText: string; tooltip?: string }>('status-bar-tooltip', { text: 'Oracle: \\d+ files', hoverText: 'Folders:', name: 'multi-root-status-tooltip' });
    if (!ui) return; // not under the code-server harness
    assert.match(ui.itemText, new RegExp(`Oracle: ${s.files} files`));
    assert.match(ui.tooltip ?? '', /Folders: workspace: \d+ files · ledger: 1 file\./, ui.tooltip);
  });

  test('a question answered from the second folder cites it with the folder name; the citation opens that folder\'s file', async () => {
    const result = await vscode.commands.executeCommand<AskResult | undefined>('contextOracle.ask', QUESTION);
    assert.ok(result?.citations.some((c) => c.path === 'ledger/src/ledger.ts'), JSON.stringify(result?.citations.map((c) => c.label)));
    const r = await requestUi<{ citations: string[]; answer: string }>('panel-ask', { question: QUESTION });
    if (!r) return;
    assert.match(r.answer, /ledger\/src\/ledger\.ts:17/, 'the prose names the file with its folder too');
    const n = r.citations.findIndex((c) => c.startsWith('ledger/src/ledger.ts:')) + 1;
    assert.ok(n > 0, `citations in the panel: ${r.citations.join(' ')}`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await requestUi('click-citation', { n });
    const ed = await waitForActive((e) => e.document.uri.fsPath === uriIn('ledger', 'src/ledger.ts').fsPath, 'ledger/src/ledger.ts opened by the citation');
    const line = Number(/:(\d+)/.exec(r.citations[n - 1]!)![1]);
    assert.equal(ed.selection.start.line + 1, line, 'the cited line is selected');
  });

  test('a definition in the second folder resolves to its file there', async () => {
    const defs = await vscode.commands.executeCommand<DefinitionsResult>('contextOracle.findDefinitions', 'settleAccount');
    assert.deepEqual(defs.results.map((d) => [d.path, d.line]), [['ledger/src/ledger.ts', 17]]);
    const greeter = await vscode.commands.executeCommand<DefinitionsResult>('contextOracle.findDefinitions', 'makeGreeter');
    assert.ok(greeter.results.some((d) => d.path === 'workspace/src/greeter.ts'), JSON.stringify(greeter.results.map((d) => d.path)));
  });

  test('hover and CodeLens work in both folders', async () => {
    for (const [name, rel, node, summary, cls] of [
      ['workspace', 'src/greeter.ts', 'greeting', 'Greets people by name', 'Greeter'],
      ['ledger', 'src/ledger.ts', 'ledger', 'Records payments and settles account balances', 'Ledger'],
    ] as const) {
      const uri = uriIn(name, rel);
      await vscode.workspace.openTextDocument(uri);
      const lenses = await waitFor(
        () => vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10),
        (l) => l.some((x) => x.command?.title.includes(node)), `the ${node} lens in ${name}`);
      assert.deepEqual(lenses.find((l) => l.command?.command === 'contextOracle.why')?.command?.arguments, [`${name}/${rel}::${cls}`]);
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(1, 5));
      const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n').replace(/&nbsp;/g, ' ');
      assert.ok(text.includes(summary), `${name} hover: ${text}`);
    }
  });

  test('a saved change in the second folder is queued under its folder name; Sync Now commits it', async () => {
    const doc = await vscode.workspace.openTextDocument(uriIn('ledger', 'src/ledger.ts'));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(doc.lineCount, 0), '\nexport const LEDGER_VERSION = 2;\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    await waitFor(async () => (await silentStatus()).freshness?.queued ?? [], (q) => q.includes('ledger/src/ledger.ts'), 'ledger/src/ledger.ts queued');
    await vscode.commands.executeCommand('contextOracle.syncNow');
    const defs = await vscode.commands.executeCommand<DefinitionsResult>('contextOracle.findDefinitions', 'LEDGER_VERSION');
    assert.equal(defs.results[0]?.path, 'ledger/src/ledger.ts');
  });

  test('a folder added at runtime is indexed and answered; removed, it is gone from the status', async () => {
    const extra = path.join(path.dirname(folder('ledger').uri.fsPath), 'extra');
    fs.mkdirSync(path.join(extra, 'src'), { recursive: true });
    fs.writeFileSync(path.join(extra, 'src', 'tally.ts'), 'export function tallyReceipts(receipts: number[]): number {\n  return receipts.length;\n}\n');
    const added = new Promise((r) => { const d = vscode.workspace.onDidChangeWorkspaceFolders(() => { d.dispose(); r(undefined); }); });
    assert.ok(vscode.workspace.updateWorkspaceFolders(2, 0, { uri: vscode.Uri.file(extra), name: 'extra' }));
    await added;
    await waitForStatus(allReady(['workspace', 'ledger', 'extra']), 'the added folder indexed', 60_000);
    const defs = await vscode.commands.executeCommand<DefinitionsResult>('contextOracle.findDefinitions', 'tallyReceipts');
    assert.deepEqual(defs.results.map((d) => d.path), ['extra/src/tally.ts']);
    const removed = new Promise((r) => { const d = vscode.workspace.onDidChangeWorkspaceFolders(() => { d.dispose(); r(undefined); }); });
    assert.ok(vscode.workspace.updateWorkspaceFolders(2, 1));
    await removed;
    await waitForStatus(allReady(['workspace', 'ledger']), 'the removed folder gone', 30_000);
  });
});
