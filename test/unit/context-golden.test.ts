/**
 * Golden outputs: the mu and markdown texts and the ranked files for fixed questions on the shop fixture. A change
 * in ranking, selection or rendering shows up as a diff here; after reviewing it, regenerate with
 * `UPDATE_GOLDENS=1 node --test out/test/unit/context-golden.test.js`.
 */
import { join, resolve } from 'node:path';
import { it } from 'node:test';
import type { ContextFormat } from '../../src/core/context/types';
import { useIndexedShop } from '../fixtures/context/shop';
import { assertGoldenText } from '../helpers/golden';

const GOLDEN_DIR = resolve('test/golden/context');
const CASES: { name: string; question: string; format: ContextFormat; maxTokens: number }[] = [
  { name: 'discount-total.mu', question: 'How does the cart total apply a discount code?', format: 'mu', maxTokens: 8000 },
  { name: 'where-charge-card.mu', question: 'Where is chargeCard defined?', format: 'mu', maxTokens: 400 },
  { name: 'delete-user.md', question: 'What happens to the audit trail when delete_user runs?', format: 'markdown', maxTokens: 600 },
  { name: 'checkout-tight.mu', question: 'checkout charges the card for the cart total', format: 'mu', maxTokens: 180 },
  { name: 'unrelated.mu', question: 'What is the weather forecast for tomorrow in Lisbon?', format: 'mu', maxTokens: 8000 },
];

const shop = useIndexedShop();

for (const c of CASES) {
  it(`matches the golden ${c.name}`, async () => {
    const r = await shop.engine.getContextForQuestion(c.question, { format: c.format, maxTokens: c.maxTokens });
    const actual = [
      `question: ${c.question}`,
      `budget: ${c.maxTokens}, tokens: ${r.tokenCount}${r.empty ? `, empty: ${r.empty}` : ''}`,
      `files: ${r.files.slice(0, 6).map((f) => `${f.path}:${f.line}`).join(' ')}`,
      '---',
      r.text,
      '',
    ].join('\n');
    const file = join(GOLDEN_DIR, `${c.name}.txt`);
    assertGoldenText(file, actual);
  });
}
