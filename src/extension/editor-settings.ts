/**
 * Settings that only the editor host reads (the engine's own settings are SETTINGS in src/core/config.ts).
 * package.json `contributes.configuration` is the projection of SETTINGS plus these; a unit test checks they agree.
 * No 'vscode' import.
 */
import type { SettingSpec } from '../core';

export const EDITOR_SETTINGS: readonly SettingSpec[] = [
  { key: 'useEditorNavigation', type: 'boolean', default: true, description: "Answer definitions and references with the editor's own language servers (exact), falling back to the index." },
  { key: 'copyContext.maxTokens', type: 'number', default: 8000, description: 'Token budget of "Copy Context for Agent".' },
  { key: 'mcpHttp.enabled', type: 'boolean', default: false, description: "Start the in-editor MCP endpoint (127.0.0.1, bearer token) when the workspace opens, so outside agents can use the editor's definitions and references. \"Show MCP Endpoint Configuration\" starts it on demand." },
  { key: 'mcpHttp.port', type: 'number', default: 0, description: 'Port of the in-editor MCP endpoint on 127.0.0.1; 0 picks a free port.' },
  // The model endpoint is the user's to choose: application scope, so a workspace's .vscode/settings.json cannot set it
  // (the extension also reads only the user-level value).
  { key: 'model.baseUrl', type: 'string', default: '', scope: 'application', description: 'OpenAI-compatible endpoint the Oracle may send questions and code excerpts to for a synthesised answer, e.g. https://api.openai.com/v1 (user settings only). Empty: answers quote the evidence.' },
  { key: 'model.name', type: 'string', default: '', scope: 'application', description: 'Model name at contextOracle.model.baseUrl, e.g. gpt-4o-mini (user settings only).' },
  { key: 'panel.model', type: 'string', default: '', scope: 'application', description: "The editor's language model (e.g. a GitHub Copilot model) the Oracle panel sends questions and the evidence to, by name; set it with \"Select Model for the Panel\" (user settings only). Empty: the panel answers from the evidence without a model, unless contextOracle.model.* names an endpoint." },
  { key: 'model.apiKeyEnv', type: 'string', default: '', scope: 'application', description: 'Name of the environment variable holding the API key for contextOracle.model.baseUrl (never the key itself; user settings only).' },
];
