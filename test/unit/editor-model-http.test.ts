/** The editor's language model behind the engine's HttpClient port: requests to its reserved URL become client requests. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { streamChat } from '../../src/core/llm/chat-completions';
import type { HttpClient } from '../../src/core/ports';
import { editorModelHttp, editorModelSettings, EDITOR_MODEL_BASE_URL, LmStreams } from '../../src/server/editor-model-http';
import type { SendClientRequest } from '../../src/server/editor-navigation';
import { sanitizeModelConfig } from '../../src/server/settings';

const noNetwork: HttpClient = { request: () => Promise.reject(new Error('no network in this test')) };

test('a client that sends no parts: its whole answer is read as one event', async () => {
  const asked: unknown[] = [];
  const send = (async (method: string, params: unknown) => {
    asked.push({ method, params });
    return { text: 'Answer from the editor model [1].' };
  }) as SendClientRequest;
  const settings = editorModelSettings('Test Echo Model');
  assert.equal(settings.baseUrl, EDITOR_MODEL_BASE_URL);
  let text = '';
  for await (const delta of streamChat(editorModelHttp(send, noNetwork, new LmStreams()), { baseUrl: settings.baseUrl, model: settings.model, messages: [{ role: 'system', content: 'cite' }, { role: 'user', content: 'why?' }], maxTokens: 300 })) text += delta;
  assert.equal(text, 'Answer from the editor model [1].');
  assert.deepEqual(asked, [{ method: 'contextOracle/lm/chat', params: { model: 'Test Echo Model', messages: [{ role: 'system', content: 'cite' }, { role: 'user', content: 'why?' }], stream: 'lm-1', maxTokens: 300 } }]);
});

test('the editor model\'s parts stream: each is a delta the moment its chunk notification arrives, before the request ends', async () => {
  const streams = new LmStreams();
  let finish!: (r: { text: string }) => void;
  let stream = '';
  const send = (async (_method: string, params: { stream?: string }) => {
    stream = params.stream!;
    return new Promise((r) => { finish = r; });
  }) as SendClientRequest;
  const deltas = streamChat(editorModelHttp(send, noNetwork, streams), { baseUrl: EDITOR_MODEL_BASE_URL, model: 'm', messages: [] })[Symbol.asyncIterator]();
  const first = deltas.next();
  await new Promise((r) => setImmediate(r));
  streams.chunk({ stream, text: 'The answer ' });
  assert.deepEqual(await first, { value: 'The answer ', done: false }, 'the first part arrives while the model still runs');
  streams.chunk({ stream: 'lm-other', text: 'not ours' });
  streams.chunk({ stream, text: 'grows [1].' });
  assert.deepEqual(await deltas.next(), { value: 'grows [1].', done: false });
  finish({ text: 'The answer grows [1].' }); // the whole text again: not repeated
  assert.deepEqual(await deltas.next(), { value: undefined, done: true });
  streams.chunk({ stream, text: 'late' }); // the stream is closed: dropped
});

test('a model that fails after some parts ends the stream with its error', async () => {
  const streams = new LmStreams();
  const send = (async (_method: string, params: { stream?: string }) => {
    streams.chunk({ stream: params.stream, text: 'Half an ' });
    throw new Error('quota exceeded');
  }) as SendClientRequest;
  let text = '';
  await assert.rejects(async () => { for await (const d of streamChat(editorModelHttp(send, noNetwork, streams), { baseUrl: EDITOR_MODEL_BASE_URL, model: 'm', messages: [] })) text += d; }, /quota exceeded/);
  assert.equal(text, 'Half an ');
});

test('a failing editor model is an upstream failure; other URLs go to the real client', async () => {
  const send = (async () => { throw new Error('the language model "x" is not available'); }) as SendClientRequest;
  const http = editorModelHttp(send, noNetwork, new LmStreams());
  await assert.rejects(async () => { for await (const _ of streamChat(http, { baseUrl: EDITOR_MODEL_BASE_URL, model: 'x', messages: [] })) { /* drain */ } }, /not available/);
  await assert.rejects(http.request({ method: 'POST', url: 'https://api.example.com/v1/chat/completions', body: '{}' }), /no network/);
});

test('the editor model name travels in the model config; a blank one is dropped', () => {
  assert.deepEqual(sanitizeModelConfig({ editorModel: ' Test Echo Model ' }).config, { editorModel: 'Test Echo Model' });
  assert.deepEqual(sanitizeModelConfig({ editorModel: '  ' }).config, {});
});
