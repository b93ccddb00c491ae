/**
 * Before the window reload (runs last in phase 1; see index.ts): a question asked in the panel, its answer shown.
 * window-reload-after.test.ts checks both are there again after the reload.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AskResult } from '../../../src/core/oracle/types';
import type { ContextOracleApi } from '../../../src/extension/extension';
import { EXTENSION_ID, requestUi, waitForStatus } from './helpers';
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
    // The README's picture: the conversation in the sidebar, the graph in the editor tab, dark theme.
    const config = vscode.workspace.getConfiguration('workbench');
    const theme = config.inspect<string>('colorTheme')?.globalValue;
    await config.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('contextOracle.showGraph', 'greeting');
    const graphs = (vscode.extensions.getExtension<ContextOracleApi>(EXTENSION_ID)!.exports).panelState().posted.filter((t) => t === 'graph').length;
    await requestUi('graph', { minCards: graphs, name: 'readme-panel' });
    await config.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
    record.expect({ question, answerStart: r.answer.slice(0, 40) });
  });
});
