/**
 * Markdown built to make a backtracking parser take super-linear time (issue 15, finding 5): backtick floods and
 * ladders, emphasis and bracket floods, nested brackets, long lines of whitespace before a line separator. Used by the
 * plain-Node tokenizer test and the real-browser rendering test. Inputs that turn into tens of thousands of elements
 * are kept smaller: they time the DOM, not the parser, and the browser test must stay well under 10 s.
 */
export interface HostileInput {
  name: string;
  text: string;
}

/** A ladder of backtick runs of lengths 1..k that never close (each length appears once). */
function backtickLadder(k: number): string {
  const parts: string[] = [];
  for (let n = 1; n <= k; n++) parts.push('`'.repeat(n));
  return parts.join('a');
}

export function hostileMarkdown(scale = 1): HostileInput[] {
  const n = (k: number) => Math.round(k * scale);
  return [
    { name: '10k backticks', text: '`'.repeat(n(10_000)) },
    { name: '100k backticks', text: '`'.repeat(n(100_000)) },
    { name: '40k backticks then text', text: '`'.repeat(n(40_000)) + 'a' },
    { name: 'backtick ladder 1..440', text: backtickLadder(Math.max(2, Math.round(440 * Math.sqrt(scale)))) },
    { name: '10k "`a``"', text: '`a``'.repeat(n(10_000)) },
    { name: '100k stars', text: '*'.repeat(n(100_000)) },
    { name: '100k underscores', text: '_'.repeat(n(100_000)) },
    { name: '50k "*a"', text: '*a'.repeat(n(50_000)) },
    { name: '10k "**a_"', text: '**a_'.repeat(n(10_000)) },
    { name: '10k "__a*"', text: '__a*'.repeat(n(10_000)) },
    { name: '100k [', text: '['.repeat(n(100_000)) },
    { name: 'nested brackets 50k', text: '['.repeat(n(50_000)) + 'a' + ']'.repeat(n(50_000)) },
    { name: '25k "[a]("', text: '[a]('.repeat(n(25_000)) },
    { name: '10k "[1][a](x "', text: '[1][a](x '.repeat(n(10_000)) },
    { name: 'long line 100k words', text: 'word '.repeat(n(20_000)) },
    { name: 'fence then 50k spaces', text: '```' + ' '.repeat(n(50_000)) + '!' },
    { name: 'heading then 50k spaces and separators', text: '#' + ' '.repeat(n(50_000)) + '\u2028x\u2028' },
    { name: 'list item then 50k spaces and separators', text: '-' + ' '.repeat(n(50_000)) + '\u2028x\u2028' },
    { name: 'quote of 50k spaces', text: ' '.repeat(n(50_000)) + '>' + ' '.repeat(n(50_000)) },
    { name: '2k list lines', text: '- `a` **b** [1]\n'.repeat(n(2_000)) },
    { name: 'code span holding a 50k dotted path', text: '`' + 'a.'.repeat(n(25_000)) + 'a/!`' },
  ];
}
