/**
 * The files through which the two phases of the window-reload test talk (see index.ts): in the harness's signal
 * folder, which outlives the reload. Only under the code-server harness, which sets CONTEXT_ORACLE_IT_SIGNAL_DIR.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const RELOAD_FILE = 'window-reload.test.js';
export const AFTER_RELOAD_FILE = 'window-reload-after.test.js';

export interface PhaseOne {
  passing: number;
  failures: number;
}

/** What the panel showed before the reload, for the after-reload suite to find again. */
export interface Expectation {
  question: string;
  answerStart: string;
}

export function reloadRecord(): { read(): PhaseOne | undefined; write(p: PhaseOne): void; prepared(): boolean; expect(e: Expectation): void; expected(): Expectation | undefined } | undefined {
  const dir = process.env.CONTEXT_ORACLE_IT_SIGNAL_DIR;
  if (!dir) return undefined;
  const phase = path.join(dir, 'reload-phase-one.json');
  const expectation = path.join(dir, 'reload-expectation.json');
  const json = <T>(f: string): T | undefined => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) as T : undefined);
  return {
    read: () => json<PhaseOne>(phase),
    write: (p) => fs.writeFileSync(phase, JSON.stringify(p)),
    prepared: () => fs.existsSync(expectation),
    expect: (e) => fs.writeFileSync(expectation, JSON.stringify(e)),
    expected: () => json<Expectation>(expectation),
  };
}
