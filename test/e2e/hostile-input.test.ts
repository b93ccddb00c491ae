/**
 * A hostile-input corpus of 200+ generated cases: random bytes with source extensions, a 50 MB file, invalid UTF-8,
 * 10,000-deep nesting, very long lines, symlink loops, FIFOs, directories named like source files, dangling links and
 * files deleted mid-index. Each case ends as a typed error or a counted skip; what was indexed before stays; the run
 * finishes.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '../../src/core/parse/languages';
import type { FileSystem } from '../../src/core/ports';
import { createEngine } from '../../src/core/engine';
import { createNodeAssetLocator } from '../../src/node/assets';
import { nodeFileSystem } from '../../src/node/file-system';
import { createFileIndexStorage } from '../../src/node/index-storage';
import { createWorkerParserHost } from '../../src/node/worker-parser-host';
import { ASSET_ROOT, captureLogger, makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

/** Deterministic pseudo-random bytes (Mulberry32), so a failure can be replayed. */
function randomBytes(seed: number, n: number): Uint8Array {
  let a = seed >>> 0;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
  }
  return out;
}

const nesting: Record<string, (depth: number) => string> = {
  typescript: (d) => `export const x = ${'['.repeat(d)}${']'.repeat(d)};\n`,
  javascript: (d) => `const x = ${'('.repeat(d)}1${')'.repeat(d)};\n`,
  python: (d) => `x = ${'['.repeat(d)}${']'.repeat(d)}\n`,
  go: (d) => `package p\nvar x = ${'('.repeat(d)}1${')'.repeat(d)}\n`,
  rust: (d) => `fn f() { let x = ${'('.repeat(d)}1${')'.repeat(d)}; }\n`,
  java: (d) => `class A { int x = ${'('.repeat(d)}1${')'.repeat(d)}; }\n`,
  c: (d) => `int x = ${'('.repeat(d)}1${')'.repeat(d)};\n`,
  cpp: (d) => `int x = ${'('.repeat(d)}1${')'.repeat(d)};\n`,
  kotlin: (d) => `val x = ${'('.repeat(d)}1${')'.repeat(d)}\n`,
  swift: (d) => `let x = ${'('.repeat(d)}1${')'.repeat(d)}\n`,
  objc: (d) => `int x = ${'('.repeat(d)}1${')'.repeat(d)};\n`,
  csharp: (d) => `class A { int x = ${'('.repeat(d)}1${')'.repeat(d)}; }\n`,
  ruby: (d) => `x = ${'['.repeat(d)}${']'.repeat(d)}\n`,
  php: (d) => `<?php $x = ${'('.repeat(d)}1${')'.repeat(d)};\n`,
};

describe('hostile input corpus', () => {
  const root = makeWorkspace({
    'keep/good.ts': 'export function stillHere(): number { return 1; }\n',
    'keep/good.py': 'def also_here():\n    return 2\n',
  });
  after(() => removeWorkspace(root));
  let cases = 0;

  it('indexes a clean baseline first', async () => {
    const engine = testEngine(root);
    const outcome = await engine.index();
    assert.equal(outcome.parsed, 2);
    await engine.dispose();
  });

  it('survives 200+ hostile files with typed errors or counted skips, losing nothing indexed', { timeout: 600_000 }, async () => {
    const write = (rel: string, content: string | Uint8Array) => {
      mkdirSync(join(root, rel, '..'), { recursive: true });
      writeFileSync(join(root, rel), content);
      cases++;
    };
    // 1. Random bytes under every source extension (binary or garbage text).
    let seed = 1;
    for (const lang of LANGUAGES) {
      for (const ext of lang.extensions) {
        for (let k = 0; k < 4; k++) write(`hostile/random/${lang.id}-${k}${ext}`, randomBytes(seed++, 64 + seed * 37));
      }
    }
    // 2. Printable garbage without NUL bytes: looks like text, parses as errors.
    for (let k = 0; k < 40; k++) {
      const bytes = randomBytes(1000 + k, 4000).map((b) => 32 + (b % 95));
      write(`hostile/garbage/g${k}${LANGUAGES[k % LANGUAGES.length]!.extensions[0]}`, bytes);
    }
    // 3. Invalid UTF-8 sequences inside otherwise valid code.
    for (let k = 0; k < 20; k++) {
      write(`hostile/utf8/u${k}.py`, Buffer.concat([Buffer.from(`def f${k}():\n    return "`), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xff, 0xfe]), Buffer.from('"\n')]));
    }
    // 4. 10,000-deep nesting in each language.
    for (const [lang, make] of Object.entries(nesting)) {
      const ext = LANGUAGES.find((l) => l.id === lang)!.extensions[0];
      write(`hostile/deep/${lang}${ext}`, make(10_000));
    }
    // 5. Very long single lines (just under the size cap) and a 50 MB file (over it).
    for (let k = 0; k < 10; k++) write(`hostile/long/l${k}.js`, `var s${k} = "${'x'.repeat(900_000)}";\n`);
    write('hostile/huge.ts', Buffer.alloc(50 * 1024 * 1024, 0x61));
    // 6. Things that are not regular files: FIFOs, directories named like sources, loops, dangling links.
    for (let k = 0; k < 5; k++) {
      execFileSync('mkfifo', [join(root, `hostile/fifo${k}.ts`)]);
      mkdirSync(join(root, `hostile/dir${k}.ts`), { recursive: true });
      symlinkSync(join(root, 'hostile'), join(root, `hostile/loop${k}`));
      symlinkSync(join(root, `hostile/missing${k}.ts`), join(root, `hostile/dangling${k}.ts`));
      cases += 4;
    }
    assert.ok(cases >= 200, `only ${cases} cases generated`);

    // 7. Files deleted between the walk and the read: a FileSystem that deletes on first read.
    const doomed = ['hostile/doomed1.ts', 'hostile/doomed2.ts'];
    for (const d of doomed) write(d, 'export const doomed = 1;\n');
    const deleting: FileSystem = {
      ...nodeFileSystem,
      async readFile(abs) {
        if (doomed.some((d) => abs.endsWith(d))) rmSync(abs, { force: true });
        return nodeFileSystem.readFile(abs);
      },
    };
    const logger = captureLogger();
    const engine = createEngine({
      root, fs: deleting, storage: createFileIndexStorage(join(root, '.context-oracle', 'index.db')), logger,
      clock: { now: () => Date.now() }, assets: createNodeAssetLocator(ASSET_ROOT), parser: createWorkerParserHost(ASSET_ROOT, 2),
    });
    const outcome = await engine.index();
    const skipped = Object.values(outcome.skipCounts).reduce((a, b) => a + (b ?? 0), 0);
    assert.ok(outcome.parsed + skipped >= cases - 20, `every case accounted for: parsed ${outcome.parsed}, skipped ${skipped}, cases ${cases}`);
    assert.equal(outcome.skipCounts.too_large, 1, 'the 50 MB file');
    assert.ok((outcome.skipCounts.binary ?? 0) >= 40, `random bytes sniffed as binary: ${outcome.skipCounts.binary}`);
    assert.equal(outcome.skipCounts.vanished, 2, 'files deleted mid-index');
    assert.ok((outcome.skipCounts.symlink_loop ?? 0) >= 5);
    assert.ok(outcome.lossyUtf8 >= 20);
    assert.ok((outcome.skipCounts.minified ?? 0) >= 10, `very long single lines are counted as minified: ${outcome.skipCounts.minified}`);
    // Nothing indexed before is lost.
    assert.equal((await engine.search('still here'))[0]?.symbol, 'stillHere');
    assert.equal((await engine.search('also here'))[0]?.symbol, 'also_here');
    const status = await engine.status();
    assert.ok(status.files >= 2 + 20, `files ${status.files}`);
    await engine.dispose();
  });
});
