/**
 * A damaged journal: the reader says what ended it (a torn tail, as a crash mid-append leaves, or a corrupt record:
 * bad checksum, unreadable payload, impossible length, damaged header), and the engine repairs it on the next read
 * by checking every file against the image again, reports it once, and keeps the note in status.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '../../src/core/engine';
import { EngineError } from '../../src/core/errors';
import { encodeRecord, journalHeader, readJournal } from '../../src/core/store/journal';
import { stampAnswer } from '../../src/mcp/stamp';
import { captureLogger, makeWorkspace, removeWorkspace, testEngine, writeFiles, type CapturedLogger, indexPathOf } from '../helpers/workspace';

const roots: string[] = [];
const engines: Engine[] = [];
after(async () => {
  for (const e of engines) await e.dispose();
  roots.forEach(removeWorkspace);
});

function engine(root: string, logger: CapturedLogger = captureLogger()): Engine {
  const e = testEngine(root, {}, logger);
  engines.push(e);
  return e;
}

async function defined(e: Engine, name: string): Promise<boolean> {
  try {
    return (await e.definitions(name)).results.some((d) => d.name === name);
  } catch (err) {
    if (EngineError.is(err, 'not_found')) return false;
    throw err;
  }
}

describe('journal reader: what ended the journal', () => {
  const header = journalHeader('abc');
  const r1 = encodeRecord([{ op: 'remove', path: 'a.ts' }]);
  const r2 = encodeRecord([{ op: 'meta', values: { k: 'v' } }]);
  const all = new Uint8Array([...header, ...r1, ...r2]);
  const second = header.length + r1.length;

  it('reports no damage for a whole journal (or an empty one)', () => {
    assert.equal(readJournal(all, 0).damage, undefined);
    assert.equal(readJournal(new Uint8Array(0), 0).damage, undefined);
    assert.equal(readJournal(all.subarray(second), second).damage, undefined);
  });

  it('reports a record cut short as torn, at its start', () => {
    for (const cut of [3, 7, r2.length - 1]) {
      const read = readJournal(all.subarray(0, all.length - cut), 0);
      assert.equal(read.records.length, 1);
      assert.deepEqual({ kind: read.damage?.kind, at: read.damage?.at }, { kind: 'torn', at: second }, `cut ${cut}`);
    }
    assert.equal(readJournal(header.subarray(0, 5), 0).damage?.kind, 'torn', 'a header cut short');
  });

  it('reports a flipped byte in a whole record, or an impossible length, as corrupt', () => {
    for (const at of [second + 4, second + 11, second + 12, all.length - 1]) {
      const damaged = all.slice();
      damaged[at]! ^= 0x01;
      const read = readJournal(damaged, 0);
      assert.equal(read.records.length, 1, `flip at ${at}`);
      assert.deepEqual({ kind: read.damage?.kind, at: read.damage?.at }, { kind: 'corrupt', at: second }, `flip at ${at}`);
    }
    const huge = all.slice();
    huge[second + 3] ^= 0xff; // the length's high byte: 4 GiB
    assert.equal(readJournal(huge, 0).damage?.kind, 'corrupt');
    const badHeader = all.slice();
    badHeader[header.length - 2]! ^= 0xff; // a generation digit
    assert.equal(readJournal(badHeader, 0).damage?.kind, 'corrupt');
    assert.equal(readJournal(new TextEncoder().encode('garbage\n'), 0).damage?.kind, 'corrupt');
  });
});

describe('a damaged journal is repaired on the next read', () => {
  function setup(): string {
    const ws: Record<string, string> = {};
    for (let i = 0; i < 10; i++) ws[`src/m${i}.ts`] = `export function base${i}(x: number): number { return x + ${i}; }\n`;
    const root = makeWorkspace(ws);
    roots.push(root);
    return root;
  }

  /** Indexes, then commits a new function through the journal; returns the journal path and the last record's offset. */
  async function committed(root: string): Promise<{ journal: string; last: number }> {
    const writer = engine(root);
    await writer.index();
    const journal = `${indexPathOf(root)}.journal`;
    const last = readFileSync(journal).length;
    writeFiles(root, { 'src/added.ts': 'export function newFunction() { return 42; }\n' });
    const outcome = await writer.index();
    assert.equal(outcome.parsed, 1);
    assert.ok(readFileSync(journal).length > last, 'the commit went to the journal');
    assert.equal(await defined(engine(root), 'newFunction'), true);
    await writer.dispose();
    return { journal, last };
  }

  it('a flipped byte: a warning in the log, on the next answer, in status; the new function is found', async () => {
    const root = setup();
    const { journal, last } = await committed(root);
    const bytes = readFileSync(journal);
    bytes[last + 20]! ^= 0x01;
    writeFileSync(journal, bytes);
    const logger = captureLogger();
    const reader = engine(root, logger);
    assert.equal(await defined(reader, 'newFunction'), true, 'the lost commit was indexed again');
    assert.ok(logger.lines.some((l) => /^warn: .*journal.*damaged.*fails its checksum/.test(l)), logger.lines.join('\n'));
    const stamp = await reader.freshness();
    assert.equal(stamp.warnings?.length, 1);
    assert.match(stamp.warnings![0]!, /fails its checksum/);
    assert.equal((await reader.freshness()).warnings, undefined, 'reported once');
    const status = await reader.status();
    assert.equal(status.journal?.damage, 'corrupt');
    assert.equal(status.journal?.at, last);
    assert.ok(status.journal?.repairedAt);
    assert.equal(status.journal?.reindexed, 1);
    assert.equal(readJournal(readFileSync(journal), 0).damage, undefined, 'the damaged bytes were cut off');
    // Another process sees the repaired journal and the note.
    const later = engine(root);
    assert.equal(await defined(later, 'newFunction'), true);
    assert.equal((await later.status()).journal?.damage, 'corrupt');
    assert.equal((await later.freshness()).warnings, undefined, 'the warning went out once, from the process that repaired');
  });

  it('a torn tail: repaired the same way, logged at info, no warning on answers', async () => {
    const root = setup();
    const { journal, last } = await committed(root);
    truncateSync(journal, readFileSync(journal).length - 7);
    const logger = captureLogger();
    const reader = engine(root, logger);
    const status = await reader.status();
    assert.equal(status.journal?.damage, 'torn');
    assert.equal(status.journal?.at, last);
    assert.ok(status.journal?.repairedAt);
    assert.equal(await defined(reader, 'newFunction'), true);
    assert.ok(logger.lines.some((l) => /^info: .*interrupted commit/.test(l)), logger.lines.join('\n'));
    assert.ok(!logger.lines.some((l) => l.startsWith('warn:')), logger.lines.join('\n'));
    assert.equal((await reader.freshness()).warnings, undefined);
  });

  it('a commit of named paths that meets the damage checks every file', async () => {
    const root = setup();
    const holder = engine(root); // a long-running host: loaded before the commit that gets damaged
    await holder.index();
    const { journal, last } = await committed(root);
    const bytes = readFileSync(journal);
    bytes[last + 20]! ^= 0x01;
    writeFileSync(journal, bytes);
    writeFiles(root, { 'src/m1.ts': 'export function changed1() {}\n' });
    const outcome = await holder.index({ onlyPaths: ['src/m1.ts'] });
    assert.equal(outcome.journalRepair?.damage, 'corrupt');
    assert.equal(outcome.journalRepair?.reindexed, 2, 'the named file and the one the lost commit held');
    assert.equal(await defined(holder, 'newFunction'), true);
    assert.equal(await defined(holder, 'changed1'), true);
  });

  it('a process that cannot write reports the damage as not repaired and still answers', async () => {
    const root = setup();
    const { journal } = await committed(root);
    const bytes = readFileSync(journal);
    bytes[bytes.length - 1]! ^= 0x01;
    writeFileSync(journal, bytes);
    // The lock file cannot be made: a folder is in its place (as root, chmod would not stop the write).
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(`${indexPathOf(root)}.lock`, 'x'), { recursive: true });
    const logger = captureLogger();
    const reader = engine(root, logger);
    assert.equal(await defined(reader, 'base1'), true, 'the image still answers');
    const status = await reader.status();
    assert.equal(status.journal?.damage, 'corrupt');
    assert.equal(status.journal?.repairedAt, undefined);
    assert.ok(logger.lines.some((l) => /^warn: .*could not be repaired/.test(l)), logger.lines.join('\n'));
  });
});

describe('MCP answers', () => {
  it('carry the engine\'s warnings in the freshness stamp', () => {
    const stamped = stampAnswer({ text: '{"results":[]}', tokens: 3 }, { queued: [], warnings: ['the index journal was damaged'] });
    const body = JSON.parse(stamped.text) as { freshness: { warnings?: string[] } };
    assert.deepEqual(body.freshness.warnings, ['the index journal was damaged']);
    const plain = JSON.parse(stampAnswer({ text: '{}', tokens: 1 }, { queued: [] }).text) as { freshness: object };
    assert.deepEqual(plain.freshness, { queued: [] }, 'no warnings field when there is nothing to say');
  });
});
