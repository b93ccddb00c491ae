/**
 * Oracle settings of a workspace, in `.context-oracle/oracle.json` (optional; every field optional):
 *   { "docsFolders": ["docs", "notes"],
 *     "model": { "baseUrl": "https://api.openai.com/v1", "model": "gpt-4o-mini", "apiKeyEnv": "OPENAI_API_KEY" },
 *     "author": "user", "sessionLogs": "workspace" }
 * The API key itself never sits in a file: `apiKeyEnv` names the environment variable that holds it.
 * `model` is only a suggestion: the repository is not the user, so it is used only after the user approves it and
 * never over the user's own model (see model-choice.ts). Per-call AskOptions override these.
 */
import { EngineError } from '../errors';
import { decodeText } from '../index/content';
import { joinPath } from '../index/paths';
import type { SessionLogPlace } from '../config';
import type { FileSystem } from '../ports';
import type { ModelSettings } from './types';

export const SETTINGS_FILE = '.context-oracle/oracle.json';

export interface OracleSettings {
  docsFolders: string[];
  model?: ModelSettings;
  author?: string;
  /** `"workspace"`: the oracle's session logs go to `.context-oracle/threads/`, to be committed. */
  sessionLogs?: SessionLogPlace;
}

export async function loadOracleSettings(root: string, fs: FileSystem): Promise<OracleSettings> {
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(joinPath(root, SETTINGS_FILE));
  } catch {
    return { docsFolders: [] };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(decodeText(bytes).text);
  } catch (e) {
    throw new EngineError('invalid_input', `${SETTINGS_FILE} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`, { file: SETTINGS_FILE });
  }
  return parseSettings(raw);
}

function fail(message: string): never {
  throw new EngineError('invalid_input', `${SETTINGS_FILE}: ${message}`, { file: SETTINGS_FILE });
}

export function parseSettings(raw: unknown): OracleSettings {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('expected a JSON object');
  const o = raw as Record<string, unknown>;
  const out: OracleSettings = { docsFolders: [] };
  if (o.docsFolders !== undefined) {
    if (!Array.isArray(o.docsFolders) || o.docsFolders.some((f) => typeof f !== 'string')) fail('"docsFolders" must be a list of folder paths');
    out.docsFolders = o.docsFolders as string[];
  }
  if (o.author !== undefined) {
    if (typeof o.author !== 'string' || !o.author.trim()) fail('"author" must be a non-empty string');
    out.author = o.author;
  }
  if (o.sessionLogs !== undefined) {
    if (o.sessionLogs !== 'workspace' && o.sessionLogs !== 'cache') fail('"sessionLogs" must be "workspace" or "cache"');
    out.sessionLogs = o.sessionLogs;
  }
  if (o.model !== undefined && o.model !== null) out.model = validateModel(o.model, fail);
  return out;
}

/** Checks model settings from a file, a flag or an MCP call; `report` throws with the problem. */
export function validateModel(value: unknown, report: (message: string) => never = (m) => { throw new EngineError('invalid_input', m); }): ModelSettings {
  if (typeof value !== 'object' || value === null) report('"model" must be an object with baseUrl and model');
  const m = value as Record<string, unknown>;
  if (typeof m.baseUrl !== 'string' || !/^https?:\/\/\S+$/.test(m.baseUrl)) report('"model.baseUrl" must be an http(s) URL');
  if (typeof m.model !== 'string' || !m.model.trim()) report('"model.model" must name the model');
  if (m.apiKeyEnv !== undefined && (typeof m.apiKeyEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(m.apiKeyEnv))) {
    report('"model.apiKeyEnv" must be the name of an environment variable (not the key itself)');
  }
  for (const k of ['maxOutputTokens', 'temperature'] as const) {
    if (m[k] !== undefined && (typeof m[k] !== 'number' || !Number.isFinite(m[k]) || (m[k] as number) < 0)) report(`"model.${k}" must be a non-negative number`);
  }
  return {
    baseUrl: m.baseUrl as string,
    model: m.model as string,
    ...(m.apiKeyEnv ? { apiKeyEnv: m.apiKeyEnv as string } : {}),
    ...(m.maxOutputTokens !== undefined ? { maxOutputTokens: m.maxOutputTokens as number } : {}),
    ...(m.temperature !== undefined ? { temperature: m.temperature as number } : {}),
  };
}
