/**
 * Before the window reload (runs last in phase 1; see index.ts): a question asked in the panel, its answer shown.
 * window-reload-after.test.ts checks both are there again after the reload.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AskResult } from '../../../src/core/oracle/types';
import { requestUi, waitForStatus } from './helpers';
import { reloadRecord } from './reload-phase';

suite('Window reload (before)', () => {
  test('a conversation in the panel, about to be reloaded', async () => {
    const record = reloadRecord();
    await waitForStatus((s) => s.state === 'ready' && s.exists, 'an index');
    await vscode.commands.executeCommand('contextOracle.newConversation');
    const question = 'how does formatBanner frame the greeting?';
    const r = await vscode.commands.executeCommand<AskResult | undefined>('contextOracle.ask', question);
    assert.ok(r && r.answer.length > 20);
    const side = await requestUi<{ questions: string[] }>('sidebar', { name: 'reload-before' });
    if (!side || !record) return; // no harness, no reload
    assert.deepEqual(side.questions, [question]);
    record.expect({ question, answerStart: r.answer.slice(0, 40) });
  });
});
