/**
 * The optional vector path against a real HTTP server on 127.0.0.1 speaking the OpenAI embeddings protocol:
 * off by default, finds code that shares no word with the question when on, embeds each chunk once (content-hash
 * cache, persisted in the state store), sends the key from the named variable, and falls back when the endpoint fails.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { EmbeddingSettings } from '../../src/core/context/types';
import { cosine, decodeVector, encodeVector, quantise } from '../../src/core/embeddings/quantize';
import type { Engine } from '../../src/core/engine';
import { startFakeEmbeddings, type FakeEmbeddings } from '../fixtures/context/fake-embeddings';
import { removeWorkspace, testEngine, cacheDirOf } from '../helpers/workspace';
import { copyShop } from '../fixtures/context/shop';

const KEY_ENV = 'CO_TEST_EMBEDDINGS_KEY';
let root: string;
let engine: Engine;
let server: FakeEmbeddings;
let settings: EmbeddingSettings;

before(async () => {
  server = await startFakeEmbeddings({ apiKey: 'sk-test-embed' });
  process.env[KEY_ENV] = 'sk-test-embed';
  settings = { baseUrl: server.baseUrl, model: 'fake-concepts-1', apiKeyEnv: KEY_ENV, batchSize: 4 };
  root = copyShop();
  engine = testEngine(root);
  await engine.index();
});
after(async () => {
  await engine.dispose();
  await server.close();
  removeWorkspace(root);
  delete process.env[KEY_ENV];
});

// No word of this question occurs in the fixture; only the concept model links "erase"/"person" to delete_user.
const SYNONYMS_ONLY = 'how is a person erased?';

describe('vectors off (default)', () => {
  it('never calls the endpoint and answers honestly empty when no word matches', async () => {
    const r = await engine.getContextForQuestion(SYNONYMS_ONLY);
    assert.equal(r.stats.vectors, 'off');
    assert.ok(r.empty);
    assert.equal(server.requests, 0);
  });
});

describe('vectors on', () => {
  it('finds the code by meaning and reports the similarity signal', async () => {
    const r = await engine.getContextForQuestion(SYNONYMS_ONLY, { embeddings: settings });
    assert.equal(r.stats.vectors, 'on');
    assert.equal(r.empty, undefined);
    assert.equal(r.files[0]?.path, 'src/users/user_service.py');
    assert.ok(r.files[0]!.signals.vector > 0);
    assert.ok(r.nodes.some((n) => n.symbol === 'UserService.delete_user'), r.text);
  });

  it('embeds every chunk once: later questions only embed the question', async () => {
    const before = server.inputs;
    await engine.getContextForQuestion('where do we bill the card?', { embeddings: settings });
    assert.equal(server.inputs - before, 1);
    const state = cacheDirOf(root);
    assert.ok(existsSync(state) && readdirSync(state).some((f) => f.startsWith('embeddings-')), 'vectors are persisted in the cache folder, next to the index');
  });

  it('starts warm in a new engine from the persisted vectors', async () => {
    const fresh = testEngine(root);
    try {
      const before = server.inputs;
      const r = await fresh.getContextForQuestion(SYNONYMS_ONLY, { embeddings: settings });
      assert.equal(server.inputs - before, 1, 'only the question is embedded');
      assert.equal(r.files[0]?.path, 'src/users/user_service.py');
    } finally {
      await fresh.dispose();
    }
  });

  it('falls back to the other paths, saying why, when the endpoint fails', async () => {
    server.failWith = 503;
    try {
      const r = await engine.getContextForQuestion('Where is applyDiscount defined?', { embeddings: settings });
      assert.match(r.stats.vectors, /^unavailable: .*503.*overloaded/);
      assert.equal(r.files[0]?.path, 'src/pricing/discount.ts');
    } finally {
      delete server.failWith;
    }
  });

  it('reports a missing key variable instead of calling without it', async () => {
    const r = await engine.getContextForQuestion('cart total', { embeddings: { ...settings, apiKeyEnv: 'CO_TEST_UNSET_KEY', model: 'other-model' } });
    assert.match(r.stats.vectors, /CO_TEST_UNSET_KEY is not set/);
  });
});

describe('quantised vectors', () => {
  it('keep cosine similarity within 2 % and survive the text encoding', () => {
    const a = Float32Array.from([0.3, -1.2, 4.5, 0.01, 2.2, -0.7]);
    const b = Float32Array.from([0.25, -1.0, 4.0, 0.5, 2.0, 0.3]);
    const dot = a.reduce((s, x, i) => s + x * b[i]!, 0);
    const exact = dot / (Math.hypot(...a) * Math.hypot(...b));
    const qa = quantise(a);
    assert.ok(Math.abs(cosine(qa, quantise(b)) - exact) < 0.02);
    const back = decodeVector(encodeVector(qa))!;
    assert.deepEqual([...back.values], [...qa.values]);
    assert.equal(back.scale, qa.scale);
    assert.equal(decodeVector('not base64!:x'), undefined);
  });
});
