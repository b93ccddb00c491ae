/**
 * Call sites read the calling line from the file as indexed: a call deep inside a long function (past the lines its
 * chunk keeps) is still shown, and copies of one function (a vendored second copy) do not list the same caller twice;
 * a method whose name many files define keeps the calls in files that mention its class, its own file's first.
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

  it('lists each copy\'s own calls first, past hundreds of calls elsewhere, and only callers that mention the class', async () => {
    // Four copies of Store make `save` too common to resolve by name; app.ts mentions Store and calls save 250 times
    // (before the copies by path), other.ts calls a save of its own without mentioning Store.
    const STORE = 'export class Store {\n  save(): void {}\n  flush(): void {\n    this.save();\n  }\n}\n';
    const copies = ['src/z1/store.ts', 'src/z2/store.ts', 'src/z3/store.ts', 'src/z4/store.ts'];
    const APP = ["import { Store } from '../z1/store';", 'export function main(s: Store): void {', ...Array.from({ length: 250 }, () => '  s.save();'), '}', ''].join('\n');
    const OTHER = 'export function other(x: { save(): void }): void {\n  x.save();\n}\n';
    const { root, db, dispose } = await indexedWorkspace({ ...Object.fromEntries(copies.map((p) => [p, STORE])), 'src/a/app.ts': APP, 'src/b/other.ts': OTHER });
    roots.push(root);
    const facts = dbFacts(db);
    const callee = (path: string): NodeCandidate => ({
      id: `${path}#Store.save`, fileId: facts.byPath.get(path)!.id, path, symbol: 'Store.save', kind: 'method', lineStart: 2, lineEnd: 2,
      text: '  save(): void {}', score: 1, signals: zeroSignals(), reason: 'match', mention: false,
    });
    const sites = findCallSites(db, facts, [callee('src/z1/store.ts'), callee('src/z2/store.ts')]);
    // Per copy, three: a call from app.ts, its own file's call, a second from app.ts (a line shown once for both).
    assert.deepEqual(sites.map((s) => [s.path, s.line, s.caller]), [
      ['src/a/app.ts', 3, 'main'], ['src/a/app.ts', 4, 'main'], ['src/a/app.ts', 5, 'main'], ['src/a/app.ts', 6, 'main'],
      ['src/z1/store.ts', 4, 'Store.flush'], ['src/z2/store.ts', 4, 'Store.flush'],
    ]);
    await dispose();
  });
});
