/** The editor's language model behind the engine's HttpClient port: requests to its reserved URL become client requests. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { streamChat } from '../../src/core/llm/chat-completions';
import type { HttpClient } from '../../src/core/ports';
import { editorModelHttp, editorModelSettings, EDITOR_MODEL_BASE_URL } from '../../src/server/editor-model-http';
import type { SendClientRequest } from '../../src/server/editor-navigation';
import { sanitizeModelConfig } from '../../src/server/settings';

const noNetwork: HttpClient = { request: () => Promise.reject(new Error('no network in this test')) };

test('the oracle\'s chat request to the editor model is run by the client and read as one JSON answer', async () => {
  const asked: unknown[] = [];
  const send = (async (method: string, params: unknown) => {
    asked.push({ method, params });
    return { text: 'Answer from the editor model [1].' };
  }) as SendClientRequest;
  const settings = editorModelSettings('Test Echo Model');
  assert.equal(settings.baseUrl, EDITOR_MODEL_BASE_URL);
  let text = '';
  for await (const delta of streamChat(editorModelHttp(send, noNetwork), { baseUrl: settings.baseUrl, model: settings.model, messages: [{ role: 'system', content: 'cite' }, { role: 'user', content: 'why?' }], maxTokens: 300 })) text += delta;
  assert.equal(text, 'Answer from the editor model [1].');
  assert.deepEqual(asked, [{ method: 'contextOracle/lm/chat', params: { model: 'Test Echo Model', messages: [{ role: 'system', content: 'cite' }, { role: 'user', content: 'why?' }], maxTokens: 300 } }]);
});

test('a failing editor model is an upstream failure; other URLs go to the real client', async () => {
  const send = (async () => { throw new Error('the language model "x" is not available'); }) as SendClientRequest;
  const http = editorModelHttp(send, noNetwork);
  await assert.rejects(async () => { for await (const _ of streamChat(http, { baseUrl: EDITOR_MODEL_BASE_URL, model: 'x', messages: [] })) { /* drain */ } }, /not available/);
  await assert.rejects(http.request({ method: 'POST', url: 'https://api.example.com/v1/chat/completions', body: '{}' }), /no network/);
});

test('the editor model name travels in the model config; a blank one is dropped', () => {
  assert.deepEqual(sanitizeModelConfig({ editorModel: ' Test Echo Model ' }).config, { editorModel: 'Test Echo Model' });
  assert.deepEqual(sanitizeModelConfig({ editorModel: '  ' }).config, {});
});
