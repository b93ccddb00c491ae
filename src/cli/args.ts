/**
 * The CLI's argument parser: node:util's parseArgs in strict mode (unknown flags are usage errors, exit 2, never
 * silently ignored), plus the two value types it lacks: non-negative numbers and repeatable lists.
 */
import { parseArgs as parseNodeArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface FlagSpec {
  type: 'boolean' | 'string' | 'number' | 'list';
  short?: string;
}

export interface Parsed {
  positionals: string[];
  flags: Record<string, string | number | boolean | string[]>;
}

export function parseArgs(argv: string[], spec: Record<string, FlagSpec>): Parsed {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, s] of Object.entries(spec)) {
    options[name] = {
      type: s.type === 'boolean' ? 'boolean' : 'string',
      ...(s.type === 'list' ? { multiple: true } : {}),
      ...(s.short ? { short: s.short } : {}),
    };
  }
  let parsed;
  try {
    parsed = parseNodeArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (e) {
    throw new UsageError(usageMessage(e as Error & { code?: string }));
  }
  const flags: Parsed['flags'] = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    if (value === undefined) continue;
    if (spec[name]?.type === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} needs a non-negative number, got "${String(value)}"`);
      flags[name] = n;
    } else flags[name] = value as string | boolean | string[];
  }
  return { positionals: parsed.positionals, flags };
}

/** node:util's messages say more than a usage line needs; keep the CLI's short ones. */
function usageMessage(e: Error & { code?: string }): string {
  const option = /'(-[^' ]+)/.exec(e.message)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option ${option}`;
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    if (/argument missing/.test(e.message)) return `${option} needs a value`;
    if (/does not take an argument/.test(e.message)) return `${option} takes no value`;
  }
  return e.message;
}
