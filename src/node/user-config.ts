/**
 * The user's own configuration of model endpoints, from user-level sources only: the environment and the user
 * config file `<configdir>/context-oracle/config.json` (XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/Application
 * Support on macOS, %APPDATA% on Windows):
 *   { "model": { "baseUrl": "https://api.openai.com/v1", "model": "gpt-4o-mini", "apiKeyEnv": "OPENAI_API_KEY" },
 *     "embeddings": { "baseUrl": "…", "model": "text-embedding-3-small", "apiKeyEnv": "OPENAI_API_KEY" } }
 * Never from the workspace: a repository must not choose where the user's key and code are sent.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  type EmbeddingSettings, EngineError, type ModelSettings, type UserModelConfig, type UserModelSource, validateModel,
} from '../core';

export interface UserConfigFile {
  model?: ModelSettings;
  embeddings?: EmbeddingSettings;
}

/** The platform's folder for user configuration. */
export function userConfigDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  if (platform === 'win32') return env.APPDATA || join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME || join(home, '.config');
}

export function userConfigPath(platform?: NodeJS.Platform, env?: NodeJS.ProcessEnv, home?: string): string {
  return join(userConfigDir(platform, env, home), 'context-oracle', 'config.json');
}

/** The user config file; absent → `{}`; unreadable or invalid → EngineError `invalid_input` naming the file. */
export function loadUserConfigFile(path: string): UserConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new EngineError('invalid_input', `cannot read ${path}: ${(e as Error).message}`);
  }
  const fail = (message: string): never => { throw new EngineError('invalid_input', `${path}: ${message}`); };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return fail(`not valid JSON: ${(e as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('expected a JSON object');
  const o = raw as Record<string, unknown>;
  const out: UserConfigFile = {};
  if (o.model !== undefined && o.model !== null) out.model = validateModel(o.model, fail);
  if (o.embeddings !== undefined && o.embeddings !== null) {
    const e = validateModel(o.embeddings, (m) => fail(m.replace(/"model\./g, '"embeddings.').replace('"model"', '"embeddings"')));
    const dims = (o.embeddings as Record<string, unknown>).dimensions;
    if (dims !== undefined && (typeof dims !== 'number' || !Number.isInteger(dims) || dims <= 0)) fail('"embeddings.dimensions" must be a positive integer');
    out.embeddings = { baseUrl: e.baseUrl, model: e.model, ...(e.apiKeyEnv ? { apiKeyEnv: e.apiKeyEnv } : {}), ...(dims !== undefined ? { dimensions: dims as number } : {}) };
  }
  return out;
}

/** CONTEXT_ORACLE_MODEL_URL + CONTEXT_ORACLE_MODEL (+ CONTEXT_ORACLE_API_KEY_ENV); both or neither. */
export function modelFromEnv(env: NodeJS.ProcessEnv): ModelSettings | undefined {
  const baseUrl = env.CONTEXT_ORACLE_MODEL_URL;
  const model = env.CONTEXT_ORACLE_MODEL;
  if (!baseUrl && !model) return undefined;
  if (!baseUrl || !model) throw new EngineError('invalid_input', 'CONTEXT_ORACLE_MODEL_URL and CONTEXT_ORACLE_MODEL go together');
  return validateModel({ baseUrl, model, ...(env.CONTEXT_ORACLE_API_KEY_ENV ? { apiKeyEnv: env.CONTEXT_ORACLE_API_KEY_ENV } : {}) });
}

export interface UserModelSources {
  /** From the host's own user-level input: CLI flags, or the editor's user (not workspace) settings. */
  explicit?: ModelSettings;
  env: NodeJS.ProcessEnv;
  /** Path of the user config file. */
  configFile: string;
}

/** The user's model: explicit (flags, editor user settings), else the environment, else the user config file. */
export function resolveUserModel(sources: UserModelSources): ModelSettings | undefined {
  return sources.explicit ?? modelFromEnv(sources.env) ?? loadUserConfigFile(sources.configFile).model;
}

/**
 * A UserModelSource for a Node host. `explicit` and `trust` are read at every question (an editor may change them);
 * the environment and the file are read once, on the first question.
 */
export function createUserModelSource(options: {
  explicit?: () => ModelSettings | undefined;
  trust?: () => boolean | string | undefined;
  approveHint: string;
  env?: NodeJS.ProcessEnv;
  configFile?: string;
}): UserModelSource {
  let fallback: { model?: ModelSettings } | undefined;
  return {
    current(): UserModelConfig {
      const explicit = options.explicit?.();
      if (!explicit && !fallback) {
        const model = resolveUserModel({ env: options.env ?? process.env, configFile: options.configFile ?? userConfigPath() });
        fallback = model ? { model } : {};
      }
      const model = explicit ?? fallback?.model;
      const trust = options.trust?.();
      return { ...(model ? { model } : {}), ...(trust !== undefined ? { trustWorkspaceModel: trust } : {}), approveHint: options.approveHint };
    },
  };
}
