/**
 * Smart context on the shop fixture with the real engine (sql.js + tree-sitter): named symbols always included, a
 * method's class shown with it, call sites, the honest empty answer, formats, explain data and typed errors.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngineError } from '../../src/core/errors';
import { countTokens } from '../../src/core/tokens';
import { useIndexedShop } from '../fixtures/context/shop';

const shop = useIndexedShop();

describe('getContextForQuestion', () => {
  it('ranks the file that defines a named symbol first, at its name line', async () => {
    const r = await shop.engine.getContextForQuestion('Where is applyDiscount defined?');
    assert.equal(r.files[0]?.path, 'src/pricing/discount.ts');
    assert.equal(r.files[0]?.line, 7);
    assert.ok(r.entities.some((e) => e.text === 'applyDiscount'));
  });

  it('always includes exactly mentioned symbols, even under a small budget', async () => {
    for (const budget of [120, 200, 400, 8000]) {
      const r = await shop.engine.getContextForQuestion('Why does Cart.total ignore chargeCard retries?', { maxTokens: budget });
      const ids = r.nodes.map((n) => n.id);
      assert.ok(ids.includes('src/cart/cart.ts#Cart.total'), `budget ${budget}: ${ids.join(', ')}`);
      assert.ok(ids.includes('src/payments/card.ts#chargeCard'), `budget ${budget}: ${ids.join(', ')}`);
      assert.ok(r.tokenCount <= budget);
    }
  });

  it("shows a method's class as context and the calls to the selected functions", async () => {
    const r = await shop.engine.getContextForQuestion('how is the cart total computed with a discount code?');
    assert.ok(r.nodes.some((n) => n.id === 'src/cart/cart.ts#Cart.total'));
    // The class is there, as context or in its own right, and its line comes before the method's.
    assert.ok(r.nodes.some((n) => n.id === 'src/cart/cart.ts#Cart'));
    const classLine = r.text.search(/\n {2}\$ (export )?class Cart/);
    assert.ok(classLine >= 0 && classLine < r.text.indexOf('# total(): number'), r.text);
    // With a budget that leaves no room for the class body, the class comes as a signature-only context node.
    const tight = await shop.engine.getContextForQuestion('Why does Cart.removeItem report false?', { maxTokens: 150 });
    const cls = tight.nodes.find((n) => n.id === 'src/cart/cart.ts#Cart');
    assert.ok(cls, tight.text);
    assert.ok(tight.nodes.some((n) => n.id === 'src/cart/cart.ts#Cart.removeItem'));
    assert.match(r.text, /> call sites\n/);
    assert.match(r.text, /applyDiscount <- src\/cart\/cart\.ts:32/);
    assert.ok(r.stats.callSiteReserve >= Math.ceil(r.stats.budget * 0.2));
  });

  it('answers honestly empty when nothing is relevant, without padding', async () => {
    const r = await shop.engine.getContextForQuestion('What is the weather forecast for tomorrow in Lisbon?');
    assert.ok(r.empty, 'expected an empty answer');
    assert.equal(r.nodes.length, 0);
    assert.equal(r.files.length, 0);
    assert.match(r.text, /no relevant code/);
    assert.equal(r.tokenCount, countTokens(r.text));
  });

  it('ranks tests below the code they test unless the question is about tests', async () => {
    const code = await shop.engine.getContextForQuestion('cart total discount code');
    const rankOf = (r: typeof code, p: string): number => r.files.findIndex((f) => f.path === p);
    assert.ok(rankOf(code, 'src/cart/cart.ts') < rankOf(code, 'tests/cart.test.ts'));
    const tests = await shop.engine.getContextForQuestion('which tests cover the cart total discount code?');
    assert.ok(rankOf(tests, 'tests/cart.test.ts') >= 0);
    const excluded = await shop.engine.getContextForQuestion('cart total discount code', { excludeTests: true });
    assert.equal(rankOf(excluded, 'tests/cart.test.ts'), -1);
  });

  it('explains itself: per-signal scores, stage counts and what the budget cut', async () => {
    const r = await shop.engine.getContextForQuestion('charge the card for the cart total at checkout', { maxTokens: 150 });
    assert.ok(r.files[0]!.signals.bm25File > 0);
    assert.ok(r.stats.expanded >= r.stats.scored);
    assert.ok(r.stats.selected === r.nodes.length);
    assert.ok(r.cut.length > 0, 'a 150-token budget must cut something');
    assert.ok(r.cut.every((c) => c.tokens > 0 && (c.reason === 'budget' || c.reason === 'trimmed')));
  });

  it('renders markdown with fenced code in the file language', async () => {
    const r = await shop.engine.getContextForQuestion('delete_user audit tombstone', { format: 'markdown' });
    assert.match(r.text, /^# Context: delete_user audit tombstone/);
    assert.match(r.text, /## `src\/users\/user_service\.py`/);
    assert.match(r.text, /```python\n/);
    assert.ok(countTokens(r.text) <= 8000);
  });

  it('lets a configured second-stage reranker reorder the files, seeing their best code', async () => {
    const seen: string[] = [];
    const r = await shop.engine.getContextForQuestion('cart total discount code', {
      reranker: async (_q, candidates) => candidates.map((c) => { seen.push(c.text); return c.path.includes('pricing') ? 10 : 1; }),
    });
    assert.equal(r.files[0]?.path, 'src/pricing/discount.ts');
    assert.ok(seen.some((t) => t.includes('applyDiscount')));
    await assert.rejects(shop.engine.getContextForQuestion('cart total', { reranker: async () => [1] }), (e) => EngineError.is(e, 'invalid_input'));
  });

  it('uses the configured weights and rejects bad options with typed errors', async () => {
    await assert.rejects(shop.engine.getContextForQuestion('   '), (e) => EngineError.is(e, 'required'));
    await assert.rejects(shop.engine.getContextForQuestion('cart', { maxTokens: 0 }), (e) => EngineError.is(e, 'invalid_input'));
    await assert.rejects(shop.engine.getContextForQuestion('cart', { weights: { entity: -1 } }), (e) => EngineError.is(e, 'invalid_input'));
    await assert.rejects(shop.engine.getContextForQuestion('cart', { format: 'yaml' as never }), (e) => EngineError.is(e, 'invalid_input'));
    // The definition wins by default; weighting "uses a named symbol" heavily puts the caller first.
    const question = 'does chargeCard retry on a gateway timeout';
    assert.equal((await shop.engine.getContextForQuestion(question)).files[0]?.path, 'src/payments/card.ts');
    const byUse = await shop.engine.getContextForQuestion(question, { weights: { mentionRef: 20 } });
    assert.equal(byUse.files[0]?.path, 'src/checkout/checkout.ts');
  });
});
