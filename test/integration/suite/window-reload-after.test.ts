/**
 * After the window reload (phase 2; see index.ts): the conversation is in the panel again, from the webview's saved
 * state or, when VS Code kept none, from the conversation the engine stored; and the next question continues it.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ContextOracleApi } from '../../../src/extension/extension';
import { EXTENSION_ID, requestUi, waitFor, waitForStatus } from './helpers';
import { reloadRecord } from './reload-phase';

const api = (): ContextOracleApi => vscode.extensions.getExtension<ContextOracleApi>(EXTENSION_ID)!.exports;

suite('Window reload (after)', () => {
  test('the panel shows the conversation from before the reload', async () => {
    const expected = reloadRecord()?.expected();
    assert.ok(expected, 'phase 1 wrote what it expects');
    await waitForStatus((s) => s.state === 'ready', 'the server after the reload');
    await requestUi('sidebar', {}); // opens the panel if the reload left it closed
    const state = await waitFor(() => api().panelState(), (s) => s.ready && !!s.restore, 'the panel to restore');
    console.log(`after the reload: ${state.restore!.restored ? 'the webview kept its cards' : `the stored conversation gave ${state.restore!.historySent} exchanges`}`);
    const side = await waitFor(() => requestUi<{ questions: string[]; answers: string[] }>('sidebar', { name: 'reload-after' }), (s) => !!s?.questions.length, 'the restored cards', 15_000);
    assert.ok(side!.questions.includes(expected.question), `questions after the reload: ${JSON.stringify(side!.questions)}`);
    assert.ok(side!.answers.some((a) => a.trim().length > 20), `answers: ${side!.answers.join(' | ').slice(0, 400)}`);
  });

  test('"Open in editor" on an answer card restored from the webview state opens it in the editor tab', async () => {
    const state = api().panelState();
    // This window's reload keeps the webview state (the panel registers a serializer); the other path, cards rebuilt
    // from the stored conversation, carries no such action and is covered by the unit tests. Fail, never skip.
    assert.ok(state.restore?.restored, 'VS Code kept the webview state across the reload');
    const opened = await requestUi<{ before: number; after: number }>('open-in-editor', { testid: 'ask-card' });
    assert.ok(opened, 'the harness drives the browser');
    assert.equal(opened.after, opened.before + 1, 'the restored card is in the editor tab');
  });
});
