/**
 * The built CLI on a damaged journal: a commit lost to a flipped byte or a cut-off tail is indexed again by the next
 * read command, which warns (checksum) on stderr; status --json reports the damage and the repair.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexOutcome, IndexStatus } from '../../src/core/model';
import { readJournal } from '../../src/core/store/journal';
import { runCli, runCliJson } from '../helpers/cli';
import { makeWorkspace, removeWorkspace, writeFiles, indexPathOf } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

/** An index, then a new function committed by an incremental run as one journal record; returns where it starts. */
function committed(): { root: string; journal: string; last: number } {
  const root = makeWorkspace({
    'src/server.ts': 'export class HttpServer {\n  listen(port: number) { return port; }\n}\n',
    'src/router.ts': 'export function route(port: number) { return port; }\n',
  });
  roots.push(root);
  assert.equal(runCli(['index', '--root', root]).code, 0);
  const journal = `${indexPathOf(root)}.journal`;
  const last = statSync(journal).size;
  writeFiles(root, { 'src/added.ts': 'export function newFunction() { return 42; }\n' });
  const image = statSync(indexPathOf(root)).mtimeMs;
  const commit = runCliJson<IndexOutcome>(['index', '--root', root]);
  assert.equal(commit.json.parsed, 1);
  assert.equal(statSync(indexPathOf(root)).mtimeMs, image, 'the image was not rewritten');
  assert.equal(readJournal(readFileSync(journal), 0).records.length, 1, 'the commit is one journal record');
  return { root, journal, last };
}

describe('CLI on a damaged journal', () => {
  it('one flipped byte in the last record: def finds the new function, warns once, status --json reports the repair', () => {
    const { root, journal, last } = committed();
    const bytes = readFileSync(journal);
    bytes[last + 30]! ^= 0x01;
    writeFileSync(journal, bytes);
    const def = runCli(['def', 'newFunction', '--root', root]);
    assert.equal(def.code, 0, def.stderr);
    assert.match(def.stdout, /src\/added\.ts:1:\d+ +function newFunction/);
    assert.match(def.stderr, /journal .* was damaged \(the record at byte \d+ fails its checksum\)/);
    const status = runCliJson<IndexStatus>(['status', '--root', root]);
    assert.equal(status.code, 0);
    assert.equal(status.json.journal?.damage, 'corrupt');
    assert.equal(status.json.journal?.at, last);
    assert.ok(status.json.journal?.repairedAt, 'repaired');
    assert.equal(status.json.journal?.reindexed, 1);
    assert.equal(status.stderr, '', 'the warning went out once, with the answer that repaired it');
    assert.match(runCli(['status', '--root', root]).stdout, /^journal: +WARNING: the index journal was damaged .* repaired/m);
  });

  it('a journal cut 7 bytes short: status --json repairs and reports it, then def finds the new function', () => {
    const { root, journal, last } = committed();
    truncateSync(journal, statSync(journal).size - 7);
    const status = runCliJson<IndexStatus>(['status', '--root', root]);
    assert.equal(status.code, 0);
    assert.equal(status.json.files, 3, 'the file of the lost commit is counted again');
    assert.equal(status.json.journal?.damage, 'torn');
    assert.equal(status.json.journal?.at, last);
    assert.ok(status.json.journal?.repairedAt);
    assert.equal(status.stderr, '', 'a torn tail is expected after a crash: no warning');
    const def = runCli(['def', 'newFunction', '--root', root]);
    assert.equal(def.code, 0, def.stderr);
    assert.match(def.stdout, /src\/added\.ts:1/);
  });
});
