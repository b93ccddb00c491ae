/**
 * Call sites read the calling line from the file as indexed: a call deep inside a long function (past the lines its
 * chunk keeps) is still shown, and copies of one function (a vendored second copy) do not list the same caller twice.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { findCallSites } from '../../src/core/context/call-sites';
import { dbFacts } from '../../src/core/context/db-facts';
import { zeroSignals } from '../../src/core/context/rank-files';
import type { NodeCandidate } from '../../src/core/context/select-nodes';
import { removeWorkspace } from '../helpers/workspace';
import { indexedWorkspace } from '../helpers/indexed-workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

/** A function of 240 lines whose call to flushQueue sits on line 201, past the 150 lines a chunk keeps. */
const LONG = ['export function run(): number {', ...Array.from({ length: 199 }, (_, i) => `  const v${i} = ${i};`), '  flushQueue();', ...Array.from({ length: 39 }, () => '  void 0;'), '  return 0;', '}', ''].join('\n');
const QUEUE = 'export function flushQueue(): number {\n  return 1;\n}\n';

describe('call sites', () => {
  it('shows a call past a long chunk, once for copies of the callee', async () => {
    const { root, db, dispose } = await indexedWorkspace({ 'src/main.ts': LONG, 'vendor/a/queue.ts': QUEUE, 'vendor/b/queue.ts': QUEUE });
    roots.push(root);
    const facts = dbFacts(db);
    assert.equal(LONG.split('\n')[200], '  flushQueue();');

    const callee = (path: string): NodeCandidate => ({
      id: `${path}#flushQueue`, fileId: facts.byPath.get(path)!.id, path, symbol: 'flushQueue', kind: 'function', lineStart: 1, lineEnd: 3,
      text: QUEUE, score: 1, signals: zeroSignals(), reason: 'match', mention: false,
    });
    const sites = findCallSites(db, facts, [callee('vendor/a/queue.ts'), callee('vendor/b/queue.ts')]);
    assert.deepEqual(sites.map((s) => [s.path, s.line, s.code, s.caller]), [['src/main.ts', 201, 'flushQueue();', 'run']]);
    await dispose();
  });
});
