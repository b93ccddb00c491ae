/** A small, strict argument parser: unknown flags are usage errors (exit 2), never silently ignored. */
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
  const out: Parsed = { positionals: [], flags: {} };
  const byShort = new Map(Object.entries(spec).filter(([, s]) => s.short).map(([k, s]) => [s.short!, k]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') { out.positionals.push(...argv.slice(i + 1)); break; }
    if (!arg.startsWith('-') || arg === '-') { out.positionals.push(arg); continue; }
    let name: string;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      inline = eq >= 0 ? arg.slice(eq + 1) : undefined;
    } else {
      const long = byShort.get(arg.slice(1));
      if (!long) throw new UsageError(`unknown option ${arg}`);
      name = long;
    }
    const s = spec[name];
    if (!s) throw new UsageError(`unknown option --${name}`);
    if (s.type === 'boolean') {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      out.flags[name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (s.type === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} needs a non-negative number, got "${value}"`);
      out.flags[name] = n;
    } else if (s.type === 'list') {
      out.flags[name] = [...((out.flags[name] as string[] | undefined) ?? []), value];
    } else out.flags[name] = value;
  }
  return out;
}
