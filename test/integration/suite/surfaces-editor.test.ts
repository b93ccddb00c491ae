import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DefinitionsResult, ReferencesResult } from '../../../src/core/model';
import type { StatusReport } from '../../../src/extension/commands';
import { fileUri, requestUi, silentStatus, waitFor, waitForStatus } from './helpers';

const diagnosticsOf = (rel: string): vscode.Diagnostic[] => vscode.languages.getDiagnostics(fileUri(rel)).filter((d) => d.source === 'Context Oracle');
const queued = async (): Promise<string[]> => ((await silentStatus()) as StatusReport).freshness?.queued ?? [];
/** Provider commands need the document loaded in the editor. */
const open = (rel: string): Thenable<vscode.TextDocument> => vscode.workspace.openTextDocument(fileUri(rel));

async function appendAndSave(rel: string, text: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(fileUri(rel));
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(doc.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
  assert.ok(await doc.save(), `${rel} saved`);
  return doc;
}

suite('Editor: CodeLens, hovers, Problems, freshness, exact navigation', () => {
  suiteSetup(async () => {
    await waitForStatus((s) => s.state === 'ready' && s.exists, 'an index');
    await vscode.commands.executeCommand('contextOracle.markDocsSynced');
  });

  test('CodeLens on the annotated class: node, dependents, and the why action', async () => {
    await open('src/greeter.ts');
    await open('tools/report.py');
    const lenses = await waitFor(
      () => vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', fileUri('src/greeter.ts'), 10),
      (l) => l.some((x) => x.command?.title.includes('greeting')), 'the greeting lens');
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.ok(titles.some((t) => t.includes('greeting · 2 dependents')), titles.join(' | '));
    const why = lenses.find((l) => l.command?.command === 'contextOracle.why');
    assert.deepEqual(why?.command?.arguments, ['src/greeter.ts::Greeter']);
    assert.equal(why?.range.start.line, 2, 'on the class line');
    const py = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', fileUri('tools/report.py'), 10);
    assert.ok(py.some((l) => l.command?.title.includes('reporting · 0 dependents')), py.map((l) => l.command?.title).join(' | '));
  });

  test('hover on the annotation names the node, its summary and its dependents', async () => {
    await open('src/greeter.ts');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', fileUri('src/greeter.ts'), new vscode.Position(1, 5));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n').replace(/&nbsp;/g, ' ');
    assert.ok(text.includes('Context Oracle'), text);
    assert.ok(text.includes('Greets people by name'), text);
    assert.ok(text.includes('2 nodes depend on it'), text);
    const ed = await vscode.window.showTextDocument(await open('src/greeter.ts'));
    ed.selection = new vscode.Selection(1, 5, 1, 5);
    await vscode.commands.executeCommand('editor.action.showHover');
    await requestUi('screenshot', { name: 'hover-annotation', delayMs: 1200 });
  });

  test('rule violations are in the Problems view', async () => {
    const d = await waitFor(() => diagnosticsOf('.context-oracle/graph/architecture.yml'), (x) => x.length > 0, 'lint diagnostics');
    assert.equal(d[0]!.code, 'feature-needs-domain');
    assert.equal(d[0]!.severity, vscode.DiagnosticSeverity.Error);
  });

  test('a saved change is queued (an unsaved one is not); Sync Now commits it; a stale doc appears and clears', async () => {
    const doc = await vscode.workspace.openTextDocument(fileUri('src/greeter.ts'));
    await vscode.window.showTextDocument(doc);
    const unsaved = new vscode.WorkspaceEdit();
    unsaved.insert(doc.uri, new vscode.Position(doc.lineCount, 0), '\n// not saved yet\n');
    await vscode.workspace.applyEdit(unsaved);
    await new Promise((r) => setTimeout(r, 1200)); // the watcher's batch delay is 300 ms: give it time to (wrongly) fire
    assert.deepEqual(await queued(), [], 'an unsaved edit is not queued');
    await doc.save();
    await waitFor(queued, (q) => q.includes('src/greeter.ts'), 'src/greeter.ts queued');
    await requestUi('screenshot', { name: 'status-bar-queued' });
    assert.equal(diagnosticsOf('docs/greeting.md').length, 0, 'not stale before the change reaches the index');
    await vscode.commands.executeCommand('contextOracle.syncNow');
    assert.deepEqual(await queued(), []);
    const stale = await waitFor(() => diagnosticsOf('docs/greeting.md'), (x) => x.length > 0, 'a stale-doc warning');
    assert.equal(stale[0]!.code, 'stale-doc');
    assert.match(stale[0]!.message, /src\/greeter\.ts changed/);
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await requestUi('screenshot', { name: 'problems-stale-doc', delayMs: 800 });
    const lenses = await waitFor(
      () => vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 10),
      (l) => l.some((x) => x.command?.title.includes('stale doc')), 'a stale-doc lens');
    assert.ok(lenses.some((l) => l.command?.title.includes('docs/greeting.md')));
    await vscode.commands.executeCommand('contextOracle.markDocsSynced', 'greeting');
    await waitFor(() => diagnosticsOf('docs/greeting.md'), (x) => x.length === 0, 'the stale-doc warning to clear');
  });

  test('a deleted file leaves the index after Sync Now', async () => {
    await appendAndSave('tools/report.py', '\n\ndef doomed_helper():\n    return 0\n');
    await vscode.commands.executeCommand('contextOracle.syncNow');
    const before = await vscode.commands.executeCommand<DefinitionsResult>('contextOracle.findDefinitions', 'doomed_helper');
    assert.equal(before.results[0]?.path, 'tools/report.py');
    await vscode.workspace.fs.delete(fileUri('tools/extra.py'), { useTrash: false }).then(undefined, () => undefined);
    await vscode.workspace.fs.writeFile(fileUri('tools/gone.py'), new TextEncoder().encode('def gone_soon():\n    return 1\n'));
    await waitFor(queued, (q) => q.includes('tools/gone.py'), 'the new file queued');
    await vscode.commands.executeCommand('contextOracle.syncNow');
    assert.equal((await vscode.commands.executeCommand<DefinitionsResult>('contextOracle.findDefinitions', 'gone_soon')).results[0]?.path, 'tools/gone.py');
    await vscode.workspace.fs.delete(fileUri('tools/gone.py'));
    await waitFor(queued, (q) => q.includes('tools/gone.py'), 'the deletion queued');
    await vscode.commands.executeCommand('contextOracle.syncNow');
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('contextOracle.findDefinitions', 'gone_soon')), /no definition|not_found|gone_soon/);
  });

  test("definitions and references come from the editor's TypeScript language server and equal its own answers", async () => {
    const greeter = await vscode.workspace.openTextDocument(fileUri('src/greeter.ts'));
    await vscode.window.showTextDocument(greeter);
    const line = greeter.getText().split('\n').findIndex((l) => l.startsWith('export function makeGreeter'));
    const col = greeter.lineAt(line).text.indexOf('makeGreeter');
    // The editor's own provider, asked directly (waits for tsserver to start).
    const own = await waitFor(
      () => vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', greeter.uri, new vscode.Position(line, col)),
      (l) => (l?.length ?? 0) >= 2, 'tsserver references');
    const expected = own.map((l) => `${vscode.workspace.asRelativePath(l.uri)}:${l.range.start.line + 1}:${l.range.start.character + 1}`)
      .filter((k) => k !== `src/greeter.ts:${line + 1}:${col + 1}`).sort();
    const symbols = await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', 'makeGreeter');
    console.log(`editor workspace symbols for makeGreeter: ${JSON.stringify(symbols.map((x) => [x.name, x.location.uri.path, x.location.range.start.line]))}`);
    const defs = await vscode.commands.executeCommand<DefinitionsResult>('contextOracle.findDefinitions', 'makeGreeter');
    assert.equal(defs.results[0]?.source, 'lsp', JSON.stringify(defs.results[0]));
    assert.equal(defs.results[0]?.path, 'src/greeter.ts');
    assert.equal(defs.results[0]?.line, line + 1);
    const refs = await vscode.commands.executeCommand<ReferencesResult>('contextOracle.findReferences', 'makeGreeter');
    assert.equal(refs.source, 'lsp');
    const got = refs.results.map((r) => `${r.path}:${r.line}:${r.column}`).sort();
    assert.deepEqual(got, expected);
    console.log(`LSP references to makeGreeter: ${got.join(', ')}`);
  });

  test('with contextOracle.useEditorNavigation off, answers come from the index', async () => {
    const config = vscode.workspace.getConfiguration('contextOracle');
    await config.update('useEditorNavigation', false, vscode.ConfigurationTarget.Workspace);
    try {
      const defs = await waitFor(
        () => vscode.commands.executeCommand<DefinitionsResult>('contextOracle.findDefinitions', 'makeGreeter').then((r) => r, () => undefined),
        (r) => r?.results[0]?.source === 'index', 'an index answer');
      assert.equal(defs!.results[0]!.path, 'src/greeter.ts');
    } finally {
      await config.update('useEditorNavigation', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor(
      () => vscode.commands.executeCommand<DefinitionsResult>('contextOracle.findDefinitions', 'makeGreeter').then((r) => r, () => undefined),
      (r) => r?.results[0]?.source === 'lsp', 'LSP answers again');
  });
});
