// Layer boundaries, enforced rather than reviewed (see docs/architecture.md):
//  1. src/core imports neither 'vscode' nor any host layer (cli, mcp, server, extension, node).
//  2. webview-ui imports nothing from src/ except src/protocol.
//  3. the hosts (cli, mcp, server, extension), src/node and src/protocol reach the engine only through its public
//     module src/core/index.ts; src/protocol only with `import type`/`export type`, because webview-ui bundles it.
//  4. nothing under src/core/<dir>/ imports the façade (src/core/engine): capabilities get their peers passed in.
//  5. no test is narrowed with .only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) { if (name !== 'fixtures' && name !== 'node_modules') out.push(...files(p)); }
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name)) out.push(p);
  }
  return out;
}
const problems = [];
const importRe = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g;
for (const f of files('src/core')) {
  for (const [, spec] of readFileSync(f, 'utf8').matchAll(importRe)) {
    if (spec === 'vscode') problems.push(`${f}: src/core must not import 'vscode'`);
    if (/(^|\/)\.\.\/(cli|mcp|server|extension|node|protocol)(\/|$)/.test(spec)) problems.push(`${f}: src/core must not import host layer ${spec}`);
    if (dirname(f) !== join('src', 'core') && spec.startsWith('.') && resolve(dirname(f), spec).replace(/\.[mc]?[jt]s$/, '') === resolve('src/core/engine')) {
      problems.push(`${f}: only the hosts' side imports the façade; a capability gets its peers passed in (${spec})`);
    }
  }
}
for (const f of files('webview-ui')) {
  for (const [, spec] of readFileSync(f, 'utf8').matchAll(importRe)) {
    if (spec.startsWith('.') && spec.includes('/src/') && !spec.includes('/src/protocol')) problems.push(`${f}: webview-ui may only import src/protocol (${spec})`);
    if (spec === 'vscode') problems.push(`${f}: webview-ui must not import 'vscode'`);
  }
}
const publicCore = ['src/core', 'src/core/index'];
const statementRe = /\b(?:import|export)\s+(type\s+)?(?:\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+)\s+from\s+['"]([^'"]+)['"]/g;
for (const dir of ['src/cli', 'src/mcp', 'src/server', 'src/extension', 'src/node', 'src/protocol', 'webview-ui']) {
  for (const f of files(dir)) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(importRe)) {
      const spec = m[1];
      if (!spec.startsWith('.')) continue;
      const target = relative('.', join(dirname(f), spec)).split('\\').join('/');
      if (target !== 'src/core' && !target.startsWith('src/core/')) continue;
      if (!publicCore.includes(target)) problems.push(`${f}: import the engine through src/core/index.ts, not ${spec}`);
    }
    // src/protocol is bundled into the browser: it may name engine types, never pull engine code.
    if (dir !== 'src/protocol') continue;
    for (const [statement, typeOnly, spec] of text.matchAll(statementRe)) {
      if (publicCore.includes(relative('.', join(dirname(f), spec)).split('\\').join('/')) && !typeOnly) {
        problems.push(`${f}: src/protocol takes engine types only (import type / export type): ${statement.split('\n')[0]}`);
      }
    }
  }
}
for (const f of files('test')) {
  if (/\b(it|describe|test|suite)\.only\(/.test(readFileSync(f, 'utf8'))) problems.push(`${f}: a test is narrowed with .only`);
}
if (problems.length) { console.error(problems.join('\n')); process.exit(1); }
console.log(`boundaries ok (${files('src').length} source files checked)`);
