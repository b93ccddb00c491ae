/**
 * Smart context must not depend on the order files entered the index. File ids follow indexing history: an index
 * caught up with a checkout gives the files it adds the highest ids, a fresh one numbers them in the order it walks the
 * tree. Near ties are common (every file calling one function of another weighs the same in the file graph), so a
 * tie broken by id would rank the same files differently in the two indexes.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Engine } from '../../src/core/engine';
import { removeWorkspace, testEngine } from '../helpers/workspace';

const USERS = 25;
const CORE = [
  'def compute_checksum(data):',
  '    """Compute the checksum of a data block, modulo the largest prime below 2**16."""',
  '    total = 0',
  '    for b in data:',
  '        total = (total + b) % 65521',
  '    return total',
  '',
].join('\n');
/** More callers of one function than the file graph keeps neighbours (20): which it keeps is decided by a tie. */
const user = (n: string): string => [
  'from core import compute_checksum',
  '',
  `def handle_${n}(payload):`,
  `    # request ${n} is accepted when its checksum is known`,
  '    return compute_checksum(payload)',
  '',
].join('\n');
const names = Array.from({ length: USERS }, (_, i) => String(i).padStart(2, '0'));

function write(root: string, files: string[]): void {
  mkdirSync(join(root, 'app'), { recursive: true });
  for (const n of files) writeFileSync(join(root, 'app', `u${n}.py`), user(n));
}

describe('smart context and the order files were indexed in', () => {
  const roots: string[] = [];
  const engines: Engine[] = [];
  after(async () => {
    for (const e of engines) await e.dispose();
    for (const r of roots) removeWorkspace(r);
  });
  const workspace = (): string => {
    const root = mkdtempSync(join(tmpdir(), 'co-order-'));
    roots.push(root);
    writeFileSync(join(root, 'core.py'), CORE);
    return root;
  };

  it('ranks the same files the same in a fresh index and in one caught up with the same files', async () => {
    const fresh = workspace();
    write(fresh, names);
    const a = testEngine(fresh);
    engines.push(a);
    await a.index();

    // The same files, the first ten added after an index of the others: they come last in id order.
    const caughtUp = workspace();
    write(caughtUp, names.slice(10));
    const b = testEngine(caughtUp);
    engines.push(b);
    await b.index();
    write(caughtUp, names.slice(0, 10));
    await b.index();

    const question = 'how is the checksum of a data block computed?';
    const ranked = async (e: Engine) => (await e.getContextForQuestion(question, { maxFiles: 40 })).files;
    const [x, y] = [await ranked(a), await ranked(b)];
    assert.equal(x[0]?.path, 'core.py');
    assert.ok(x.length > 20, `expected every caller ranked, got ${x.length}`);
    assert.deepEqual(y, x);
  });
});
