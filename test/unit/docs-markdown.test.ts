import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkMarkdown, classifyHeading, MAX_CHUNK_CHARS } from '../../src/core/docs/markdown';
import { splitMarkdown } from '../../src/core/oracle/markdown';
import { markdownHeadings } from '../../src/core/text/markdown-headings';

test('headings are classified spec, invariants, constraints, api, tests or other', () => {
  const cases: Record<string, string> = {
    Specification: 'spec', 'Business rules': 'spec', Requirements: 'spec', Invariants: 'invariants',
    Constraints: 'constraints', 'Rate limits': 'constraints', API: 'api', 'HTTP endpoints': 'api', 'CLI commands': 'api',
    Testing: 'tests', 'Unit tests': 'tests', History: 'other', '': 'other', Rapid: 'other', Attest: 'other',
  };
  for (const [heading, want] of Object.entries(cases)) assert.equal(classifyHeading(heading), want, heading);
});

test('markdown splits at headings, sub-headings inherit the section, fenced code is not split', () => {
  const text = [
    '# Title', '', 'Intro text.', '', '## Specification', 'Spec body.', '', '### Cache', 'Cache body.', '',
    '## Constraints', '```md', '## not a heading', '```', '', '## Unrelated', 'Other body.',
  ].join('\n');
  const chunks = chunkMarkdown('docs/a.md', text);
  assert.deepEqual(chunks.map((c) => [c.heading, c.section, c.line]), [
    ['Title', 'other', 1], ['Specification', 'spec', 5], ['Cache', 'spec', 8], ['Constraints', 'constraints', 11], ['Unrelated', 'other', 16],
  ]);
  assert.match(chunks[3]!.content, /## not a heading/);
  assert.ok(chunks.every((c, i) => c.index === i && c.doc_path === 'docs/a.md'));
});

test('long sections are split at paragraphs and no chunk exceeds the limit', () => {
  const para = 'word '.repeat(150).trim();
  const huge = 'x'.repeat(MAX_CHUNK_CHARS * 2 + 10);
  const chunks = chunkMarkdown('d.md', `## Specification\n\n${Array(12).fill(para).join('\n\n')}\n\n${huge}`);
  assert.ok(chunks.length > 3);
  assert.ok(chunks.every((c) => c.content.length <= MAX_CHUNK_CHARS && c.section === 'spec'));
  assert.equal(chunks.map((c) => c.content).join('').replace(/\s/g, '').length, (Array(12).fill(para).join('') + huge).replace(/\s/g, '').length);
});

test('empty and heading-only documents give no chunks; CRLF is handled', () => {
  assert.deepEqual(chunkMarkdown('e.md', ''), []);
  assert.deepEqual(chunkMarkdown('e.md', '# Only a title\n'), []);
  const crlf = chunkMarkdown('c.md', '## API\r\nPOST /x\r\n');
  assert.deepEqual(crlf.map((c) => [c.section, c.content]), [['api', 'POST /x']]);
});

test('both section splitters read fences alike: a ``` fence holding ~~~ lines ends only at ```', () => {
  // Shell comments inside a fence that shows a ~~~ block: the oracle's splitter closed the fence at the first ~~~
  // and took "# install" for a heading; the bundle's chunker closed it at "```bash" inside.
  const lines = [
    '# Guide', 'Intro.', '', '```md', '~~~sh', '# install', 'npm i', '~~~', '```bash', '# not a heading', '```', '',
    '## Usage', 'Call it.', '', '    ```', '    # indented fence, code', '    ```', '#### Deep', 'text',
  ];
  const oracle = splitMarkdown(lines);
  assert.deepEqual(oracle.map((s) => [s.heading, s.line, s.endLine]), [['Guide', 1, 12], ['Usage', 13, 18], ['Deep', 19, 20]]);
  const chunks = chunkMarkdown('g.md', lines.join('\n'));
  assert.deepEqual(chunks.map((c) => [c.heading, c.line]), [['Guide', 1], ['Usage', 13]]);
  assert.match(chunks[1]!.content, /#### Deep/);
  assert.deepEqual(markdownHeadings(lines).map((h) => [h.index + 1, h.level, h.text]), [[1, 1, 'Guide'], [13, 2, 'Usage'], [19, 4, 'Deep']]);
});
