/**
 * The one budget fitter. Every answer that must stay within a token budget (smart context, the oracle's evidence,
 * a bundle's max_tokens, an MCP page, the repo map) is cut by the same three moves over pieces in priority order,
 * best first; each caller is a small adapter that says what a piece is, what it costs and how it is shown:
 * - fill: take pieces while each one's cost fits what is left; at one that does not, skip it (a smaller one may
 *   still fit) or stop (a page must stay a prefix of its list);
 * - prefix: the largest count of the best pieces whose whole rendering fits, searched over a cost that grows with
 *   the count (measured whole, because the tokenizer merges across seams a per-piece count cannot see);
 * - shed: drop the least valuable piece until the exact size is within the budget.
 * Tokens are counted by the callers (src/core/tokens.ts); nothing here knows what a token is.
 */

export interface Filled<T> {
  /** Pieces that went in, in the order offered. */
  taken: T[];
  /** Pieces offered that did not fit (with `onMiss: 'stop'`, only the first of them). */
  missed: T[];
  /** Tokens used after the fill, `used` given included. */
  used: number;
}

export interface FillOptions {
  /** Tokens already spent before the first piece (a header, an earlier fill sharing the budget). */
  used?: number;
  /** At a piece that does not fit: try the next ('skip', the default) or end the fill ('stop'). */
  onMiss?: 'skip' | 'stop';
}

/**
 * Offers `pieces` in order to `place(piece, room)`, which puts the piece in when it fits in `room` tokens and returns
 * the tokens it took, or returns undefined and leaves it out. `place` may try a smaller form of a piece (a
 * signature for a body that does not fit) before giving up.
 */
export function fill<T>(
  pieces: Iterable<T>, limit: number, place: (piece: T, room: number) => number | undefined, options: FillOptions = {},
): Filled<T> {
  const taken: T[] = [];
  const missed: T[] = [];
  let used = options.used ?? 0;
  for (const piece of pieces) {
    const cost = place(piece, limit - used);
    if (cost === undefined) {
      missed.push(piece);
      if (options.onMiss === 'stop') break;
      continue;
    }
    used += cost;
    taken.push(piece);
  }
  return { taken, missed, used };
}

/**
 * The largest count in [known, max] for which `fits(count)`, given that `known` fits (0: nothing is known to).
 * It gallops up from `known` by `step`, doubling while probes fit, then bisects below the first probe that did not;
 * a close lower bound or a good first guess costs few measurements. Exact when the cost grows with the count; the
 * last count `fits` accepted is always the answer, so a caller may keep what it rendered there.
 */
export function largestPrefix(fits: (count: number) => boolean, max: number, options: { known?: number; step?: number } = {}): number {
  let best = options.known ?? 0;
  let hi = max;
  for (let step = Math.max(1, Math.floor(options.step ?? 1)); best < hi; step *= 2) {
    const probe = Math.min(hi, best + step);
    if (fits(probe)) best = probe;
    else {
      hi = probe - 1;
      break;
    }
  }
  while (best < hi) {
    const mid = Math.ceil((best + hi) / 2);
    if (fits(mid)) best = mid;
    else hi = mid - 1;
  }
  return best;
}

/**
 * Sheds pieces until `size` is within `limit`: `shed()` drops the least valuable piece left and returns the new size,
 * or undefined when nothing more can go. Returns the last size (still over `limit` when shedding ran out).
 */
export function shedUntilWithin(limit: number, size: number, shed: () => number | undefined): number {
  while (size > limit) {
    const next = shed();
    if (next === undefined) break;
    size = next;
  }
  return size;
}
