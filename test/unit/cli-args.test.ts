/**
 * The CLI's argument parser (node:util parseArgs plus numbers and lists) and its one question-file reader: the flags,
 * messages and exit-2 errors the CLI has always had, and every format a question file comes in.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseArgs, UsageError, type FlagSpec } from '../../src/cli/args';
import { oneQuestion, readQuestionFile } from '../../src/cli/question-file';

const SPEC: Record<string, FlagSpec> = {
  json: { type: 'boolean' }, verbose: { type: 'boolean', short: 'v' }, root: { type: 'string' },
  'max-tokens': { type: 'number' }, exclude: { type: 'list' },
};

describe('parseArgs', () => {
  it('reads booleans, strings, non-negative numbers, repeatable lists, short flags, --name=value and --', () => {
    const p = parseArgs(['why', 'x', '--json', '-v', '--root', '/w', '--max-tokens=800', '--exclude', 'a/**', '--exclude', 'b', '--', '--not-a-flag'], SPEC);
    assert.deepEqual(p.positionals, ['why', 'x', '--not-a-flag']);
    assert.deepEqual(p.flags, { json: true, verbose: true, root: '/w', 'max-tokens': 800, exclude: ['a/**', 'b'] });
    assert.deepEqual(parseArgs(['-'], SPEC).positionals, ['-']);
  });

  it('turns every misuse into a UsageError with the short message the usage line follows', () => {
    const cases: Array<[string[], string]> = [
      [['--bogus'], 'unknown option --bogus'],
      [['-x'], 'unknown option -x'],
      [['--root'], '--root needs a value'],
      [['--json=yes'], '--json takes no value'],
      [['--max-tokens', 'many'], '--max-tokens needs a non-negative number, got "many"'],
      [['--max-tokens=-3'], '--max-tokens needs a non-negative number, got "-3"'],
    ];
    for (const [argv, message] of cases) assert.throws(() => parseArgs(argv, SPEC), (e: unknown) => e instanceof UsageError && e.message === message, argv.join(' '));
  });
});

describe('question files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'co-qfile-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string): string => { writeFileSync(join(dir, name), text); return join(dir, name); };

  it('reads plain text, one JSON object, a JSON array and JSON lines', () => {
    assert.deepEqual(readQuestionFile(file('a.txt', '  Where is retry defined?\n')), ['Where is retry defined?']);
    assert.deepEqual(readQuestionFile(file('b.txt', '[bug] why does login fail?\n')), ['[bug] why does login fail?']);
    assert.deepEqual(readQuestionFile(file('c.json', '{"question": "Q1", "id": 3}')), ['Q1']);
    assert.deepEqual(readQuestionFile(file('d.json', '[{"question": "Q1"}, {"question": "Q2"}]')), ['Q1', 'Q2']);
    assert.deepEqual(readQuestionFile(file('e.jsonl', '{"question": "Q1"}\n\n{"question": "Q2"}\n')), ['Q1', 'Q2']);
  });

  it('refuses what is JSON without questions, broken JSON and missing files, naming the flag', () => {
    assert.throws(() => readQuestionFile(file('f.json', '{"q": "Q1"}')), /--question-file .*f\.json: every entry needs a non-empty "question" string/);
    assert.throws(() => readQuestionFile(file('g.json', '{"question": "Q1"')), /g\.json is not JSON/);
    assert.throws(() => readQuestionFile(join(dir, 'missing'), '--from-question'), /cannot read --from-question/);
  });

  it('a command that takes one question takes it from the arguments or from one file, not both, not several', () => {
    assert.equal(oneQuestion(['why', 'x'], undefined), 'why x');
    assert.equal(oneQuestion([], file('h.json', '{"question": "Q1"}')), 'Q1');
    assert.throws(() => oneQuestion(['x'], file('i.txt', 'Q')), /not both/);
    assert.throws(() => oneQuestion([], file('j.jsonl', '{"question": "Q1"}\n{"question": "Q2"}')), /holds 2 questions; this command takes one/);
  });
});
