/**
 * The best few of many scored items, without sorting them all: ranked lists of tens of thousands of files show a
 * hundred, a file's neighbours keep twenty.
 */

/**
 * The `limit` best of `slots` by score (`scores[slot]`, higher first), ties by rank (lower first), in that order: a
 * sorted window that a slot enters only when it beats the window's last, so most of tens of thousands are one
 * comparison each. Equal score and rank keep the slots' order, as a stable sort would. Scores are read from an array,
 * not a callback: a fractional number returned by a call was a new boxed number, one per slot.
 */
export function topSlots(slots: number[], limit: number, scores: ArrayLike<number>, rankOf: (at: number) => number): number[] {
  const win: number[] = [];
  const winScore: number[] = [];
  const winRank: number[] = [];
  if (limit < 1) return win;
  if (limit >= slots.length) {
    const rank = slots.map(rankOf);
    return slots.map((_, i) => i).sort((a, b) => scores[slots[b]!]! - scores[slots[a]!]! || rank[a]! - rank[b]!).map((i) => slots[i]!);
  }
  for (const at of slots) {
    const score = scores[at]!;
    const full = win.length >= limit;
    if (full && score < winScore[limit - 1]!) continue;
    const rank = rankOf(at);
    if (full && score === winScore[limit - 1]! && rank >= winRank[limit - 1]!) continue;
    let i = full ? limit - 1 : win.length;
    if (!full) {
      win.push(at);
      winScore.push(score);
      winRank.push(rank);
    }
    while (i > 0 && (winScore[i - 1]! < score || (winScore[i - 1]! === score && winRank[i - 1]! > rank))) {
      win[i] = win[i - 1]!;
      winScore[i] = winScore[i - 1]!;
      winRank[i] = winRank[i - 1]!;
      i--;
    }
    win[i] = at;
    winScore[i] = score;
    winRank[i] = rank;
  }
  return win;
}
