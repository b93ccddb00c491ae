// @oracle and the panel with and without the editor's language models (issue 19, item 11). The suite's second
// extension (test/integration/lm-provider) registers a model with vscode.lm.registerLanguageModelChatProvider when
// asked: the stand-in for a Copilot model. Without it the editor has none, as for a user without Copilot.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AskResult } from '../../../src/core/oracle/types';
import { requestUi, waitFor, waitForStatus } from './helpers';

const TEST_MODEL = 'Test Echo Model';
const panelModel = (): string | undefined => vscode.workspace.getConfiguration('contextOracle').inspect<string>('panel.model')?.globalValue;

suite('Language models: @oracle needs one, the panel does not; the panel can use the one picked', () => {
  suiteSetup(async () => {
    await waitForStatus((s) => s.state === 'ready' && s.exists, 'an index');
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('contextOracle.selectPanelModel', '');
    await vscode.commands.executeCommand('contextOracleTest.unregisterModel');
  });

  test('with no language model, Select Model for the Panel says @oracle cannot answer and the panel answers without one', async () => {
    assert.deepEqual((await vscode.lm.selectChatModels()).map((m) => m.name), [], 'no model in this editor yet');
    const chosen = await vscode.commands.executeCommand<string | undefined>('contextOracle.selectPanelModel');
    assert.equal(chosen, undefined);
    const seen = await requestUi<{ message: string }>('notification', { text: 'No language model is available', name: 'no-language-model' });
    if (seen) {
      assert.match(seen.message, /@oracle in Chat cannot answer/);
      assert.match(seen.message, /Language model unavailable/);
      assert.match(seen.message, /The Oracle panel answers without a model/);
    }
    const r = await vscode.commands.executeCommand<AskResult>('contextOracle.ask', 'What does makeGreeter return?');
    assert.notEqual(r.mode, 'model', 'answered without a model');
    assert.ok(r.citations.length > 0);
    const shown = await requestUi<{ model: string }>('panel-last-answer', { name: 'panel-no-model' });
    if (shown) assert.equal(shown.model, 'No model — answers from the evidence', 'the panel header says so');
  });

  test('when a model is available the user picks it for the panel, the panel answers with it and names it', async () => {
    await vscode.commands.executeCommand('contextOracleTest.registerModel');
    await waitFor(() => vscode.lm.selectChatModels(), (m) => m.some((x) => x.name === TEST_MODEL), 'the test model registered', 15_000);
    const picking = Promise.resolve(vscode.commands.executeCommand<string | undefined>('contextOracle.selectPanelModel'));
    const pick = await requestUi<{ title: string; initial: string[] }>('quick-pick', { pick: TEST_MODEL, name: 'panel-model-pick' });
    const chosen = await picking;
    if (!pick) await vscode.commands.executeCommand('contextOracle.selectPanelModel', TEST_MODEL); // no browser: choose by name
    else {
      assert.equal(pick.title, 'Model for the Oracle panel');
      assert.ok(pick.initial.some((l) => l.includes('No model')), pick.initial.join(' | '));
      assert.equal(chosen, TEST_MODEL);
    }
    assert.equal(panelModel(), TEST_MODEL);
    const r = await waitFor(
      () => vscode.commands.executeCommand<AskResult>('contextOracle.ask', 'What does makeGreeter return?'),
      (x) => x.mode === 'model', 'an answer from the chosen model', 20_000);
    assert.equal(r.model, TEST_MODEL);
    assert.match(r.answer, /test echo model read \d+ messages/);
    // Asked in the panel: the model's words arrive as it writes them, so the answer is seen growing, not whole at once.
    const asked = await requestUi<{ answerLengths: number[]; answer: string }>('panel-ask', { question: 'What does makeGreeter return?' });
    if (asked) {
      assert.match(asked.answer, /test echo model read \d+ messages/);
      const growing = asked.answerLengths.filter((n) => n > 0);
      assert.ok(growing.length >= 5, `the answer grew in steps as the model streamed: ${JSON.stringify(asked.answerLengths)}`);
    }
    const shown = await requestUi<{ phase: string; model: string }>('panel-last-answer', { name: 'panel-answered-by-model' });
    if (shown) {
      assert.match(shown.phase, new RegExp(`^Answered by ${TEST_MODEL}`));
      assert.equal(shown.model, `Model: ${TEST_MODEL} (editor)`, 'the panel header names the chosen model');
    }
  });
});
