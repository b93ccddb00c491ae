/** Engine errors as MCP tool errors: each engine code a tool can meet maps onto a code a model can act on. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngineError } from '../../src/core/errors';
import { checkIndexVersions } from '../../src/core/index/shared-index';
import { toolErrorFrom } from '../../src/mcp/errors';

const hint = { autoIndex: true, root: '/ws' };

function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail('expected a throw');
}

describe('MCP tool errors from engine errors', () => {
  it('an index from another version is not_initialized, with the engine saying how to rebuild it', () => {
    const e = thrown(() => checkIndexVersions(
      { schema_version: '7', engine_version: '1.0.0', grammar_hash: 'g' },
      { schema_version: '8', engine_version: '1.0.0', grammar_hash: 'g' },
    ));
    assert.ok(EngineError.is(e, 'index_incompatible'));
    const tool = toolErrorFrom(e, hint);
    assert.equal(tool.code, 'not_initialized');
    assert.equal(tool.message, e.message);
    assert.match(tool.message, /schema_version=7.*needs 8.*--full/);
  });

  it('an engine code with no mapping stays internal, message kept', () => {
    const tool = toolErrorFrom(new EngineError('write_failed', 'disk said no'), hint);
    assert.equal(tool.code, 'internal');
    assert.equal(tool.message, 'disk said no');
  });
});
