/**
 * The answer keeps what retrieval found (issue 18): the files smart context returned are kept and cited in its
 * order, code first; the gate does not refuse a question smart context answered unless the question is plain English
 * (no code-like name, no word the project names anything with); the lead symbol is a function of the top-ranked file.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leadSymbol } from '../../src/core/oracle/ask';
import { createIndexCodeRetrieval } from '../../src/core/oracle/code-index';
import { indexedWorkspace } from '../helpers/indexed-workspace';
import { removeWorkspace } from '../helpers/workspace';
import { oracleAnalysis } from '../../src/core/oracle/analyse';
import { analyseQuestion as analyse } from '../../src/core/question/analysis';

/** The oracle's view of a question, as ask() makes it. */
const analyseQuestion = (q: string, hint?: { subject?: string }) => oracleAnalysis(analyse(q), hint);
import type { TermStats } from '../../src/core/oracle/code-retrieval';
import { hasProjectTerm, rankCandidates } from '../../src/core/oracle/rank';
import { orderByRole } from '../../src/core/oracle/roles';
import type { Candidate } from '../../src/core/oracle/sources/source';

interface Spec {
  path: string;
  line?: number;
  symbol?: string;
  kind?: string;
  scope?: string;
  method?: 'context' | 'definition' | 'fulltext';
  source?: 'code' | 'docs';
  pathScore?: number;
  fileRank?: number;
}

function candidate(s: Spec): Candidate {
  const line = s.line ?? 1;
  return {
    evidence: {
      key: `${s.path}:${line}-${line + 9}`, source: s.source ?? 'code', method: s.method ?? 'context', path: s.path, line, endLine: line + 9,
      title: s.symbol ? `${s.kind ?? 'function'} ${s.symbol}` : 'top-level code', text: s.scope ?? '', relevance: 0, score: 0, reason: 'r',
      meta: s.symbol ? { symbol: s.symbol, kind: s.kind ?? 'function', defLine: String(line), defEndLine: String(line + 9) } : {},
    },
    scope: s.scope ?? '',
    pathScore: s.pathScore ?? 0.5,
    ...(s.fileRank !== undefined ? { fileRank: s.fileRank } : {}),
  };
}

const stats = (named: string[], df: Record<string, number> = {}): TermStats => ({ docs: 1000, df, named });

describe('the answer keeps what smart context found', () => {
  it('cites code in smart context\'s file order within a role, not by its own score', () => {
    const a = analyseQuestion('How are request bodies parsed?');
    const second = candidate({ path: 'src/utils/body.ts', symbol: 'parseBody', pathScore: 1, fileRank: 1 });
    const first = candidate({ path: 'src/request.ts', symbol: 'HonoRequest.parseBody', line: 40, pathScore: 0.4, fileRank: 0 });
    const unranked = candidate({ path: 'src/validator.ts', symbol: 'validate', method: 'fulltext', pathScore: 1 });
    for (const c of [first, second]) c.evidence.meta!.fileRank = String(c.fileRank);
    const ordered = orderByRole([unranked, second, first], a, 'How are request bodies parsed?');
    assert.deepEqual(ordered.map((c) => c.evidence.path), ['src/request.ts', 'src/utils/body.ts', 'src/validator.ts']);
  });

  it('puts the subject\'s own definition first only for "where is X defined", not ahead of ranked files otherwise', () => {
    const run = (q: string): string[] => {
      const a = analyseQuestion(q);
      const def = candidate({ path: 'benchmarks/OkHttp.java', symbol: 'OkHttp', kind: 'class', method: 'definition', scope: 'class OkHttp handshake tls version' });
      def.exact = true;
      const files = ['Converter.java', 'RealConnection.java', 'Cache.java', 'OkHttpClient.java', 'Handshake.java']
        .map((f, i) => candidate({ path: `okhttp/${f}`, symbol: `S${i}`, scope: 'handshake tls version null OkHttp', fileRank: i }));
      const ranked = rankCandidates([def, ...files], a, [stats(['OkHttp'])]);
      return [...new Set(orderByRole(ranked.kept, a, q).map((c) => c.evidence.path!))].slice(0, 5);
    };
    assert.equal(run('Forbid null for a handshake TLS version in `OkHttp`')[4], 'okhttp/Handshake.java');
    assert.equal(run('Where is `OkHttp` defined?')[0], 'benchmarks/OkHttp.java');
  });

  it('keeps the best candidate of each of smart context\'s first files even when it shares few words with a long question', () => {
    // A commit message as the question: most of its words are nowhere in the code.
    const q = 'Handle `BaseExceptions` - add test and changes - make test more idiomatic';
    const a = analyseQuestion(q);
    const app = candidate({ path: 'flask/app.py', symbol: 'Flask.wsgi_app', line: 80, scope: 'def wsgi_app(self, environ):\n    try:\n        ctx.push()\n    except Exception as e:\n        error = e', fileRank: 0 });
    const ranked = rankCandidates([app], a, [stats(['BaseExceptionHandler'], { handle: 40, test: 300 })]);
    assert.equal(ranked.hasContext, true, 'smart context answered: not "nothing found"');
    assert.deepEqual(ranked.kept.map((c) => c.evidence.path), ['flask/app.py']);
  });
});

describe('plain English and project terms', () => {
  it('a project term is a name the project gives wholly in the question\'s words; unknown without a code corpus', () => {
    assert.equal(hasProjectTerm([stats([])]), false);
    assert.equal(hasProjectTerm([stats(['router'])]), true);
    assert.equal(hasProjectTerm([{ docs: 10, df: {} }]), undefined);
  });

  it('finds the project\'s names made of the question\'s words in a real index: a symbol, a compound, a file, never a fragment', async () => {
    // Sixty names hold "files" inside a longer name besides the one named `files` alone.
    const many = Array.from({ length: 60 }, (_, i) => `def list_files_${i}(path):\n    return open(path).read()\n`).join('\n');
    const ws = await indexedWorkspace({
      'src/a/readers.py': many,
      'src/links.py': 'def files(link):\n    return link.files\n',
      'src/contract.py': 'def life_clause(contract):\n    """The meaning of the life clause."""\n    return 12\n',
      'src/retry.ts': 'export function backoffDelay(attempt: number): number {\n  return 250 * 2 ** attempt;\n}\n',
    });
    try {
      // Term statistics read the index alone; the capabilities the façade hands in are not reached.
      const unused = async (): Promise<never> => { throw new Error('termStats must not call a capability'); };
      const code = createIndexCodeRetrieval(async () => ws.db, { context: unused, definitions: unused, references: unused });
      const named = async (terms: string[]): Promise<string[]> => (await code.termStats(terms)).named ?? [];
      assert.deepEqual(await named(['support', 'yanked', 'files']), ['files']);
      assert.deepEqual(await named(['backoff', 'delay', 'computed']), ['backoffDelay']);
      assert.deepEqual(await named(['how', 'long', 'contract']), ['contract.py']);
      assert.deepEqual(await named(['meaning', 'life']), [], '`life_clause` holds "life" only inside a longer name');
    } finally {
      await ws.dispose();
      removeWorkspace(ws.root);
    }
  });

  it('code alone does not answer a plain-English question, even a definition holding all its words', () => {
    const a = analyseQuestion('What is the meaning of life?');
    const def = candidate({ path: 'src/contract.py', symbol: 'meaning_of_life', scope: 'def meaning_of_life():\n    """The meaning of life."""\n    return 42', fileRank: 0 });
    const ranked = rankCandidates([def], a, [stats([], { meaning: 1, life: 2 })]);
    assert.equal(ranked.hasContext, false);
    assert.deepEqual(ranked.kept, []);
    // The same code for a question that uses a project term is answered.
    const asked = analyseQuestion('What is the meaning of the life clause?');
    const named = rankCandidates([candidate({ path: 'src/contract.py', symbol: 'meaning_of_life', scope: 'def meaning_of_life():\n    """The meaning of the life clause."""', fileRank: 0 })],
      asked, [stats(['life_clause'], { meaning: 1, life: 2, clause: 3 })]);
    assert.equal(named.hasContext, true);
  });

  it('a question that names a construct of code ("func", "return", "comments") is about code, though it names nothing the project defines', () => {
    for (const question of ['Add short func with named return', 'Fix 2 comments']) {
      const a = analyseQuestion(question);
      const found = candidate({ path: 'src/tree.go', symbol: 'walk', scope: 'func walk(n *node) (count int) {\n\t// walk counts the nodes\n\treturn\n}', fileRank: 0 });
      const ranked = rankCandidates([found], a, [stats([], { short: 3, func: 9, named: 4, return: 9, fix: 2, comments: 5 })]);
      assert.equal(ranked.hasContext, true, question);
      assert.deepEqual(ranked.kept.map((c) => c.evidence.path), ['src/tree.go'], question);
    }
  });
});

describe('the lead symbol', () => {
  it('is a function of the top-ranked file the question names, not a type there or an as well named function further down', () => {
    const a = analyseQuestion('How does the router match a path with parameters?');
    const kept = [
      candidate({ path: 'src/router/trie-router/router.ts', symbol: 'TrieRouterMatchParams', kind: 'type', fileRank: 0 }),
      candidate({ path: 'src/router/trie-router/router.ts', symbol: 'TrieRouter.add', kind: 'method', line: 20, fileRank: 0 }),
      candidate({ path: 'src/router/linear-router/router.ts', symbol: 'LinearRouter.match', kind: 'method', fileRank: 1 }),
      candidate({ path: 'src/router/trie-router/router.ts', symbol: 'TrieRouter.match', kind: 'method', line: 40, fileRank: 0 }),
    ];
    assert.equal(leadSymbol(kept, a), 'TrieRouter.match');
  });

  it('when the top-ranked file only declares types, is the function of the next file the question names', () => {
    const a = analyseQuestion('What happens when a route handler throws an error?');
    const kept = [
      candidate({ path: 'types/hooks.d.ts', symbol: 'onErrorHookHandler', kind: 'interface', fileRank: 0 }),
      candidate({ path: 'lib/request.js', symbol: 'Request', kind: 'function', fileRank: 1 }),
      candidate({ path: 'fastify.js', symbol: 'fastify.setErrorHandler', kind: 'function', fileRank: 2 }),
      candidate({ path: 'lib/error-handler.js', symbol: 'handleError', kind: 'function', fileRank: 3 }),
    ];
    assert.equal(leadSymbol(kept, a), 'fastify.setErrorHandler');
    // Its file opens the answer, so the opening cites [1].
    const ordered = orderByRole(kept, a, 'What happens when a route handler throws an error?', 'fastify.setErrorHandler');
    assert.deepEqual(ordered.map((c) => c.evidence.path), ['fastify.js', 'types/hooks.d.ts', 'lib/request.js', 'lib/error-handler.js']);
  });

  it('prefers any function of the top-ranked file to a type or interface named by the question', () => {
    const a = analyseQuestion('How is the router configured?');
    const kept = [
      candidate({ path: 'src/router.ts', symbol: 'RouterOptions', kind: 'interface', fileRank: 0 }),
      candidate({ path: 'src/router.ts', symbol: 'buildRoutes', kind: 'function', line: 30, fileRank: 0 }),
    ];
    assert.equal(leadSymbol(kept, a), 'buildRoutes');
  });
});
