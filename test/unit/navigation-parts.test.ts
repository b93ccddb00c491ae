/** The pure parts of navigation: symbol queries, questions, the lexical scanner, import resolution. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngineError } from '../../src/core/errors';
import { ImportResolver, goModulePath } from '../../src/core/navigation/imports';
import { findOccurrences } from '../../src/core/navigation/occurrences';
import { classifyPath, PathClass } from '../../src/core/navigation/path-class';
import { parseSymbolQuery } from '../../src/core/navigation/symbol-query';
import { symbolFromQuestion } from '../../src/core/question/symbol';

describe('symbol queries', () => {
  it('splits qualified names in every common notation', () => {
    assert.deepEqual(parseSymbolQuery('listen'), { raw: 'listen', name: 'listen', qualifiers: [] });
    assert.deepEqual(parseSymbolQuery('Server.listen').qualifiers, ['Server']);
    assert.deepEqual(parseSymbolQuery('auth.service.login'), { raw: 'auth.service.login', name: 'login', qualifiers: ['auth', 'service'] });
    assert.deepEqual(parseSymbolQuery('crate::builder::Arg').qualifiers, ['crate', 'builder']);
    assert.equal(parseSymbolQuery('Server#listen()').name, 'listen');
    assert.deepEqual(parseSymbolQuery('Request.#decode'), { raw: 'Request.#decode', name: '#decode', qualifiers: ['Request'] });
    assert.throws(() => parseSymbolQuery(''), (e) => EngineError.is(e, 'required'));
    assert.throws(() => parseSymbolQuery('a b'), (e) => EngineError.is(e, 'invalid_input'));
  });

  it('finds the symbol a navigation question asks about', () => {
    assert.equal(symbolFromQuestion('Where is parseAcceptLanguage defined?'), 'parseAcceptLanguage');
    assert.equal(symbolFromQuestion('Where is is_dir_writable defined?'), 'is_dir_writable');
    assert.equal(symbolFromQuestion('where is the `Server.listen` method declared'), 'Server.listen');
    assert.equal(symbolFromQuestion('Show me the definition of TypedValueParser.'), 'TypedValueParser');
    assert.equal(symbolFromQuestion('who handles retries in fetchWithBackoff'), 'fetchWithBackoff');
    assert.throws(() => symbolFromQuestion('where is it'), (e) => EngineError.is(e, 'invalid_input'));
  });

  it('classifies paths as source, peripheral or test', () => {
    assert.equal(classifyPath('src/server.ts'), PathClass.Source);
    assert.equal(classifyPath('src/server.test.ts'), PathClass.Test);
    assert.equal(classifyPath('tests/test_auth.py'), PathClass.Test);
    assert.equal(classifyPath('server/server_test.go'), PathClass.Test);
    assert.equal(classifyPath('examples/basic/main.go'), PathClass.Peripheral);
  });
});

describe('identifier occurrences', () => {
  const cols = (text: string, language: string, name = 'foo'): string[] =>
    (findOccurrences(text, name, language) ?? []).map((o) => `${o.line}:${o.column}${o.qualifier !== undefined ? ` q=${o.qualifier}` : ''}${o.key ? ' key' : ''}`);

  it('skips comments, strings and regular expressions but reads template expressions (JS/TS)', () => {
    const text = [
      'const a = foo(1) // foo in a comment',
      '/* foo */ const s = "foo" + \'foo\' + `foo ${foo} foo`',
      'const r = /foo/g.test(x) ? foo : 1',
      'const o = { foo: 1, bar: foo, foo }',
      'x.foo()',
    ].join('\n');
    assert.deepEqual(cols(text, 'typescript'), ['1:11', '2:44', '3:28', '4:13 key', '4:26', '4:31', '5:3 q=x']);
  });

  it('sees JSX closing tags as code', () => {
    assert.deepEqual(cols('const v = <Foo a={1}>text</Foo>', 'tsx', 'Foo'), ['1:12', '1:28']);
  });

  it('skips Python comments, prefixed and triple-quoted strings, and keyword arguments', () => {
    const text = ['x = foo  # foo', 'd = """foo', 'foo"""', "y = rb'foo' + f(foo=foo)"].join('\n');
    assert.deepEqual(cols(text, 'python'), ['1:5', '4:17 key', '4:21']);
  });

  it('skips Go raw strings and gives nothing for languages it does not lex', () => {
    assert.deepEqual(cols('s := `foo`\nfoo()\n', 'go'), ['2:1']);
    assert.equal(findOccurrences('foo', 'foo', 'rust'), undefined);
  });
});

describe('import resolution', () => {
  const files = [
    'src/app.ts', 'src/router.ts', 'src/util/index.ts', 'src/esm.ts',
    'shop/__init__.py', 'shop/auth.py', 'shop/sub/__init__.py', 'shop/sub/mod.py', 'app.py',
    'server/server.go', 'server/validate.go', 'main.go', 'src/nspkg/utils/__init__.py', 'src/nspkg/utils/helpers.py',
    'crate_a/src/lib.rs', 'crate_a/src/builder/mod.rs', 'crate_a/src/builder/arg.rs',
  ].map((path, id) => ({ id, path, language: path.endsWith('.ts') ? 'typescript' : path.endsWith('.py') ? 'python' : path.endsWith('.go') ? 'go' : 'rust' }));
  const resolver = new ImportResolver(files, goModulePath('module example.com/shop\n\ngo 1.21\n'));
  const from = (path: string) => files.find((f) => f.path === path)!;

  it('resolves TypeScript relative paths, extensions, index files and .js-for-.ts', () => {
    assert.deepEqual(resolver.resolve(from('src/app.ts'), './router'), ['src/router.ts']);
    assert.deepEqual(resolver.resolve(from('src/app.ts'), './util'), ['src/util/index.ts']);
    assert.deepEqual(resolver.resolve(from('src/app.ts'), './esm.js'), ['src/esm.ts']);
    assert.deepEqual(resolver.resolve(from('src/app.ts'), 'react'), []);
  });

  it('resolves Python absolute and relative modules and packages', () => {
    assert.deepEqual(resolver.resolve(from('app.py'), 'shop.auth'), ['shop/auth.py']);
    assert.deepEqual(resolver.resolve(from('shop/auth.py'), '.sub.mod'), ['shop/sub/mod.py']);
    assert.deepEqual(resolver.resolve(from('shop/sub/mod.py'), '..auth'), ['shop/auth.py']);
    assert.deepEqual(resolver.resolve(from('shop/sub/mod.py'), '.'), ['shop/sub/__init__.py']);
    assert.deepEqual(resolver.resolve(from('app.py'), 'os.path'), []);
    assert.deepEqual(resolver.resolve(from('app.py'), 'nspkg.utils.helpers'), ['src/nspkg/utils/helpers.py'], 'src/ layout, namespace package');
  });

  it('resolves Go imports to every file of the package directory', () => {
    assert.deepEqual(resolver.resolve(from('main.go'), 'example.com/shop/server'), ['server/server.go', 'server/validate.go']);
    assert.deepEqual(resolver.resolve(from('main.go'), 'fmt'), []);
  });

  it('resolves Rust crate, super and sibling-crate paths', () => {
    assert.deepEqual(resolver.resolve(from('crate_a/src/lib.rs'), 'crate::builder::arg'), ['crate_a/src/builder/arg.rs']);
    assert.deepEqual(resolver.resolve(from('crate_a/src/builder/arg.rs'), 'super'), ['crate_a/src/builder/mod.rs']);
    assert.deepEqual(resolver.resolve(from('crate_a/src/lib.rs'), 'crate::builder::Arg'), ['crate_a/src/builder/mod.rs'], 'Arg is an item of builder');
  });
});
