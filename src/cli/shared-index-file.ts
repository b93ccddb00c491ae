/** Reading and writing a shared index file (`index --import FILE`, `index --export FILE`). */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EngineError } from '../core';

export function readIndexFile(path: string): Uint8Array {
  try {
    return readFileSync(resolve(path));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new EngineError('not_found', `no index file at ${resolve(path)}`);
    throw new EngineError('invalid_input', `cannot read ${resolve(path)}: ${(e as Error).message}`);
  }
}

/** Written to a temp file, then renamed: a teammate's download never sees half an index. */
export function writeIndexFile(path: string, bytes: Uint8Array): void {
  const target = resolve(path);
  const temp = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, bytes);
    renameSync(temp, target);
  } catch (e) {
    rmSync(temp, { force: true });
    throw new EngineError('write_failed', `cannot write ${target}: ${(e as Error).message}`);
  }
}
