import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { findAnnotations, isAttached, parseAnnotationLine } from '../../src/core/parse/annotations';
import { createInProcessParserHost } from '../../src/core/parse/in-process-parser-host';
import { createNodeAssetLocator } from '../../src/node/assets';
import { ASSET_ROOT, makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

describe('annotation parsing', () => {
  it('reads oracle: and beadloom: pairs in any comment style, several per line', () => {
    assert.deepEqual(parseAnnotationLine('# beadloom:domain=auth feature=login'), { domain: 'auth', feature: 'login' });
    assert.deepEqual(parseAnnotationLine('  // oracle:service=billing'), { service: 'billing' });
    assert.deepEqual(parseAnnotationLine('/* oracle:node=api-gateway */'), { node: 'api-gateway' });
    assert.equal(parseAnnotationLine('const s = "oracle:key=value";'), undefined, 'not in a comment');
    assert.equal(parseAnnotationLine('// oracle: nothing here'), undefined);
  });
  it('attaches through comments and decorators, not across blank lines', () => {
    const lines = ['// oracle:a=1', '@decorator', 'def f(): pass', '', '# oracle:b=2', '', 'def g(): pass'];
    assert.equal(isAttached(lines, 1, 3), true);
    assert.equal(isAttached(lines, 5, 7), false);
    assert.deepEqual(findAnnotations(lines).map((a) => a.line), [1, 5]);
  });
});

describe('annotations on symbols', () => {
  const host = createInProcessParserHost(createNodeAssetLocator(ASSET_ROOT));
  after(() => host.dispose());
  it('module-level annotations apply to every symbol; a symbol\'s own take precedence', async () => {
    const text = [
      '# beadloom:domain=billing',
      '"""Billing module."""',
      '',
      '# oracle:feature=invoices domain=invoicing',
      'def make_invoice():',
      '    pass',
      '',
      'def refund():',
      '    pass',
    ].join('\n');
    const [result] = await host.parse([{ path: 'billing.py', language: 'python', text }]);
    assert.ok(result);
    assert.deepEqual(result.fileAnnotations, { domain: 'billing' });
    const byName = Object.fromEntries(result.symbols.map((s) => [s.name, s.annotations]));
    assert.deepEqual(byName.make_invoice, { domain: 'invoicing', feature: 'invoices' });
    assert.deepEqual(byName.refund, { domain: 'billing' });
  });
});

describe('annotation precedence in bundles', () => {
  it("a symbol's own feature=B takes it out of the module-level feature=A: ctx A leaves it out, ctx B lists it", async () => {
    const root = makeWorkspace({
      '.context-oracle/graph/g.yml': 'nodes:\n  - { ref_id: invoices, kind: feature }\n  - { ref_id: refunds, kind: feature }\n',
      'billing.py': [
        '# beadloom:feature=invoices',
        '"""Billing module."""',
        '',
        '',
        'def make_invoice():',
        '    pass',
        '',
        '',
        '# beadloom:feature=refunds',
        'def refund():',
        '    pass',
      ].join('\n'),
    });
    const engine = testEngine(root);
    try {
      await engine.index();
      const names = async (id: string) => (await engine.contextBundle([id], { depth: 0 })).bundle.code_symbols.map((s) => s.symbol_name);
      assert.deepEqual(await names('invoices'), ['make_invoice']);
      assert.deepEqual(await names('refunds'), ['refund']);
    } finally {
      await engine.dispose();
      removeWorkspace(root);
    }
  });
});
