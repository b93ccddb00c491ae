import type { Engine } from '../../core';
import type { FlagSpec } from '../args';

export interface CommandContext {
  engine: Engine;
  positionals: string[];
  flags: Record<string, unknown>;
  /** Writes one block of output to stdout. */
  out(text: string): void;
}

/** One CLI command. Each lives in its own file under src/cli/commands and is listed in commands/index.ts. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  flags: Record<string, FlagSpec>;
  /** Reads the index: a missing or damaged one is built first (auto-index.ts) instead of failing. */
  needsIndex?: boolean;
  /** Returns the exit code: 0 ok, 1 error (or a finding such as lint violations). Usage errors throw UsageError. */
  run(ctx: CommandContext): Promise<number>;
}
