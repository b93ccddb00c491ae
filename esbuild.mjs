// One build script, named targets: extension, server, cli, worker, webview, tests (and `assets`).
// usage: node esbuild.mjs [target...]   (no target = everything but tests)
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const production = process.env.NODE_ENV === 'production';
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  minify: production,
  logLevel: 'warning',
  // web-tree-sitter and sql.js mention these Node builtins only on paths we never take in Node.
  external: ['vscode'],
  plugins: [],
};

/** The engine never imports the editor: fail the build when anything under src/core reaches 'vscode'. */
const coreBoundary = {
  name: 'core-boundary',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => {
      if (args.importer.includes(`${join('src', 'core')}`)) {
        return { errors: [{ text: `src/core must not import 'vscode' (imported by ${args.importer})` }] };
      }
      return undefined;
    });
  },
};
/**
 * esbuild resolves `import` statements with the "import" condition, which picks web-tree-sitter's ESM build; that
 * build needs import.meta.url, which a CommonJS bundle does not have. Point it at the CommonJS build instead.
 */
const treeSitterCjs = {
  name: 'web-tree-sitter-cjs',
  setup(build) {
    build.onResolve({ filter: /^web-tree-sitter$/ }, () => ({ path: resolve('node_modules/web-tree-sitter/tree-sitter.cjs') }));
  },
};
common.plugins.push(coreBoundary, treeSitterCjs);
/**
 * The tokenizer's tables are 2.9 MB of the 5.2 MB CLI bundle, and V8 reads and pre-parses a whole bundle at every
 * start though core/tokens.ts requires the tokenizer only on first count: the host bundles require it from its own
 * file next to them (dist/gpt-tokenizer.js, built with them) instead. Tests and benches still bundle it.
 */
const tokenizerApart = {
  name: 'tokenizer-apart',
  setup(build) {
    build.onResolve({ filter: /^gpt-tokenizer$/ }, () => ({ path: './gpt-tokenizer.js', external: true }));
  },
};
const tokenizerTarget = { entryPoints: { 'gpt-tokenizer': 'gpt-tokenizer' }, outdir: 'dist' };

const targets = {
  extension: { entryPoints: { extension: 'src/extension/extension.ts' }, outdir: 'dist' },
  server: { entryPoints: { server: 'src/server/server.ts' }, outdir: 'dist' },
  cli: { entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
  worker: { entryPoints: { 'parse-worker': 'src/node/parse-worker.ts' }, outdir: 'dist' },
  webview: { entryPoints: { webview: 'webview-ui/main.ts' }, outdir: 'dist', platform: 'browser', format: 'iife', external: [] },
};

function copyAssets() {
  mkdirSync('dist/grammars', { recursive: true });
  mkdirSync('dist/queries', { recursive: true });
  const vsc = 'node_modules/@vscode/tree-sitter-wasm/wasm';
  const tsw = 'node_modules/tree-sitter-wasms/out';
  const grammarSources = {
    'tree-sitter-typescript.wasm': vsc, 'tree-sitter-tsx.wasm': vsc, 'tree-sitter-javascript.wasm': vsc,
    'tree-sitter-python.wasm': vsc, 'tree-sitter-go.wasm': vsc, 'tree-sitter-rust.wasm': vsc,
    'tree-sitter-java.wasm': vsc, 'tree-sitter-cpp.wasm': vsc,
    'tree-sitter-c.wasm': tsw, 'tree-sitter-kotlin.wasm': tsw, 'tree-sitter-swift.wasm': tsw, 'tree-sitter-objc.wasm': tsw,
    'tree-sitter-c_sharp.wasm': tsw, 'tree-sitter-ruby.wasm': tsw, 'tree-sitter-php.wasm': tsw,
  };
  for (const [file, dir] of Object.entries(grammarSources)) cpSync(join(dir, file), join('dist/grammars', file));
  for (const f of readdirSync('src/core/parse/queries')) cpSync(join('src/core/parse/queries', f), join('dist/queries', f));
  cpSync('node_modules/web-tree-sitter/tree-sitter.wasm', 'dist/tree-sitter.wasm');
  cpSync('node_modules/sql.js/dist/sql-wasm.wasm', 'dist/sql-wasm.wasm');
}

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      // fixture workspaces hold sample sources, not tests (test/integration/fixture-workspace is opened in VS Code)
      if (name !== 'fixtures' && name !== 'fixture-workspace') out.push(...findTests(p));
    } else if (/\.(test|suite)\.ts$/.test(name) || (dir.includes('integration') && name.endsWith('.ts'))) out.push(p);
  }
  return out;
}

// Every test process (and every CLI or server it starts, which inherit the environment) keeps its caches in a
// temporary folder, never in the user's real cache; the process that made it removes it when it exits. Not inside
// VS Code (the integration suite): its harness gives the editor its own cache folder.
const TEST_CACHE_BANNER = `{
  const { mkdtempSync, rmSync } = require('node:fs'), { tmpdir } = require('node:os'), { join } = require('node:path');
  if (!process.env.CONTEXT_ORACLE_TEST_CACHE && !process.versions.electron) {
    const dir = mkdtempSync(join(tmpdir(), 'co-test-cache-'));
    process.env.CONTEXT_ORACLE_TEST_CACHE = process.env.XDG_CACHE_HOME = process.env.LOCALAPPDATA = dir;
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
}`;

async function buildTests() {
  const entries = Object.fromEntries(findTests('test').map((p) => [relative('test', p).replace(/\.ts$/, ''), p]));
  await esbuild.build({ ...common, entryPoints: entries, outdir: 'out/test', external: ['vscode', 'mocha'], banner: { js: TEST_CACHE_BANNER } });
}

const requested = process.argv.slice(2);
const names = requested.length ? requested : ['assets', ...Object.keys(targets)];
for (const name of names) {
  if (name === 'assets') copyAssets();
  else if (name === 'webview') {
    await esbuild.build({ ...common, ...targets.webview, external: [] });
    // The panel's icon font, served from dist/ (the webview's localResourceRoots are dist/ and media/).
    mkdirSync('dist/codicons', { recursive: true });
    for (const f of ['codicon.css', 'codicon.ttf']) cpSync(join('node_modules/@vscode/codicons/dist', f), join('dist/codicons', f));
  }
  else if (name === 'tests') await buildTests();
  else if (name === 'bench') await esbuild.build({ ...common, entryPoints: { scale: 'scripts/bench/scale.ts', questions: 'scripts/bench/questions.ts', 'parse-floor': 'scripts/bench/parse-floor.ts', 'write-path': 'scripts/bench/write-path.ts' }, outdir: 'out/bench' });
  else if (targets[name]) {
    const t = targets[name];
    const apart = name === 'extension' || name === 'server' || name === 'cli';
    await esbuild.build({ ...common, ...t, external: t.external ?? common.external, ...(apart ? { plugins: [...common.plugins, tokenizerApart] } : {}) });
    if (apart) await esbuild.build({ ...common, ...tokenizerTarget });
    if (name === 'cli') copyAssets();
  } else {
    console.error(`unknown target ${name}; known: assets, tests, ${Object.keys(targets).join(', ')}`);
    process.exit(2);
  }
}
