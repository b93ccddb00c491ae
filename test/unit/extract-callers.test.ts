/**
 * A reference's caller is the innermost function, method or container whose lines hold it: on a line where one
 * definition ends and the next starts, the later one; in top-level code after every definition, none; references
 * taken out of line order (a second pattern's matches) get the same callers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TreeSitterService } from '../../src/core/parse/tree-sitter-service';
import { createNodeAssetLocator } from '../../src/node/assets';
import { ASSET_ROOT } from '../helpers/workspace';

const service = new TreeSitterService(createNodeAssetLocator(ASSET_ROOT));

const source = [
  'class Server {',                                   // 1
  '  listen(port: number) {',                         // 2
  '    bind(port);',                                  // 3
  '  }',                                              // 4
  '  close() { release(); }',                         // 5
  '}',                                                // 6
  'function outer() { first(); } function next() {',  // 7: outer ends where next starts
  '  second(new Thing());',                           // 8
  '}',                                                // 9
  'const x: Config = setup();',                       // 10
  '',
].join('\n');

describe('reference callers', () => {
  it('picks the innermost definition holding each reference, the later one on a shared line, none outside', async () => {
    const r = await service.extract({ path: 'callers.ts', language: 'typescript', text: source });
    assert.equal(r.error, undefined);
    const caller = (name: string) => r.references.filter((ref) => ref.name === name).map((ref) => ref.inSymbol ?? null);
    assert.deepEqual(caller('bind'), ['Server.listen']);
    assert.deepEqual(caller('release'), ['Server.close']);
    assert.deepEqual(caller('first'), ['next'], 'line 7 is held by both: the later definition');
    assert.deepEqual(caller('second'), ['next']);
    assert.deepEqual(caller('Thing'), ['next'], 'a class reference, matched by another pattern than the calls');
    assert.deepEqual(caller('setup'), [null], 'top-level code after every definition has no caller');
    assert.deepEqual(caller('Config'), [null]);
    for (const ref of r.references) {
      if (ref.inSymbolIndex !== undefined) assert.equal(r.symbols[ref.inSymbolIndex]!.qualifiedName, ref.inSymbol);
    }
  });
});
