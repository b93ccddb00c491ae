/**
 * Property: whatever the question, format and budget, the context text never exceeds the budget (counted with the
 * real tokenizer), token_count is exactly its count, and a symbol the question names exactly is in it whenever the
 * budget can hold the header, the file line and the symbol's signature.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ContextFormat } from '../../src/core/context/types';
import { countTokens } from '../../src/core/tokens';
import { useIndexedShop } from '../fixtures/context/shop';

const WORDS = ['cart', 'total', 'discount', 'code', 'charge', 'card', 'gateway', 'retry', 'checkout', 'receipt', 'user', 'delete', 'audit',
  'slug', 'title', 'item', 'quantity', 'price', 'why', 'how', 'does', 'the', 'when', 'applyDiscount', 'Cart.total', 'chargeCard',
  'UserService.delete_user', 'MAX_DISCOUNT_PERCENT', '`slugify`', 'gatewayCharge', 'weather', 'banana'];
const NAMED: Record<string, string> = {
  applyDiscount: 'src/pricing/discount.ts#applyDiscount', 'Cart.total': 'src/cart/cart.ts#Cart.total', chargeCard: 'src/payments/card.ts#chargeCard',
  'UserService.delete_user': 'src/users/user_service.py#UserService.delete_user', '`slugify`': 'src/util/strings.ts#slugify',
};

/** Mulberry32: the same sequence on every run, so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const shop = useIndexedShop();

it('never exceeds the budget, for 300 random questions, budgets and formats', async () => {
  const rnd = random(20240521);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  let mentionsChecked = 0;
  for (let i = 0; i < 300; i++) {
    const words = Array.from({ length: 1 + Math.floor(rnd() * 7) }, () => pick(WORDS));
    const question = words.join(' ');
    const budget = pick([1, 5, 20, 40, 80, 150, 300, 600, 1200, 8000]) + Math.floor(rnd() * 10);
    const format = pick<ContextFormat>(['mu', 'markdown', 'json']);
    const r = await shop.engine.getContextForQuestion(question, { maxTokens: budget, format });
    const counted = countTokens(r.text);
    assert.ok(counted <= budget, `#${i} "${question}" ${format}: ${counted} tokens > budget ${budget}`);
    assert.equal(r.tokenCount, counted, `#${i}: token_count must be the text's real count`);
    assert.ok(r.nodes.reduce((a, n) => a + n.tokens, 0) <= budget + r.nodes.length, `#${i}: node tokens add up beyond the budget`);
    // Exact mentions are in whenever the budget fits them as a signature (header + file line + signature ≈ 60 tokens).
    if (budget >= 300 && !r.empty) {
      for (const w of words) {
        const id = NAMED[w];
        if (!id) continue;
        mentionsChecked++;
        assert.ok(r.nodes.some((n) => n.id === id), `#${i} "${question}" at ${budget}: ${id} missing from ${r.nodes.map((n) => n.id).join(', ')}`);
      }
    }
  }
  assert.ok(mentionsChecked > 20, `only ${mentionsChecked} mentions were checked`);
});
