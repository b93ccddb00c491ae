/**
 * The serving facts saved beside the index (context/saved-facts.ts): read back they are the facts a whole read of the
 * index gives, they are used for that index version only (a commit, and the journal replay of one by the next host,
 * moves it), and bytes that are torn or not saved facts are logged, the index is read instead, and they are rewritten.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { decodeColumns, decodeStrings, encodeColumns, encodeStrings } from '../../src/core/column-file';
import { DEFAULT_CONFIG } from '../../src/core/config';
import { dbFacts, warmFacts } from '../../src/core/context/db-facts';
import { decodeFacts, encodeFacts, FACTS_SIDECAR } from '../../src/core/context/saved-facts';
import type { Engine } from '../../src/core/engine';
import { runIndex } from '../../src/core/index/indexer';
import { IndexDatabase } from '../../src/core/store/database';
import { indexVersion } from '../../src/core/store/index-version';
import { memoryImage } from '../../src/core/store/paged-file';
import { concatBytes } from '../../src/core/bytes';
import { factsView } from '../helpers/facts-view';
import { indexedWorkspace } from '../helpers/indexed-workspace';
import { hostOpener, indexPathOf, makeWorkspace, removeWorkspace, writeFiles } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

const FILES = {
  'src/server.ts': "import { route } from './router';\nimport { Session } from './auth/session';\nexport function listen(port: number) { route('/'); route('/x'); return new Session(port); }\n",
  'src/router.ts': "import { Session } from './auth/session';\nexport function route(path: string) { return new Session(path.length); }\nexport const table = { id: 1 };\n",
  'src/auth/session.ts': 'export class Session {\n  constructor(readonly id: number) {}\n  renew() { return new Session(this.id + 1); }\n}\nexport function route() {}\n',
  'src/Ünïcode/naïve.ts': "import { Session } from '../auth/session';\nexport function créer() { return new Session(0); }\n",
  'app/models/user.py': 'from app.models.base import Model\n\nclass User(Model):\n    def save(self):\n        return helper(1)\n',
  'app/models/base.py': 'def helper(x):\n    return x\n\nclass Model:\n    def save(self):\n        return helper(0)\n',
  'README.md': '# Demo\n\nRoutes requests to sessions.\n',
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`pad/p${i}.ts`, `import { route } from '../src/router';\nexport function p${i}() { return route('/p${i}'); }\n`])),
};

describe('the serving facts saved beside the index', () => {
  it('read back as the facts a whole read of the index gives, and are updated in place by a commit after', async () => {
    const { root, db, deps, dispose } = await indexedWorkspace(FILES);
    roots.push(root);
    const image = db.export();
    const [read, restored] = [await IndexDatabase.open(deps.assets, memoryImage(image)), await IndexDatabase.open(deps.assets, memoryImage(image))];
    const { facts, toSave } = warmFacts(read);
    facts.imports();
    const version = indexVersion(read);
    const bytes = concatBytes(encodeFacts(version, toSave()!)!);
    assert.equal(decodeFacts(bytes, `x${version}`), undefined, 'another index (full run) is not used');
    const back = warmFacts(restored, decodeFacts(bytes, version));
    assert.equal(back.restored?.version, version);
    assert.equal(back.restored.changed.size, 0, 'of the index as it is: taken as they are');
    assert.deepEqual(factsView(back.facts), factsView(facts));
    assert.ok(back.facts.files.size > 15 && [...back.facts.imports().values()].some((s) => s.size > 0), 'a workspace with imports');

    // The files' versions came back too: a commit updates the restored facts in place, as it does facts read whole.
    writeFiles(root, { 'pad/p3.ts': "import { Session } from '../src/auth/session';\nexport function p3() { return new Session(3); }\n" });
    for (const d of [read, restored]) await runIndex(deps, DEFAULT_CONFIG, d, false, { onlyPaths: ['pad/p3.ts'] });
    assert.equal(dbFacts(restored), back.facts, 'updated in place');
    const fresh = await IndexDatabase.open(deps.assets, memoryImage(restored.export()));
    assert.deepEqual(factsView(dbFacts(restored)), factsView(dbFacts(fresh)));
    assert.deepEqual(factsView(dbFacts(read)), factsView(dbFacts(fresh)));
    await dispose();
  });

  it('are saved by a warm-up and read back by the next host on that index version only; torn or foreign bytes are logged and rewritten', async () => {
    const root = makeWorkspace(FILES);
    roots.push(root);
    const engines: Engine[] = [];
    const openHost = hostOpener(root, engines);
    const open = () => {
      const h = openHost();
      return { ...h, readBack: () => h.said(/serving facts read back/) };
    };
    const questions = ['where is the session renewed', 'how does the router route a path', 'what does a user model save'];
    const answers = async (e: Engine) => {
      const out: unknown[] = [];
      for (const q of questions) out.push(JSON.parse(JSON.stringify(await e.getContextForQuestion(q, { maxTokens: 2000 }), (k, v) => (k.endsWith('Ms') ? undefined : v))));
      return out;
    };
    const sidecar = `${indexPathOf(root)}.${FACTS_SIDECAR}`;
    try {
      const first = open();
      await first.e.index();
      await first.e.warm();
      assert.ok(existsSync(sidecar), 'saved beside the index');
      assert.ok(!first.readBack(), 'the first host read the index');
      const expected = await answers(first.e);

      const second = open();
      await second.e.warm();
      assert.ok(second.readBack(), second.logger.lines.join('\n'));
      assert.deepEqual(await answers(second.e), expected, 'the same answers from the saved facts');

      // A commit goes to the journal and moves the index version; the next host replays the journal on opening and
      // must not take the facts saved before it (they would lack p5 and its import).
      const before = readFileSync(sidecar);
      writeFiles(root, { 'pad/p5.ts': "import { Session } from '../src/auth/session';\nexport function sessionFive() { return new Session(5); }\n" });
      await second.e.noteChanges([{ path: 'pad/p5.ts' }]);
      await second.e.syncNow();
      assert.ok(statSync(`${indexPathOf(root)}.journal`).size > 100, 'the commit is a journal record');
      const third = open();
      await third.e.warm();
      assert.ok(!third.readBack(), third.logger.lines.join('\n'));
      assert.ok(!readFileSync(sidecar).equals(before), 'rewritten for the new version');
      const afterCommit = await answers(third.e);
      assert.ok(JSON.stringify(await third.e.getContextForQuestion('sessionFive', { maxTokens: 2000 })).includes('pad/p5.ts'));
      const fourth = open();
      await fourth.e.warm();
      assert.ok(fourth.readBack(), 'the new version was saved and is read back');
      assert.deepEqual(await answers(fourth.e), afterCommit);
      const fourthFacts = await fourth.e.getContextForQuestion('sessionFive', { maxTokens: 2000 });
      assert.ok(JSON.stringify(fourthFacts).includes('pad/p5.ts'));

      for (const [damage, message] of [
        [() => truncateSync(sidecar, statSync(sidecar).size - 8), /serving facts is unreadable.*cut short/],
        [() => writeFileSync(sidecar, 'garbage'), /serving facts is unreadable/],
      ] as const) {
        damage();
        const host = open();
        await host.e.warm();
        assert.ok(host.logger.lines.some((l) => message.test(l)), host.logger.lines.join('\n'));
        assert.ok(!host.readBack());
        assert.deepEqual(await answers(host.e), afterCommit);
        const next = open();
        await next.e.warm();
        assert.ok(next.readBack(), 'rewritten whole');
      }
    } finally {
      for (const e of engines) await e.dispose();
    }
  });

  it('are read back, or read and saved, by a question that finds none held, as a CLI call asks without a warm-up', async () => {
    const root = makeWorkspace(FILES);
    roots.push(root);
    const engines: Engine[] = [];
    const openHost = hostOpener(root, engines);
    const sidecar = `${indexPathOf(root)}.${FACTS_SIDECAR}`;
    const ask = async (e: Engine) => JSON.stringify(await e.getContextForQuestion('how does the router route a path', { maxTokens: 2000 }), (k, v) => (k.endsWith('Ms') ? undefined : v));
    try {
      const first = openHost();
      await first.e.index();
      const expected = await ask(first.e);
      assert.ok(existsSync(sidecar), 'the first question saved the facts it read');
      const second = openHost();
      assert.equal(await ask(second.e), expected);
      assert.ok(second.said(/serving facts read back/), second.logger.lines.join('\n'));
      // Asked while the warm-up runs, the question shares its load.
      const third = openHost();
      const [answer] = await Promise.all([ask(third.e), third.e.warm()]);
      assert.equal(answer, expected);
      assert.ok(third.said(/serving facts read back/), third.logger.lines.join('\n'));
    } finally {
      for (const e of engines) await e.dispose();
    }
  });
});

describe('column files', () => {
  it('hold byte and 16-bit columns and string lists that read back as written', () => {
    const strings = ['', 'a', 'naïve/Ünïcode', '😀 emoji', undefined, 'x'.repeat(40)];
    const [bytes, lengths] = encodeStrings(strings)!;
    const parts = encodeColumns('test\n', { v: 1 }, [['s', bytes], ['n', lengths], ['k', Uint16Array.of(1, 65535, 7)]]);
    const file = decodeColumns<{ v: number }>(concatBytes(parts), 'test\n', 'test file', (h) => h.v === 1)!;
    assert.deepEqual([...decodeStrings(file.columns.get('s') as Uint8Array, file.columns.get('n') as Int32Array, 'test')], strings);
    assert.deepEqual([...file.columns.get('k')!], [1, 65535, 7]);
    assert.equal(encodeStrings(['ok', 'lone \ud800 surrogate']), undefined, 'a string that would not read back is refused');
    assert.throws(() => decodeStrings(bytes, Int32Array.of(1), 'test'), /do not match/);
  });
});
