/**
 * Golden files, one rule for every golden test: a golden that differs fails; a golden that is missing fails too
 * (a deleted golden must never pass unnoticed, in CI or anywhere else). `UPDATE_GOLDEN=1` (or `UPDATE_GOLDENS=1`)
 * writes the actual output instead, for a person to review in the diff.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function updatingGoldens(): boolean {
  return Boolean(process.env.UPDATE_GOLDEN || process.env.UPDATE_GOLDENS);
}

/** The golden's text, after writing `actual` there when goldens are being updated; fails when it is missing. */
export function readGolden(file: string, actual: string): string {
  if (updatingGoldens()) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
  }
  assert.ok(existsSync(file), `missing golden ${file}; run with UPDATE_GOLDEN=1 and review the new file`);
  return readFileSync(file, 'utf8');
}

/** Text compared byte for byte with its golden. */
export function assertGoldenText(file: string, actual: string): void {
  assert.equal(actual, readGolden(file, actual), `golden ${file} differs (UPDATE_GOLDEN=1 rewrites it; review the diff)`);
}

/** A value compared structurally with its golden (stored as pretty JSON). */
export function assertGoldenJson(file: string, value: unknown): void {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  assert.deepStrictEqual(value, JSON.parse(readGolden(file, text)), `golden ${file} differs (UPDATE_GOLDEN=1 rewrites it; review the diff)`);
}
