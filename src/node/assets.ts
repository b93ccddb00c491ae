import { readFileSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { AssetLocator } from '../core';

/**
 * Assets live next to the bundled scripts (dist/): grammars/, queries/, tree-sitter.wasm, sql-wasm.wasm. `compiled`
 * holds `.wasm` assets another thread compiled (a parse worker gets them from the thread that started it).
 */
export function createNodeAssetLocator(root: string = __dirname, compiled?: ReadonlyMap<string, WebAssembly.Module>): AssetLocator {
  const cache = new Map<string, Uint8Array>();
  return {
    path: (relative) => join(root, relative),
    compiledWasm: (relative) => compiled?.get(relative),
    readText: (relative) => fsp.readFile(join(root, relative), 'utf8'),
    async readBytes(relative) {
      let bytes = cache.get(relative);
      if (!bytes) {
        bytes = readFileSync(join(root, relative));
        cache.set(relative, bytes);
      }
      return bytes;
    },
  };
}
