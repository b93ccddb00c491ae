/**
 * The tree-sitter runtime and grammars are compiled once by the thread that starts the parse workers and posted to
 * them: a worker instantiates the compiled modules and never reads the `.wasm` files itself.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { TreeSitterService } from '../../src/core/parse/tree-sitter-service';
import { createNodeAssetLocator } from '../../src/node/assets';
import { createWorkerParserHost } from '../../src/node/worker-parser-host';
import { ASSET_ROOT } from '../helpers/workspace';

/** @types/node declares WebAssembly's types but not the global value. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }).WebAssembly;
const source = 'export class Greeter {\n  greet(name: string): string {\n    return hello(name);\n  }\n}\n';
const request = { path: 'greeter.ts', language: 'typescript', text: source };

describe('shared wasm modules', () => {
  it('parses with a compiled runtime and grammar handed in, reading neither file, as it does from their bytes', async () => {
    const files = ['tree-sitter.wasm', 'grammars/tree-sitter-typescript.wasm'];
    const compiled = new Map(await Promise.all(files.map(async (f) => [f, await wasm.compile(readFileSync(join(ASSET_ROOT, f)))] as const)));
    const read: string[] = [];
    const plain = createNodeAssetLocator(ASSET_ROOT);
    const shared = createNodeAssetLocator(ASSET_ROOT, compiled);
    // The first service of this realm initialises the runtime: from the compiled module.
    const fromModules = await new TreeSitterService({ ...shared, readBytes: (f) => { read.push(f); return shared.readBytes(f); } }).extract(request);
    assert.deepEqual(read, [], 'no wasm file was read');
    const fromBytes = await new TreeSitterService(plain).extract(request);
    assert.equal(fromModules.error, undefined);
    assert.deepEqual(fromModules.symbols.map((s) => s.qualifiedName), ['Greeter', 'Greeter.greet']);
    assert.deepEqual(fromModules, fromBytes, 'the same result as a grammar loaded from its bytes');
  });

  it('gives a new worker the modules compiled for the first, so it needs no grammar file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'co-shared-wasm-'));
    const grammar = 'grammars/tree-sitter-typescript.wasm';
    for (const f of ['parse-worker.js', 'tree-sitter.wasm', grammar, 'queries/typescript.scm']) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      copyFileSync(join(ASSET_ROOT, f), join(root, f));
    }
    const host = createWorkerParserHost(root, 1, 60_000);
    try {
      const [first] = await host.parse([request]);
      assert.equal(first!.error, undefined);
      await host.dispose();
      // A worker that loaded the grammar from its file would now fail with grammar_unavailable.
      rmSync(join(root, grammar));
      const [second] = await host.parse([request]);
      assert.equal(second!.error, undefined, second!.error?.message);
      assert.deepEqual(second!.symbols.map((s) => s.qualifiedName), ['Greeter', 'Greeter.greet']);
    } finally {
      await host.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
