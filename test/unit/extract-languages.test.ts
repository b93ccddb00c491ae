/**
 * Tags queries per language, through the real grammars: a golden projection of each fixture under
 * test/fixtures/languages/<lang>/ (UPDATE_GOLDEN=1 rewrites test/golden/extract/<lang>.json), targeted asserts on
 * the things each language makes hard, and robustness on broken and pathological input.
 * Needs a build first: `node esbuild.mjs cli worker tests` (dist/ holds the grammars and the queries).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createInProcessParserHost } from '../../src/core/parse/in-process-parser-host';
import { languageForPath } from '../../src/core/parse/languages';
import type { ExtractedSymbol, ParseResult } from '../../src/core/parse/types';
import { createNodeAssetLocator } from '../../src/node/assets';
import { ASSET_ROOT, REPO_ROOT } from '../helpers/workspace';
import { assertGoldenJson } from '../helpers/golden';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/languages');
const GOLDEN = join(REPO_ROOT, 'test/golden/extract');
const host = createInProcessParserHost(createNodeAssetLocator(ASSET_ROOT));

async function parse(path: string, text: string, language = languageForPath(path)?.id): Promise<ParseResult> {
  assert.ok(language, `no language for ${path}`);
  const [result] = await host.parse([{ path, language, text }]);
  assert.ok(result);
  return result;
}

async function parseFixture(lang: string, file: string): Promise<ParseResult> {
  const result = await parse(`${lang}/${file}`, readFileSync(join(FIXTURES, lang, file), 'utf8'));
  assert.equal(result.error, undefined, `${lang}/${file}: ${result.error?.message}`);
  return result;
}

/** One line per symbol, own annotations only (file-level ones are listed once), so a golden reads like a table. */
function project(r: ParseResult) {
  const own = (s: ExtractedSymbol) =>
    Object.entries(s.annotations).filter(([k, v]) => r.fileAnnotations[k] !== v).map(([k, v]) => `${k}=${v}`);
  const references: Record<string, number> = {};
  for (const ref of r.references) references[ref.kind] = (references[ref.kind] ?? 0) + 1;
  return {
    language: r.language,
    hasSyntaxErrors: r.hasSyntaxErrors,
    fileAnnotations: r.fileAnnotations,
    symbols: r.symbols.map((s) => {
      const ann = own(s);
      return `${s.lineStart}-${s.lineEnd} @${s.nameLine} ${s.kind} ${s.qualifiedName}${ann.length ? ` {${ann.join(', ')}}` : ''}`;
    }),
    imports: r.imports.map((i) => `${i.line} ${i.source}${i.names.length ? `: ${i.names.join(', ')}` : ''}`),
    references: Object.fromEntries(Object.entries(references).sort(([a], [b]) => a.localeCompare(b))),
    chunks: r.chunks.length,
  };
}

const languages = readdirSync(FIXTURES).sort();

for (const lang of languages) {
  test(`golden: ${lang}`, async () => {
    const actual: Record<string, ReturnType<typeof project>> = {};
    for (const file of readdirSync(join(FIXTURES, lang)).sort()) actual[file] = project(await parseFixture(lang, file));
    assertGoldenJson(join(GOLDEN, `${lang}.json`), actual);
  });
}

test('every language in the table has a fixture', () => {
  for (const id of ['typescript', 'tsx', 'javascript', 'jsx', 'python', 'go', 'rust', 'java', 'kotlin', 'swift', 'objc', 'c', 'cpp', 'csharp', 'ruby', 'php']) {
    assert.ok(languages.includes(id), `no fixture for ${id}`);
  }
});

function symbol(r: ParseResult, qualifiedName: string, nameLine?: number): ExtractedSymbol {
  const found = r.symbols.find((s) => s.qualifiedName === qualifiedName && (nameLine === undefined || s.nameLine === nameLine));
  assert.ok(found, `${r.path}: no ${qualifiedName}${nameLine ? ` at ${nameLine}` : ''} in ${r.symbols.map((s) => s.qualifiedName).join(', ')}`);
  return found;
}

function hasReference(r: ParseResult, name: string, kind: string, inSymbol?: string): boolean {
  return r.references.some((ref) => ref.name === name && ref.kind === kind && (inSymbol === undefined || ref.inSymbol === inSymbol));
}

test('python: decorated methods span their decorators, annotations attach to the class below them', async () => {
  const r = await parseFixture('python', 'billing.py');
  const makeId = symbol(r, 'InvoiceService.make_id');
  assert.equal(makeId.kind, 'method');
  assert.deepEqual([makeId.lineStart, makeId.nameLine], [34, 35]);
  assert.equal(symbol(r, 'Invoice').lineStart, 18, '@dataclass belongs to the class');
  assert.deepEqual(symbol(r, 'InvoiceService').annotations, { domain: 'billing', feature: 'issue', owner: 'payments' });
  assert.deepEqual(symbol(r, 'Invoice').annotations, { domain: 'billing' }, 'feature= is not leaked to other symbols');
  assert.equal(symbol(r, 'MAX_LINES').kind, 'constant');
  assert.equal(symbol(r, 'load_config.parse').kind, 'function', 'a def inside a def is not a method');
  assert.deepEqual(r.imports.find((i) => i.source === '.store')?.names, ['Store', 'save']);
  assert.ok(hasReference(r, 'Invoice', 'class', 'InvoiceService.issue'), 'Invoice(...) instantiates');
  assert.ok(hasReference(r, 'Notifier', 'class', 'InvoiceService'), 'superclass');
});

test('go: methods are qualified by their receiver type; grouped type specs each get their own symbol', async () => {
  const r = await parseFixture('go', 'server.go');
  const listen = symbol(r, 'Server.Listen');
  assert.equal(listen.kind, 'method');
  assert.equal(listen.container, 'Server');
  assert.equal(symbol(r, 'HandlerFunc.Serve').container, 'HandlerFunc', 'value receiver');
  assert.deepEqual([symbol(r, 'Request').kind, symbol(r, 'Request').lineStart], ['struct', 30]);
  assert.equal(symbol(r, 'HandlerFunc').kind, 'type');
  assert.equal(symbol(r, 'Handler').kind, 'interface');
  assert.equal(symbol(r, 'ModeProd').kind, 'constant');
  assert.deepEqual(symbol(r, 'Server').annotations, { domain: 'network', feature: 'listen', owner: 'net-team' });
  assert.deepEqual(r.imports.find((i) => i.source === 'net/http')?.names, ['nethttp']);
  assert.ok(hasReference(r, 'Server', 'class', 'NewServer'), '&Server{} instantiates');
  assert.ok(!r.references.some((ref) => ref.name === 'string'), 'predeclared types are not references');
});

test('rust: impl blocks qualify their items; trait impls are implementation references; macro_rules! defines', async () => {
  const r = await parseFixture('rust', 'parser.rs');
  assert.equal(symbol(r, 'Parser.new').kind, 'method');
  assert.equal(symbol(r, 'Parser.new').container, 'Parser');
  assert.equal(symbol(r, 'Flag.fmt').container, 'Flag', 'impl Display for Flag');
  assert.ok(hasReference(r, 'Display', 'implementation'));
  assert.equal(symbol(r, 'flag').kind, 'macro');
  assert.equal(symbol(r, 'tests.sample').kind, 'function', 'a function in a module is not a method');
  assert.equal(symbol(r, 'Visitor.done').kind, 'method');
  assert.equal(symbol(r, 'MAX_ARGS').kind, 'constant');
  assert.deepEqual(symbol(r, 'Parser').annotations, { domain: 'cli', feature: 'parse', owner: 'cli-team' });
  assert.deepEqual(r.imports.find((i) => i.source === 'std::fmt')?.names, ['Display']);
});

test('java: nested classes, constructors, inheritance and implementation', async () => {
  const r = await parseFixture('java', 'InventoryService.java');
  assert.equal(symbol(r, 'InventoryService.compareTo').kind, 'method');
  assert.equal(symbol(r, 'InventoryService.Snapshot.Snapshot').kind, 'method');
  assert.equal(symbol(r, 'InventoryService.MAX_ITEMS').kind, 'constant');
  assert.ok(hasReference(r, 'BaseService', 'class', 'InventoryService'));
  assert.ok(hasReference(r, 'Auditable', 'implementation', 'InventoryService'));
  assert.ok(hasReference(r, 'StockChanged', 'class', 'InventoryService.add'));
  assert.deepEqual(symbol(r, 'InventoryService').annotations, { domain: 'inventory', feature: 'stock', owner: 'warehouse' });
  assert.deepEqual(r.imports.find((i) => i.line === 8), { source: 'java.util.Objects', names: ['requireNonNull'], line: 8 });
});

test('kotlin: interface and enum classes keep their kind; extension functions belong to the receiver', async () => {
  const r = await parseFixture('kotlin', 'Payments.kt');
  assert.equal(symbol(r, 'Gateway').kind, 'interface');
  assert.equal(symbol(r, 'Status').kind, 'enum');
  assert.equal(symbol(r, 'Registry').kind, 'object');
  assert.equal(symbol(r, 'Receipt.describe').container, 'Receipt');
  assert.equal(symbol(r, 'PaymentService.create').kind, 'method', 'companion object members belong to the class');
  assert.ok(hasReference(r, 'BaseService', 'class', 'PaymentService'));
  assert.ok(hasReference(r, 'Gateway', 'implementation', 'PaymentService'));
});

test('kotlin: a `fun interface` is an interface with its members, not an extension function of `interface`', async () => {
  const r = await parseFixture('kotlin', 'Interceptor.kt');
  const interceptor = symbol(r, 'Interceptor');
  assert.equal(interceptor.kind, 'interface');
  assert.deepEqual([interceptor.nameLine, interceptor.lineStart, interceptor.lineEnd], [6, 6, 19], 'the whole body belongs to it');
  assert.equal(symbol(r, 'Interceptor.intercept').kind, 'method');
  assert.equal(symbol(r, 'Interceptor.Chain').kind, 'interface');
  assert.equal(symbol(r, 'Interceptor.Chain.proceed').kind, 'method');
  assert.equal(symbol(r, 'Authenticator').kind, 'interface');
  assert.equal(r.symbols.some((s) => s.container === 'interface'), false);
  assert.equal(r.hasSyntaxErrors, false);
  assert.ok(hasReference(r, 'Interceptor', 'implementation', 'LoggingInterceptor'));
});

test('kotlin: an import followed by a comment keeps its name (the grammar makes the comment part of the import)', async () => {
  const r = await parse('kotlin/Imports.kt', 'package a\n\nimport x.y.Z // why\nimport x.y.W as V /* c */\nimport x.q.* // all\nimport x.r.T\n/** The class. */\nclass A\n');
  assert.deepEqual(r.imports.map((i) => `${i.line} ${i.source}: ${i.names.join(', ')}`), ['3 x.y.Z: Z', '4 x.y.W: W', '5 x.q: ', '6 x.r.T: T']);
});

test('swift: struct/enum/protocol kinds, extension members qualified by the extended type', async () => {
  const r = await parseFixture('swift', 'Library.swift');
  assert.equal(symbol(r, 'Book').kind, 'struct');
  assert.equal(symbol(r, 'LoanState').kind, 'enum');
  assert.equal(symbol(r, 'Catalog').kind, 'protocol');
  assert.equal(symbol(r, 'Book.describe').container, 'Book');
  assert.equal(symbol(r, 'LibraryService.init').kind, 'method');
  assert.deepEqual(symbol(r, 'LibraryService').annotations, { domain: 'library', feature: 'lending', owner: 'library-team' });
});

test('objc: @implementation and category methods are qualified by their class', async () => {
  const r = await parseFixture('objc', 'Store.m');
  assert.equal(symbol(r, 'Store').kind, 'class');
  assert.equal(symbol(r, 'Persisting').kind, 'protocol');
  assert.equal(symbol(r, 'Store.sharedStore', 39).kind, 'method');
  assert.equal(symbol(r, 'Store.exportData', 55).container, 'Store', 'category implementation');
  assert.equal(symbol(r, 'log_event').kind, 'function');
  assert.ok(hasReference(r, 'Store', 'class', 'Store.sharedStore'), '[Store alloc] instantiates');
});

test('c: names inside declarators, typedefs, macros on one line', async () => {
  const r = await parseFixture('c', 'queue.c');
  assert.equal(symbol(r, 'queue_names').kind, 'function', 'char **f(): pointer > pointer > function declarator');
  assert.equal(symbol(r, 'node_new', 46).lineEnd, 51);
  assert.deepEqual([symbol(r, 'QUEUE_MAX').kind, symbol(r, 'QUEUE_MAX').lineEnd], ['constant', 7]);
  assert.equal(symbol(r, 'default_capacity').kind, 'constant');
  assert.equal(symbol(r, 'queue_count').kind, 'variable');
  assert.equal(symbol(r, 'compare_fn').kind, 'type');
  assert.deepEqual(symbol(r, 'queue_push').annotations, { domain: 'runtime', feature: 'enqueue', owner: 'core-team' });
  assert.deepEqual(r.imports.map((i) => i.source), ['stdlib.h', 'string.h', 'queue.h']);
});

test('cpp: out-of-line members join their class inside the namespace', async () => {
  const r = await parseFixture('cpp', 'scheduler.cpp');
  const submit = symbol(r, 'sched.Scheduler.submit', 43);
  assert.equal(submit.kind, 'method');
  assert.equal(submit.container, 'sched.Scheduler');
  assert.equal(symbol(r, 'sched.Scheduler.pending').kind, 'method');
  assert.equal(symbol(r, 'sched.kMaxWorkers').kind, 'constant');
  assert.equal(symbol(r, 'sched.clamp').kind, 'function', 'a function in a namespace is not a method');
  assert.ok(hasReference(r, 'Base', 'class', 'sched.Scheduler'));
  assert.ok(hasReference(r, 'Task', 'class', 'main'), 'new Task()');
});

test('csharp: members qualified by namespace and class; const fields are constants; IName bases are implementations', async () => {
  const r = await parseFixture('csharp', 'OrderService.cs');
  assert.equal(symbol(r, 'Shop.Orders').kind, 'module');
  assert.equal(symbol(r, 'Shop.Orders.Money').kind, 'struct');
  assert.equal(symbol(r, 'Shop.Orders.IOrderStore').kind, 'interface');
  assert.equal(symbol(r, 'Shop.Orders.OrderService.OrderService').kind, 'method', 'constructor');
  assert.equal(symbol(r, 'Shop.Orders.OrderService.MaxLines').kind, 'constant');
  assert.equal(symbol(r, 'Shop.Orders.OrderService._orders').kind, 'field');
  assert.equal(symbol(r, 'Shop.Orders.OrderService.Audit.Describe').kind, 'method');
  assert.deepEqual(symbol(r, 'Shop.Orders.OrderService').annotations, { domain: 'orders', feature: 'checkout', owner: 'orders-team' });
  assert.ok(hasReference(r, 'ServiceBase', 'class', 'Shop.Orders.OrderService'));
  assert.ok(hasReference(r, 'IOrderStore', 'implementation', 'Shop.Orders.OrderService'));
  assert.ok(hasReference(r, 'Money', 'class', 'Shop.Orders.OrderService.Place'), 'new Money(...)');
  assert.ok(hasReference(r, 'Invoke', 'call', 'Shop.Orders.OrderService.Place'), 'Placed?.Invoke(...)');
  assert.deepEqual(r.imports.find((i) => i.line === 6), { source: 'System.Text.Json', names: ['JsonSerializer'], line: 6 });
});

test('ruby: def is a method in a class and a function in a module; Foo.new instantiates; require paths', async () => {
  const r = await parseFixture('ruby', 'order_service.rb');
  assert.equal(symbol(r, 'Shop').kind, 'module');
  assert.equal(symbol(r, 'Shop.OrderService.place').kind, 'method');
  assert.equal(symbol(r, 'Shop.OrderService.build').kind, 'method', 'def self.build in a class');
  assert.equal(symbol(r, 'Shop.Reports.summary').kind, 'function', 'def self.summary in a module');
  assert.equal(symbol(r, 'Shop.OrderPlaced').kind, 'class', 'class Shop::OrderPlaced');
  assert.equal(symbol(r, 'Shop.MAX_LINES').kind, 'constant');
  assert.deepEqual(['orders', 'logger'].map((n) => symbol(r, `Shop.OrderService.${n}`).kind), ['field', 'field'], 'attr_reader :orders, :logger');
  assert.ok(hasReference(r, 'ServiceBase', 'class', 'Shop.OrderService'));
  assert.ok(hasReference(r, 'Comparable', 'implementation', 'Shop.OrderService'), 'include Comparable');
  assert.ok(hasReference(r, 'Money', 'class', 'Shop.OrderService.place'), 'Money.new');
  assert.ok(hasReference(r, 'notify', 'call', 'Shop.OrderService.place'));
  assert.ok(!r.references.some((ref) => ref.name === 'new' || ref.name === 'require'), 'new and require are not calls to a definition');
  assert.deepEqual(r.imports.map((i) => i.source), ['json', 'models/order', '../lib/money']);
});

test('php: traits, enums, promoted interfaces; use statements with groups and aliases; require_once', async () => {
  const r = await parseFixture('php', 'OrderService.php');
  assert.equal(symbol(r, 'Auditable').kind, 'trait');
  assert.equal(symbol(r, 'OrderState').kind, 'enum');
  assert.equal(symbol(r, 'OrderService.__construct').kind, 'method');
  assert.equal(symbol(r, 'OrderService.MAX_RETRIES').kind, 'constant');
  assert.equal(symbol(r, 'OrderService.orders').kind, 'field');
  assert.equal(symbol(r, 'format_order').kind, 'function');
  assert.deepEqual(symbol(r, 'OrderService').annotations, { domain: 'orders', feature: 'checkout', owner: 'orders-team' });
  assert.ok(hasReference(r, 'ServiceBase', 'class', 'OrderService'));
  assert.ok(hasReference(r, 'OrderStore', 'implementation', 'OrderService'));
  assert.ok(hasReference(r, 'Auditable', 'implementation', 'OrderService'), 'use Auditable;');
  assert.ok(hasReference(r, 'Money', 'class', 'OrderService.place'), 'new Money(...)');
  assert.ok(hasReference(r, 'audit', 'call', 'OrderService.find'), '$this->audit()');
  assert.deepEqual(r.imports.find((i) => i.line === 7)?.names, ['Money', 'Currency']);
  assert.deepEqual(r.imports.find((i) => i.line === 8), { source: 'Psr\\Log\\LoggerInterface', names: ['LoggerInterface'], line: 8 });
  assert.deepEqual(r.imports.slice(3).map((i) => i.source), ['/helpers.php', 'legacy/bootstrap.php']);
});

test('typescript: overloads, declare function, named function expressions, default exports', async () => {
  const r = await parseFixture('typescript', 'service.ts');
  assert.deepEqual(r.symbols.filter((s) => s.name === 'parseId').map((s) => s.nameLine), [26, 27, 28]);
  assert.equal(symbol(r, 'audit').kind, 'function');
  assert.equal(symbol(r, 'tick').kind, 'function');
  assert.equal(symbol(r, 'bootstrap').kind, 'function');
  assert.equal(symbol(r, 'createService').kind, 'function');
  assert.equal(symbol(r, 'OrderService.find').kind, 'method');
  assert.equal(symbol(r, 'Orders.count').kind, 'function', 'a function in a namespace is not a method');
  assert.equal(symbol(r, 'Status.Closed').kind, 'constant');
  assert.deepEqual(symbol(r, 'BaseService').annotations, { domain: 'orders', feature: 'checkout', owner: 'orders-team' });
  assert.ok(hasReference(r, 'Repository', 'implementation', 'OrderService'));
  assert.ok(hasReference(r, 'OrderService', 'class', 'createService'));
  assert.deepEqual(r.imports.find((i) => i.source === './store')?.names.sort(), ['defaultStore', 'save']);
});

test('javascript: CommonJS exports, prototype methods, private fields, require with names', async () => {
  const r = await parseFixture('javascript', 'router.js');
  assert.equal(symbol(r, 'createApp').kind, 'function', 'module.exports = function createApp');
  assert.equal(symbol(r, 'Route.match').kind, 'method', 'Route.prototype.match = function');
  assert.equal(symbol(r, 'plugin').kind, 'function', 'module.exports.plugin = function ()');
  assert.equal(symbol(r, 'Router.#routes').kind, 'field');
  assert.deepEqual(r.imports.find((i) => i.source === 'node:events')?.names, ['EventEmitter']);
  assert.ok(hasReference(r, 'Route', 'class', 'Router.add'));
});

test('jsx and tsx: components and class fields holding functions', async () => {
  const jsx = await parseFixture('jsx', 'TodoList.jsx');
  assert.equal(symbol(jsx, 'TodoApp.toggle').kind, 'method');
  assert.ok(hasReference(jsx, 'TodoItem', 'class', 'TodoList'), '<TodoItem /> renders a component');
  const tsx = await parseFixture('tsx', 'Cart.tsx');
  assert.equal(symbol(tsx, 'Summary').kind, 'function');
  assert.ok(!tsx.symbols.some((s) => s.qualifiedName === 'Summary.total'), 'an inline parameter type is not a definition');
});

test('a file with a syntax error keeps the definitions before the error', async () => {
  const text = ['export function first(): number { return 1 }', 'export class Second { run() {} }', 'function broken( {', '  let = ;'].join('\n');
  const r = await parse('broken.ts', text);
  assert.equal(r.error, undefined);
  assert.equal(r.hasSyntaxErrors, true);
  assert.equal(symbol(r, 'first').lineStart, 1);
  assert.equal(symbol(r, 'Second.run').kind, 'method');
  const py = await parse('broken.py', 'def ok():\n    return 1\n\nclass Broken(:\n    pass\n');
  assert.equal(py.hasSyntaxErrors, true);
  assert.equal(symbol(py, 'ok').lineEnd, 2);
});

test('definitions after a region the grammar cannot parse are recovered', async () => {
  // tree-sitter-typescript fails on newline-separated, multi-line generic call signatures and leaves the next
  // declaration inside an ERROR node; error-recovery.ts re-parses the region in pieces.
  const text = [
    'export interface Handler<E> {',
    '  <',
    '    P extends string,',
    '  >(',
    '    path: P',
    '  ): Result<',
    '    E,',
    '    P',
    '  >',
    '',
    '  <',
    '    P extends string,',
    '    R,',
    '  >(',
    '    path: P,',
    '    handler: R',
    '  ): Result<E, P>',
    '}',
    '',
    'export type After<T> = T extends string ? T : never',
    '',
    'export function afterFn(): void {}',
  ].join('\n');
  const r = await parse('recover.ts', text);
  assert.equal(r.hasSyntaxErrors, true);
  assert.deepEqual([symbol(r, 'After').kind, symbol(r, 'After').lineStart], ['type', 20]);
  assert.equal(symbol(r, 'afterFn').lineStart, 22);
  assert.equal(symbol(r, 'Handler').lineStart, 1);
});

test('a 10,000-deep nested expression yields a result or a typed parse_failed, never a throw', async () => {
  for (const [path, text] of [
    ['deep.js', `const x = ${'('.repeat(10_000)}1${')'.repeat(10_000)};\nfunction after() {}\n`],
    ['deep.py', `x = ${'['.repeat(10_000)}1${']'.repeat(10_000)}\ndef after():\n    pass\n`],
    ['deep.rs', `fn main() { let x = ${'('.repeat(10_000)}1${')'.repeat(10_000)}; }\nfn after() {}\n`],
  ] as const) {
    const r = await parse(path, text);
    if (r.error) assert.equal(r.error.code, 'parse_failed', `${path}: ${r.error.message}`);
    else assert.equal(symbol(r, 'after').lineStart, 2, path);
  }
});
