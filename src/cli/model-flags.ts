/**
 * The model flags of `ask` and `mcp`, and the CLI's UserModelSource: the endpoint, model and key variable come from
 * these flags, else CONTEXT_ORACLE_MODEL_URL / CONTEXT_ORACLE_MODEL / CONTEXT_ORACLE_API_KEY_ENV, else the user
 * config file. A model in the workspace's `.context-oracle/oracle.json` is used only with --trust-workspace-config.
 */
import { type ModelSettings, type UserModelSource, validateModel } from '../core';
import { createUserModelSource, userConfigPath } from '../node/user-config';
import { UsageError, type FlagSpec } from './args';

export const MODEL_FLAGS: Record<string, FlagSpec> = {
  model: { type: 'string' },
  'model-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  'no-model': { type: 'boolean' },
  'trust-workspace-config': { type: 'boolean' },
};

export const MODEL_USAGE = '[--model NAME --model-url URL [--api-key-env VAR] | --no-model] [--trust-workspace-config]';

/** The model the flags name; `null` for --no-model; undefined when they name none. */
export function modelFromFlags(flags: Record<string, unknown>): ModelSettings | null | undefined {
  if (flags['no-model']) return null;
  if (flags.model === undefined && flags['model-url'] === undefined) {
    if (flags['api-key-env'] !== undefined) throw new UsageError('--api-key-env goes with --model and --model-url');
    return undefined;
  }
  if (flags.model === undefined || flags['model-url'] === undefined) throw new UsageError('--model and --model-url go together');
  try {
    return validateModel({
      baseUrl: flags['model-url'], model: flags.model,
      ...(flags['api-key-env'] !== undefined ? { apiKeyEnv: flags['api-key-env'] } : {}),
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export function cliApproveHint(command: string): string {
  return `To use it, run ${command === 'mcp' ? 'the MCP server (context-oracle mcp)' : `context-oracle ${command}`} with --trust-workspace-config, ` +
    `or name your own model with --model and --model-url, the CONTEXT_ORACLE_MODEL_URL and CONTEXT_ORACLE_MODEL variables, ` +
    `or ${userConfigPath()}.`;
}

/** The CLI's user model: the flags (when the command has them), else the environment, else the user config file. */
export function cliUserModel(command: string, flags: Record<string, unknown>): UserModelSource {
  const approveHint = cliApproveHint(command);
  if (flags['no-model']) return { current: () => ({ approveHint }) };
  const flagged = modelFromFlags(flags) ?? undefined;
  const trust = flags['trust-workspace-config'] === true;
  return createUserModelSource({
    ...(flagged ? { explicit: () => flagged } : {}),
    ...(trust ? { trust: () => true } : {}),
    approveHint,
  });
}
