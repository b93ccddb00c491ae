/**
 * localeOrder stands in for `localeCompare` in the sorts that break ties by path or name: sorting by its places must
 * give exactly the order `localeCompare` gives, equal strings (and strings the collator finds equal) sharing a place.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localeOrder } from '../../src/core/strings';

describe('localeOrder', () => {
  it('orders like localeCompare, ties shared', () => {
    const strings = ['src/b.ts', 'src/B.ts', 'src/a.ts', 'copy1/src/a.ts', 'src/a.ts', 'src/é.ts', 'src/e.ts', 'src/_x.ts', 'Src/a.ts', 'src/a10.ts', 'src/a9.ts', ''];
    const order = localeOrder(strings);
    for (let i = 0; i < strings.length; i++) {
      for (let j = 0; j < strings.length; j++) {
        assert.equal(Math.sign(order[i]! - order[j]!), Math.sign(strings[i]!.localeCompare(strings[j]!)), `${strings[i]} vs ${strings[j]}`);
      }
    }
    assert.equal(order[2], order[4], 'equal strings share a place');
  });
});
