/**
 * Read commands (search, def, context, ask, …) never fail because the index cache is missing or damaged: as the MCP
 * server does, the CLI builds it first, once (a progress bar on a terminal), and says so in one line on stderr;
 * stdout carries only the answer, so --json output stays clean. An index copied from another root is caught up first.
 */
import type { Engine, Logger } from '../core';
import { createProgressReporter } from './progress';

/** Why the index must be built before answering, or undefined when it can be read. */
async function missingOrDamaged(engine: Engine): Promise<string | undefined> {
  const state = await engine.indexState();
  return state === 'ready' ? undefined : state === 'missing' ? 'no index yet' : 'the index could not be used';
}

/**
 * Builds the index when a read command finds none or a damaged one. `quiet` turns the engine's own warning about
 * the damaged file (its reason and where it was moved) into this function's one line.
 */
export async function ensureIndex(engine: Engine, write: (line: string) => void, quiet: { muted: boolean }): Promise<void> {
  const why = await missingOrDamaged(engine);
  if (!why) {
    // A shared index copied from another root (`--db FILE`) answers only after a catch-up with the files here.
    const foreign = await engine.foreignRoot();
    if (foreign === undefined) return;
    const outcome = await engine.index();
    write(`context-oracle: the index was built under ${foreign}; caught up with the files here (${outcome.parsed} re-indexed, ${outcome.removed} removed, ${(outcome.durationMs / 1000).toFixed(1)} s) before answering`);
    return;
  }
  const progress = createProgressReporter();
  quiet.muted = true;
  let outcome;
  try {
    outcome = await engine.index({ onProgress: (p) => progress.update(p) });
  } finally {
    quiet.muted = false;
    progress.end();
  }
  const recovered = outcome.recovered;
  const detail = recovered ? ` (${recovered.reason}${recovered.movedTo ? `; moved to ${recovered.movedTo}` : ''})` : '';
  write(`context-oracle: ${why}${detail}; built it (${outcome.filesSeen} files, ${(outcome.durationMs / 1000).toFixed(1)} s) before answering`);
}

/** A logger whose warnings drop to debug while `quiet.muted` (the caller reports the event itself). */
export function mutableLogger(base: Logger, quiet: { muted: boolean }): Logger {
  return { ...base, warn: (m) => (quiet.muted ? base.debug(m) : base.warn(m)) };
}
