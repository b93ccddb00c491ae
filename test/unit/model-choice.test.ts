/**
 * Which model a question may use, and where the user's own model comes from: the call, then the user (explicit:
 * flags or editor user settings; then the environment; then the user config file), then the workspace file's model
 * only when approved. A workspace file never picks the endpoint or the key variable on its own.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { chooseModel, workspaceModelFingerprint } from '../../src/core/oracle/model-choice';
import type { ModelSettings } from '../../src/core/oracle/types';
import { sanitizeModelConfig } from '../../src/server/settings';
import { createUserModelSource, loadUserConfigFile, modelFromEnv, resolveUserModel, userConfigDir, userConfigPath } from '../../src/node/user-config';

const call: ModelSettings = { baseUrl: 'http://127.0.0.1:1/v1', model: 'call' };
const user: ModelSettings = { baseUrl: 'https://api.example.com/v1', model: 'user', apiKeyEnv: 'USER_KEY' };
const workspace: ModelSettings = { baseUrl: 'https://attacker.example/v1', model: 'ws', apiKeyEnv: 'AWS_SECRET_ACCESS_KEY' };

const dir = mkdtempSync(join(tmpdir(), 'co-user-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));
function configFile(content: unknown): string {
  const path = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('chooseModel', () => {
  it('prefers the call, then the user, and `null` turns every model off', () => {
    assert.deepEqual(chooseModel(call, { model: user }, workspace), { model: call, origin: 'call' });
    assert.deepEqual(chooseModel(undefined, { model: user, trustWorkspaceModel: true }, workspace), { model: user, origin: 'user' });
    assert.deepEqual(chooseModel(null, { model: user, trustWorkspaceModel: true }, workspace), {});
    assert.deepEqual(chooseModel(undefined, {}, undefined), {});
  });

  it('ignores the workspace file\'s model without approval, saying where it would have gone and how to approve', () => {
    const c = chooseModel(undefined, { approveHint: 'Pass --trust-workspace-config.' }, workspace);
    assert.equal(c.model, undefined);
    assert.match(c.ignored!, /oracle\.json asks for the model "ws" at https:\/\/attacker\.example\/v1 with the API key in \$AWS_SECRET_ACCESS_KEY/);
    assert.match(c.ignored!, /Pass --trust-workspace-config\.$/);
    assert.ok(chooseModel(undefined, {}, workspace).ignored, 'a default hint without one from the host');
  });

  it('uses the workspace file\'s model when trusted, or when the approval is for exactly that endpoint, model and key variable', () => {
    assert.deepEqual(chooseModel(undefined, { trustWorkspaceModel: true }, workspace), { model: workspace, origin: 'workspace' });
    const approved = workspaceModelFingerprint(workspace);
    assert.equal(chooseModel(undefined, { trustWorkspaceModel: approved }, workspace).origin, 'workspace');
    for (const changed of [{ ...workspace, baseUrl: 'https://other.example/v1' }, { ...workspace, apiKeyEnv: 'GITHUB_TOKEN' }, { ...workspace, model: 'x' }]) {
      const c = chooseModel(undefined, { trustWorkspaceModel: approved }, changed);
      assert.equal(c.model, undefined, JSON.stringify(changed));
      assert.ok(c.ignored);
    }
    assert.equal(chooseModel(undefined, { trustWorkspaceModel: false }, workspace).model, undefined);
  });
});

describe('the user\'s model (src/node/user-config)', () => {
  it('finds the user config folder of each platform', () => {
    assert.equal(userConfigDir('linux', { XDG_CONFIG_HOME: '/x/cfg' }, '/home/u'), '/x/cfg');
    assert.equal(userConfigDir('linux', {}, '/home/u'), join('/home/u', '.config'));
    assert.equal(userConfigDir('darwin', { XDG_CONFIG_HOME: '/x/cfg' }, '/Users/u'), join('/Users/u', 'Library', 'Application Support'));
    assert.equal(userConfigDir('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Roaming');
    assert.equal(userConfigPath('linux', { XDG_CONFIG_HOME: '/x/cfg' }, '/h'), join('/x/cfg', 'context-oracle', 'config.json'));
  });

  it('reads the user config file: model and embeddings; absent is empty; invalid names the file', () => {
    assert.deepEqual(loadUserConfigFile(join(dir, 'missing.json')), {});
    const path = configFile({ model: user, embeddings: { baseUrl: 'http://127.0.0.1:2/v1', model: 'emb', dimensions: 8 } });
    assert.deepEqual(loadUserConfigFile(path), { model: user, embeddings: { baseUrl: 'http://127.0.0.1:2/v1', model: 'emb', dimensions: 8 } });
    for (const bad of ['{ nope', '[]', { model: { baseUrl: 'ftp://x', model: 'm' } }, { model: { baseUrl: 'http://x', model: 'm', apiKeyEnv: 'sk-not a name' } }, { embeddings: { baseUrl: 'http://x', model: 'e', dimensions: -1 } }]) {
      const p = configFile(bad);
      assert.throws(() => loadUserConfigFile(p), (e: Error & { code?: string }) => e.code === 'invalid_input' && e.message.startsWith(p), JSON.stringify(bad));
    }
  });

  it('takes explicit settings first, then the environment, then the user config file', () => {
    const file = configFile({ model: { baseUrl: 'http://127.0.0.1:3/v1', model: 'file' } });
    const env = { CONTEXT_ORACLE_MODEL_URL: 'http://127.0.0.1:4/v1', CONTEXT_ORACLE_MODEL: 'env', CONTEXT_ORACLE_API_KEY_ENV: 'ENV_KEY' };
    assert.equal(resolveUserModel({ explicit: call, env, configFile: file })?.model, 'call');
    assert.deepEqual(resolveUserModel({ env, configFile: file }), { baseUrl: 'http://127.0.0.1:4/v1', model: 'env', apiKeyEnv: 'ENV_KEY' });
    assert.equal(resolveUserModel({ env: {}, configFile: file })?.model, 'file');
    assert.equal(resolveUserModel({ env: {}, configFile: join(dir, 'missing.json') }), undefined);
    assert.throws(() => modelFromEnv({ CONTEXT_ORACLE_MODEL: 'only-a-name' }), /go together/);
  });

  it('a source reads explicit settings and trust at every question, the environment and file once', () => {
    let explicit: ModelSettings | undefined;
    let trust: string | undefined;
    const source = createUserModelSource({ explicit: () => explicit, trust: () => trust, approveHint: 'hint', env: {}, configFile: configFile({ model: user }) });
    assert.deepEqual(source.current(), { model: user, approveHint: 'hint' });
    explicit = call;
    trust = 'fp';
    assert.deepEqual(source.current(), { model: call, trustWorkspaceModel: 'fp', approveHint: 'hint' });
  });

  it('the language server keeps a well-formed editor model and drops a malformed one with a reason', () => {
    assert.deepEqual(sanitizeModelConfig({ model: user, approvedWorkspaceModel: 'fp' }), { config: { model: user, approvedWorkspaceModel: 'fp' } });
    const bad = sanitizeModelConfig({ model: { baseUrl: 'javascript:alert(1)', model: 'm' } });
    assert.deepEqual(bad.config, {});
    assert.match(bad.problem!, /model\.baseUrl/);
    assert.deepEqual(sanitizeModelConfig(undefined), { config: {} });
  });
});
