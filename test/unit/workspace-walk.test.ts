/**
 * One walk for the whole engine (src/core/workspace/walk.ts): the index, the oracle's docs and the graph's doc folders
 * see the same files, with the same .gitignore chain and excludes.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/core/config';
import { listMarkdown } from '../../src/core/graph/workspace-files';
import { normaliseRelative, resolveRelative } from '../../src/core/index/paths';
import { walkWorkspace } from '../../src/core/index/walker';
import { createLineReader } from '../../src/core/navigation/source-lines';
import { createFileCache } from '../../src/core/oracle/file-cache';
import { createMarkdownCache } from '../../src/core/oracle/markdown-files';
import { nodeFileSystem } from '../../src/node/file-system';
import { captureLogger, makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

function workspace(): string {
  const root = makeWorkspace({
    '.gitignore': 'generated/\n',
    'docs/.gitignore': '*.draft.md\n',
    'src/app.ts': 'export function start(): void {}\n',
    'src/generated/api.ts': 'export function generatedClient(): void {}\n',
    'docs/guide.md': '# Guide\nHow to start the app.\n',
    'docs/generated/api.md': '# Generated API\nMachine-written reference.\n',
    'docs/api/client.md': '# Client\nThe client starts the app.\n',
    'docs/api/next.draft.md': '# Next\nNot published yet.\n',
    'docs/skipped/old.md': '# Old\nExcluded by the configuration.\n',
    '.context-oracle/graph/graph.yml': 'nodes:\n  - { ref_id: app, kind: service, summary: the app, source: src/, docs: [docs/] }\n',
  });
  roots.push(root);
  return root;
}

test('the index, the oracle docs and the graph doc folders list the same files under .gitignore and excludes', async () => {
  const root = workspace();
  const rules = { ...DEFAULT_CONFIG, exclude: ['docs/skipped/**'] };
  const code = await walkWorkspace(root, nodeFileSystem, rules, captureLogger());
  assert.deepEqual(code.files.map((f) => f.path), ['src/app.ts']);
  const docs = ['docs/api/client.md', 'docs/guide.md'];
  // The graph's doc folder listing hard-coded node_modules and read no .gitignore: it listed all five.
  assert.deepEqual(await listMarkdown(nodeFileSystem, root, rules, 'docs'), docs);
  const oracle = await createMarkdownCache().files(root, nodeFileSystem, { folders: [], exclude: rules.exclude, respectGitignore: true });
  assert.deepEqual(oracle.map((f) => f.path).sort(), docs);
  // A folder below the root: the .gitignore files above it still apply (docs/.gitignore hides the draft).
  assert.deepEqual(await listMarkdown(nodeFileSystem, root, rules, 'docs/api'), ['docs/api/client.md']);
  const inApi = await createMarkdownCache().files(root, nodeFileSystem, { folders: ['docs/api'], exclude: [], respectGitignore: true });
  assert.deepEqual(inApi.map((f) => f.path), ['docs/api/client.md']);
  // An ignored folder asked for by name is not walked either.
  assert.deepEqual(await listMarkdown(nodeFileSystem, root, rules, 'docs/generated'), []);
  // Without .gitignore the walk sees what it hid.
  assert.deepEqual(await listMarkdown(nodeFileSystem, root, { exclude: [], respectGitignore: false }, 'docs'),
    ['docs/api/client.md', 'docs/api/next.draft.md', 'docs/generated/api.md', 'docs/guide.md', 'docs/skipped/old.md']);
});

test("a node's doc folder in a bundle holds only the docs the index's rules let through", async () => {
  const root = workspace();
  const engine = testEngine(root);
  try {
    await engine.index();
    const { bundle } = await engine.contextBundle(['app']);
    assert.deepEqual([...new Set(bundle.text_chunks.map((c) => c.doc_path))].sort(), ['docs/api/client.md', 'docs/guide.md', 'docs/skipped/old.md']);
  } finally {
    await engine.dispose();
  }
});

test('workspace-relative paths are joined one way (path.posix): . and .. resolved, undefined above the root', () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['src/a', './b', 'src/a/b'], ['src/a', '../b/c', 'src/b/c'], ['src', '../../x', undefined], ['', '..', undefined],
    ['', 'a//b/', 'a/b'], ['a', '/x', 'a/x'], ['', '.', ''], ['a/b', '..', 'a'], ['', '..foo/x', '..foo/x'], ['a', '', 'a'],
  ];
  for (const [base, rel, want] of cases) assert.equal(resolveRelative(base, rel), want, `${base} + ${rel}`);
  assert.equal(normaliseRelative('docs\\api\\..\\guide.md'), 'docs/guide.md');
  assert.equal(normaliseRelative('../etc/passwd'), undefined);
});

test("the oracle's and navigation's line readers are one reader: same lines for a BOM, CRLF and a stray Latin-1 byte", async () => {
  const root = makeWorkspace({ 'src/a.ts': new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('const a = 1;\r\n// caf'), 0xe9, ...Buffer.from('\nconst b = 2;\n')]) });
  roots.push(root);
  const want = ['const a = 1;', '// caf\uFFFD', 'const b = 2;', ''];
  assert.deepEqual(await createFileCache(root, nodeFileSystem).lines('src/a.ts'), want);
  assert.deepEqual(await createLineReader(nodeFileSystem, root).lines('src/a.ts'), want);
  assert.equal(await createFileCache(root, nodeFileSystem).lines('missing.ts'), undefined);
});
