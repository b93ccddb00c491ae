// Layer boundaries, enforced rather than reviewed (see docs/architecture.md):
//  1. src/core imports neither 'vscode' nor any host layer (cli, mcp, server, extension, node).
//  2. webview-ui imports nothing from src/ except src/protocol.
//  3. nothing under src/core/<dir>/ imports the façade (src/core/engine): capabilities get their peers passed in.
//  4. no test is narrowed with .only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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
for (const f of files('test')) {
  if (/\b(it|describe|test|suite)\.only\(/.test(readFileSync(f, 'utf8'))) problems.push(`${f}: a test is narrowed with .only`);
}
if (problems.length) { console.error(problems.join('\n')); process.exit(1); }
console.log(`boundaries ok (${files('src').length} source files checked)`);
