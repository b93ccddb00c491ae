/**
 * The ranker's per-file features (src/core/context/features.ts) on a small real index (sql.js + tree-sitter): each
 * new feature fires on the file it is meant for and not on a near miss.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectEvidence } from '../../src/core/context/evidence';
import { analyseQuestion } from '../../src/core/question/analysis';
import { fileFeatures, questionForms, type FeatureVector } from '../../src/core/context/features';
import { applyCutoff, rankFiles } from '../../src/core/context/rank-files';
import { DEFAULT_MIN_RELEVANCE } from '../../src/core/context/context';
import { DEFAULT_WEIGHTS } from '../../src/core/context/types';
import type { IndexDatabase } from '../../src/core/store/database';
import { removeWorkspace } from '../helpers/workspace';
import { indexedWorkspace } from '../helpers/indexed-workspace';

const FILES = {
  'lib/body-limit.js': 'function bodyLimit(max) { return (req) => req.length <= max; }\nmodule.exports = { bodyLimit };\n',
  'lib/body-limit-error.js': 'const { bodyLimit } = require("./body-limit");\nclass BodyLimitError extends Error { limit() { return bodyLimit(1); } }\nmodule.exports = { BodyLimitError };\n',
  'lib/router.js': 'const { bodyLimit } = require("./body-limit");\nfunction route(path) { return bodyLimit(path.length); }\nmodule.exports = { route };\n',
  'src/main/java/org/acme/SessionStore.java': 'package org.acme;\npublic class SessionStore { int size() { return 0; } }\n',
  'src/main/java/org/acme/Server.java': 'package org.acme;\npublic class Server { SessionStore store = new SessionStore(); int load() { return store.size(); } }\n',
  'binding/json.go': 'package binding\n\nfunc decodeJSON(b []byte) error { return nil }\n',
  'render/json.go': 'package render\n\nfunc writeJSON(b []byte) error { return nil }\n',
  'crates/parser/src/lib.rs': 'pub fn parse_args(input: &str) -> usize { input.len() }\n',
  'crates/lexer/src/lib.rs': 'pub fn lex_args(input: &str) -> usize { input.len() }\n',
  'poetry/installation/__init__.py': 'def install_wheel(path):\n    return path\n',
  'poetry/console/__init__.py': 'def console_wheel(path):\n    return path\n',
  'src/zmalloc.c': '#include "zmalloc.h"\nvoid *zmalloc_usable(unsigned long size) { return 0; }\n',
  'src/zmalloc.h': 'void *zmalloc_usable(unsigned long size);\n',
  'src/sds.h': 'char *sdsnew(const char *init);\n',
  'src/cart/checkout.ts': 'export function checkout(total: number) { return total * 2; }\n',
  'test/cart/checkout.test.ts': "import { checkout } from '../../src/cart/checkout';\nit('checks out', () => checkout(1));\n",
  'src/cart/pricing.ts': 'export function price(total: number) { return total + 1; }\n',
  'src/config/defaults.ts': 'export const timeoutDefault = 30;\nexport const retryDefault = 3;\nexport function defaults() { return { timeoutDefault, retryDefault }; }\n',
  'src/config/keepalive.ts': 'export const keepaliveProbeInterval = 15;\nexport function defaults2() { return keepaliveProbeInterval; }\n',
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`pad/p${i}.ts`, `export function defaults${i}() { return ${i}; }\n`])),
};

let root = '';
let db: IndexDatabase;

before(async () => {
  ({ root, db } = await indexedWorkspace(FILES));
});
after(() => removeWorkspace(root));

/** Every listed file's features for `question`, by path. */
function featuresFor(question: string): Map<string, FeatureVector> {
  const ev = collectEvidence(db, analyseQuestion(question));
  const ranked = applyCutoff(rankFiles(ev, DEFAULT_WEIGHTS), DEFAULT_MIN_RELEVANCE).files;
  const feats = fileFeatures(ev, ranked);
  return new Map(ranked.map((r, i) => [r.path, feats[i]!]));
}

function value(fs: Map<string, FeatureVector>, path: string, name: keyof FeatureVector): number {
  const f = fs.get(path);
  assert.ok(f, `${path} is listed (listed: ${[...fs.keys()].join(', ')})`);
  return f[name];
}

describe('context features', () => {
  it('stemExactMulti: a kebab-case name in the question meets its file, not the longer stem', () => {
    const fs = featuresFor('fix body-limit rejecting requests at exactly the limit');
    assert.equal(value(fs, 'lib/body-limit.js', 'stemExactMulti'), 1);
    assert.equal(value(fs, 'lib/body-limit-error.js', 'stemExactMulti'), 0);
    assert.ok(value(fs, 'lib/body-limit-error.js', 'stemParts') > 0, 'the longer stem still shares words');
  });

  it('definesType and classFile: the file that defines a named class, not the one that uses it', () => {
    const fs = featuresFor('SessionStore loses its size after reload');
    const def = 'src/main/java/org/acme/SessionStore.java';
    const use = 'src/main/java/org/acme/Server.java';
    assert.equal(value(fs, def, 'definesType'), 1);
    assert.equal(value(fs, def, 'classFile'), 1);
    assert.equal(value(fs, def, 'definesUnique'), 1);
    assert.equal(value(fs, def, 'stemIsName'), 1);
    assert.equal(value(fs, use, 'definesType'), 0);
    assert.equal(value(fs, use, 'classFile'), 0);
    assert.equal(value(fs, use, 'usesOnly'), 1);
  });

  it('goPackage: the Go package folder the question names', () => {
    const fs = featuresFor('binding: decode JSON bodies with a trailing newline');
    assert.equal(value(fs, 'binding/json.go', 'goPackage'), 1);
    assert.equal(value(fs, 'render/json.go', 'goPackage'), 0);
  });

  it('moduleFile: a crate named by its folder (lib.rs) and a Python package (__init__.py)', () => {
    const rust = featuresFor('parser: parse_args miscounts input args');
    assert.equal(value(rust, 'crates/parser/src/lib.rs', 'moduleFile'), 1);
    if (rust.has('crates/lexer/src/lib.rs')) assert.equal(value(rust, 'crates/lexer/src/lib.rs', 'moduleFile'), 0);
    const py = featuresFor('installation: install_wheel breaks on wheel paths');
    assert.equal(value(py, 'poetry/installation/__init__.py', 'moduleFile'), 1);
    if (py.has('poetry/console/__init__.py')) assert.equal(value(py, 'poetry/console/__init__.py', 'moduleFile'), 0);
  });

  it('headerPair: a C source scores its header counterpart, an unrelated header none', () => {
    const fs = featuresFor('zmalloc_usable returns the wrong usable size');
    assert.ok(value(fs, 'src/zmalloc.c', 'headerPair') > 0);
    assert.ok(value(fs, 'src/zmalloc.h', 'headerPair') > 0);
    if (fs.has('src/sds.h')) assert.equal(value(fs, 'src/sds.h', 'headerPair'), 0);
  });

  it('testPair and testNamed: a source file and its test map to each other', () => {
    const fs = featuresFor('checkout.test fails: checkout doubles the total');
    assert.ok(value(fs, 'src/cart/checkout.ts', 'testPair') > 0);
    assert.ok(value(fs, 'test/cart/checkout.test.ts', 'testPair') > 0);
    assert.equal(value(fs, 'src/cart/checkout.ts', 'testNamed'), 1);
    if (fs.has('src/cart/pricing.ts')) assert.equal(value(fs, 'src/cart/pricing.ts', 'testNamed'), 0);
  });

  it('specific and rarest: the rare name outweighs the common words of a long body', () => {
    const q = 'change defaults\n\nThe defaults were changed so that the defaults are now the defaults for keepaliveProbeInterval.';
    const fs = featuresFor(q);
    assert.equal(value(fs, 'src/config/keepalive.ts', 'rarest'), 1);
    assert.equal(value(fs, 'src/config/defaults.ts', 'rarest'), 0);
    assert.ok(value(fs, 'src/config/keepalive.ts', 'specific') > value(fs, 'src/config/defaults.ts', 'specific'));
  });

  it('questionForms: identifiers, word runs and named tests, case style ignored', () => {
    const qf = questionForms('TestBodyLimit fails for body limit in `bodyLimit`');
    assert.ok(qf.forms.has('bodylimit'));
    assert.ok(qf.tests.has('bodylimit'));
    assert.ok(qf.names.has('bodylimit'), 'a code-formatted name is a name');
    assert.ok(!qf.names.has('fails') && !qf.tests.has('fails'), 'a plain word is neither');
  });
});
