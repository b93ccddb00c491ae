/** package.json is a projection of the code: settings, language model tools and chat commands agree with it. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SETTINGS } from '../../src/core/config';
import { PARTICIPANT_COMMANDS, TOOL_NAMES } from '../../src/extension/chat/tool-names';
import { EDITOR_SETTINGS } from '../../src/extension/editor-settings';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const contributes = manifest.contributes;

test('contributes.configuration is exactly SETTINGS plus the editor settings, with the same types, defaults and descriptions', () => {
  const props = contributes.configuration.properties as Record<string, { type: string; default: unknown; description: string; scope?: string }>;
  const specs = [...SETTINGS, ...EDITOR_SETTINGS];
  assert.deepEqual(Object.keys(props).sort(), specs.map((s) => `contextOracle.${s.key}`).sort());
  for (const s of specs) {
    const p = props[`contextOracle.${s.key}`]!;
    assert.equal(p.type, s.type, s.key);
    assert.deepEqual(p.default, s.default, s.key);
    assert.equal(p.description, s.description, s.key);
    assert.equal(p.scope, s.scope, s.key);
  }
  // A workspace must not choose where the user's key and code are sent.
  for (const key of ['model.baseUrl', 'model.name', 'model.apiKeyEnv']) assert.equal(props[`contextOracle.${key}`]?.scope, 'application', key);
});

test('languageModelTools declares exactly the tools the extension registers, each with a schema', () => {
  const tools = contributes.languageModelTools as Array<{ name: string; inputSchema: { type: string; required: string[]; properties: Record<string, unknown> }; modelDescription: string }>;
  assert.deepEqual(tools.map((t) => t.name), [...TOOL_NAMES]);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object');
    for (const r of t.inputSchema.required) assert.ok(r in t.inputSchema.properties, `${t.name} requires undeclared ${r}`);
    assert.ok(t.modelDescription.length > 40, `${t.name} needs a model description`);
  }
});

test('the @oracle participant declares the slash commands the handler answers', () => {
  const p = contributes.chatParticipants[0];
  assert.equal(p.name, 'oracle');
  assert.deepEqual(p.commands.map((c: { name: string }) => c.name), [...PARTICIPANT_COMMANDS]);
});

test('the panel view, its container and the MCP provider are contributed; every command has a category', () => {
  assert.equal(contributes.views.contextOracle[0].type, 'webview');
  assert.equal(contributes.views.contextOracle[0].id, 'contextOracle.panel');
  assert.equal(contributes.viewsContainers.activitybar[0].id, 'contextOracle');
  assert.deepEqual(contributes.mcpServerDefinitionProviders.map((p: { id: string }) => p.id), ['contextOracle.mcp']);
  for (const c of contributes.commands) assert.equal(c.category, 'Context Oracle', c.command);
  const walkthrough = contributes.walkthroughs[0];
  for (const step of walkthrough.steps) assert.ok(step.media.markdown, step.id);
});
