/** The StateStore port: small files under <root>/.context-oracle/, replaced atomically (temp file, then rename). */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { StateStore } from '../core';

export function createStateStore(dir: string): StateStore {
  const file = (name: string) => join(dir, name.replace(/[^\w.-]/g, '_'));
  return {
    async read(name) {
      try {
        return await fsp.readFile(file(name), 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
    },
    async write(name, text) {
      await fsp.mkdir(dir, { recursive: true });
      const tmp = `${file(name)}.${process.pid}.${Date.now()}.tmp`;
      await fsp.writeFile(tmp, text, 'utf8');
      await fsp.rename(tmp, file(name));
    },
  };
}
