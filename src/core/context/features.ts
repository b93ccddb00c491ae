/**
 * Per-file features for a fitted ranker (issue 17): the signals `rankFiles` combines by hand, plus cheap ones aimed
 * at the misses seen on code nobody tuned on — a file stem or package folder the question names in any case style,
 * the file that defines a named type rather than the files that use it, per-language module files (`mod.rs`,
 * `__init__.py`, a Go package folder), C header/source and test/source counterparts, and the question's rarest
 * terms (a long commit body's common words drown the one specific name). Pure over the evidence and today's ranked
 * list, deterministic; the evaluation dump (scripts/eval/dump-features.mjs) and the product compute them here.
 */
import { splitIdentifier } from '../parse/identifiers';
import type { Evidence } from './evidence';
import type { ScoredFile } from './rank-files';
import { isStopword } from '../text/stopwords';
import { stem } from './terms';

/** Feature names in a fixed order, with what each means (written beside the dump, shown by `--explain`). */
export const FEATURES = {
  entity: 'today: a symbol named in the question is defined here (0..1)',
  proximity: 'today: graph closeness to the strongest files',
  bm25File: 'today: whole-file BM25, over the best file',
  bm25Chunk: 'today: best-chunk BM25 aggregate, over the best file',
  focus: 'today: best share of the question vocabulary in one chunk',
  path: 'today: question words in the file name and folders',
  mentionRef: 'today: the file uses a named symbol',
  coverage: 'today: idf share of the question terms the file holds',
  todayScore: "today's final score over the question's best",
  todayRecip: "1 / (1 + today's rank)",
  clsTest: 'path class test',
  clsAux: 'path class aux (examples, docs, benchmarks)',
  clsGenerated: 'path class generated copy',
  clsTooling: 'path class build tooling',
  testAsked: 'a test file and the question is about tests',
  stemExact: 'the file stem, case style ignored, is a question identifier or a run of 1-4 question words',
  stemExactMulti: 'stemExact for a stem of two or more words (body-limit, bodyLimit, body_limit)',
  stemExactUnique: 'stemExact divided by how many files share the stem',
  stemParts: 'share of the stem words among the question words (stemmed)',
  stemIsName: 'the file stem, case style ignored, is a code-like name of the question (CamelCase, snake_case, quoted)',
  dirExact: 'the parent folder, case style ignored, is a question identifier or word run',
  dirAny: 'some folder on the path is a question identifier or word run (src/lib/pkg excluded)',
  goPackage: 'a Go file whose folder (its package) the question names',
  moduleFile: 'a module file (mod.rs, lib.rs, __init__.py, index.*) whose module (folder or crate) the question names',
  indexFile: 'index/__init__/mod/lib/main file',
  definesName: 'defines, by exact or qualified name, a code-like name of the question',
  definesType: 'defines a class/struct/interface/trait/enum/type the question names',
  definesUnique: 'definesName over how many files define that name',
  classFile: 'the file stem is a type the question names and the file defines it (class-per-file)',
  usesOnly: 'uses a named symbol without defining any',
  headerPair: "the best today's score of its C/C++ header or source counterpart (same stem), over the best",
  testPair: "the best today's score of its test or tested-source counterpart, over the best",
  testNamed: 'a source file whose test counterpart the question names',
  specific: "idf share of the question's three rarest terms that the file holds",
  rarest: "holds the question's rarest term",
  depth: 'path segments / 10',
  logLines: 'log(1 + lines) / 10',
} as const;

export type FeatureName = keyof typeof FEATURES;
export const FEATURE_NAMES = Object.keys(FEATURES) as FeatureName[];
export type FeatureVector = Record<FeatureName, number>;

const GENERIC_DIRS = new Set(['src', 'lib', 'pkg', 'internal', 'main', 'java', 'kotlin', 'com', 'org', 'app', 'source']);
const INDEX_STEMS = new Set(['index', '__init__', 'mod', 'lib', 'main']);
const TYPE_KINDS = new Set(['class', 'interface', 'type', 'enum', 'struct', 'trait', 'protocol', 'object']);
const C_FAMILY = /\.(c|cc|cpp|cxx|h|hh|hpp|hxx)$/;
/** Terms counted as the question's specific ones (the rarest that some file holds). */
const RARE_TERMS = 3;

/** A name with case style ignored (`bodyLimit`, `body_limit`, `body-limit` → `bodylimit`). */
export const normName = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const norm = normName;

/** The file's base name without extension and without a `.d`/`.test`/`.spec` infix. */
export function fileStem(path: string): string {
  return (path.slice(path.lastIndexOf('/') + 1)).replace(/\.[^.]*$/, '').replace(/\.(d|test|spec)$/, '');
}

/** What the question names, case style ignored: identifiers, runs of 1–4 words, code-like names, stemmed words. */
export interface QuestionForms {
  /** Identifiers and word runs, normalised (`bodyLimit`, `body_limit`, "body limit" → `bodylimit`). */
  forms: Set<string>;
  /** Code-like names only (not plain words), normalised. */
  names: Set<string>;
  stems: Set<string>;
  /** What named tests test (`TestBodyLimit`, `test_body_limit`, `body_limit_test` → `bodylimit`). */
  tests: Set<string>;
}

export function questionForms(question: string, ev?: Pick<Evidence, 'entities'>): QuestionForms {
  const forms = new Set<string>();
  const add = (s: string): void => {
    const n = norm(s);
    if (n.length < 2) return;
    forms.add(n);
    if (n.length > 3 && n.endsWith('s')) forms.add(n.slice(0, -1));
  };
  for (const tok of question.match(/[A-Za-z_$][A-Za-z0-9_$-]*/g) ?? []) add(tok.replace(/-+$/, ''));
  const words = (question.match(/[A-Za-z0-9]+/g) ?? []).flatMap((w) => splitIdentifier(w)).map((w) => w.toLowerCase());
  for (let i = 0; i < words.length; i++) for (let n = 2; n <= 4 && i + n <= words.length; n++) add(words.slice(i, i + n).join(''));
  const stems = new Set(words.filter((w) => w.length >= 2 && !isStopword(w)).map((w) => stem(w)));
  const names = new Set<string>();
  for (const e of ev?.entities ?? []) {
    if (e.kind === 'word' || e.kind === 'path') continue;
    const last = e.text.split(/\.|::|#|\//).filter(Boolean).pop() ?? '';
    if (norm(last).length >= 3) names.add(norm(last));
    // A kebab-case quoted name (`body-limit`) names a file as surely as `bodyLimit` does.
  }
  for (const tok of question.match(/`([^`\n]{2,80})`/g) ?? []) names.add(norm(tok));
  const tests = new Set<string>();
  for (const tok of question.match(/[A-Za-z_$][\w$.]*/g) ?? []) {
    const m = /^(?:Test_?|test_)(\w{3,})$|^(\w{3,}?)(?:_test|Test|_spec|\.test|\.spec)$/.exec(tok);
    if (m) tests.add(norm(m[1] ?? m[2]!));
  }
  return { forms, names, stems, tests };
}

/** The counterpart key of a test file (`foo_test.go`, `test_foo.py`, `FooTest.java`, `foo.test.ts` → `foo`). */
function testedStem(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]*$/, '');
  const m = /^(?:test_(.+)|(.+?)(?:_test|_spec|\.test|\.spec|Tests?|Spec))$/.exec(base);
  const s = m ? (m[1] ?? m[2]) : undefined;
  return s ? norm(s) : undefined;
}

/** A module file's module name: `a/b/mod.rs`, `a/b/__init__.py`, `a/b/index.ts` → `b`; `crate/src/lib.rs` → `crate`. */
function moduleName(segs: string[], stemName: string): string | undefined {
  if (!INDEX_STEMS.has(stemName)) return undefined;
  const dirs = segs.slice(0, -1);
  let i = dirs.length - 1;
  if ((stemName === 'lib' || stemName === 'main') && dirs[i] === 'src') i--;
  return i >= 0 ? norm(dirs[i]!) : undefined;
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * Features of the first `depth` files of today's ranked list (in that order). `ranked` is today's order after the
 * cut-off, as `context` lists it.
 */
export function fileFeatures(ev: Evidence, ranked: ScoredFile[], depth = ranked.length): FeatureVector[] {
  const list = ranked.slice(0, depth);
  const best = list[0]?.score || 1;
  const qf = questionForms(ev.question, ev);

  // Kept with the index's facts (counted over every file: per question it cost 15-30 ms at 16k files).
  const stemCount = ev.facts.stemCounts;

  // Definitions of code-like names, per file; how many files define each name.
  const defines = new Map<number, { unique: number; type: boolean; names: Set<string> }>();
  const definers = new Map<string, Set<number>>();
  for (const m of ev.matches) {
    if (m.how !== 'exact' && m.how !== 'qualified') continue;
    if (m.entityKind === 'word' || m.entityKind === 'path') continue;
    let set = definers.get(m.name);
    if (!set) definers.set(m.name, (set = new Set()));
    set.add(m.fileId);
  }
  for (const m of ev.matches) {
    const set = definers.get(m.name);
    if (!set?.has(m.fileId)) continue;
    const d = defines.get(m.fileId) ?? { unique: 0, type: false, names: new Set<string>() };
    d.unique = Math.max(d.unique, 1 / set.size);
    if (TYPE_KINDS.has(m.kind)) {
      d.type = true;
      d.names.add(norm(m.name));
    }
    defines.set(m.fileId, d);
  }

  // Counterparts among the listed files: C headers and sources by stem, tests and the source they test.
  const cBest = new Map<string, Map<string, number>>();
  const testBest = new Map<string, number>();
  const sourceBest = new Map<string, number>();
  for (const r of list) {
    const rel = r.score / best;
    const st = norm(fileStem(r.path));
    if (C_FAMILY.test(r.path)) {
      const ext = r.path.slice(r.path.lastIndexOf('.') + 1);
      const byExt = cBest.get(st) ?? new Map<string, number>();
      byExt.set(ext, Math.max(byExt.get(ext) ?? 0, rel));
      cBest.set(st, byExt);
    }
    const tested = ev.facts.files.get(r.fileId)?.cls === 'test' ? testedStem(r.path) : undefined;
    if (tested) testBest.set(tested, Math.max(testBest.get(tested) ?? 0, rel));
    else sourceBest.set(st, Math.max(sourceBest.get(st) ?? 0, rel));
  }

  // The question's rarest terms that some file holds (idf over files).
  const p = ev.text.terms.length;
  const held = ev.text.held;
  const rare = ev.text.terms.map((_, t) => t).filter((t) => held & (1 << t)).sort((a, b) => ev.text.idf[b]! - ev.text.idf[a]! || a - b).slice(0, RARE_TERMS);
  const rareTotal = rare.reduce((s, t) => s + ev.text.idf[t]!, 0) || 1;

  return list.map((r, i) => {
    const fact = ev.facts.files.get(r.fileId)!;
    const segs = r.path.split('/');
    const st = fileStem(r.path);
    const nst = norm(st);
    const stemWords = splitIdentifier(st.replace(/[-.]/g, '_')).map((w) => w.toLowerCase()).filter((w) => w.length >= 2);
    const exact = qf.forms.has(nst) ? 1 : 0;
    const dirs = segs.slice(0, -1).map(norm).filter((d) => d.length >= 2);
    const parent = dirs[dirs.length - 1];
    const mod = moduleName(segs, st);
    const def = defines.get(r.fileId);
    const s = r.signals;
    const tf = ev.text.files.get(r.fileId)?.tf;
    const holds = (t: number): boolean => !!tf && tf[t]! + tf[p + t]! > 0;
    let headerPair = 0;
    if (C_FAMILY.test(r.path)) {
      const ext = r.path.slice(r.path.lastIndexOf('.') + 1);
      const header = ext.startsWith('h');
      for (const [e, v] of cBest.get(nst) ?? []) if (e.startsWith('h') !== header) headerPair = Math.max(headerPair, v);
    }
    const tested = fact.cls === 'test' ? testedStem(r.path) : undefined;
    const testPair = tested ? (sourceBest.get(tested) ?? 0) : (testBest.get(nst) ?? 0);
    const f: FeatureVector = {
      entity: s.entity, proximity: s.proximity, bm25File: s.bm25File, bm25Chunk: s.bm25Chunk, focus: s.focus, path: s.path,
      mentionRef: s.mentionRef, coverage: s.coverage, todayScore: r.score / best, todayRecip: 1 / (1 + i),
      clsTest: fact.cls === 'test' ? 1 : 0, clsAux: fact.cls === 'aux' ? 1 : 0, clsGenerated: fact.cls === 'generated' ? 1 : 0,
      clsTooling: fact.cls === 'tooling' ? 1 : 0, testAsked: fact.cls === 'test' && ev.aboutTests ? 1 : 0,
      stemExact: exact, stemExactMulti: exact && stemWords.length >= 2 ? 1 : 0, stemExactUnique: exact / (stemCount.get(nst) ?? 1),
      stemParts: stemWords.length ? stemWords.filter((w) => qf.stems.has(stem(w))).length / stemWords.length : 0,
      stemIsName: qf.names.has(nst) ? 1 : 0,
      dirExact: parent && qf.forms.has(parent) ? 1 : 0,
      dirAny: dirs.some((d) => !GENERIC_DIRS.has(d) && qf.forms.has(d)) ? 1 : 0,
      goPackage: r.path.endsWith('.go') && parent && !GENERIC_DIRS.has(parent) && qf.forms.has(parent) ? 1 : 0,
      moduleFile: mod && !GENERIC_DIRS.has(mod) && qf.forms.has(mod) ? 1 : 0,
      indexFile: INDEX_STEMS.has(st) ? 1 : 0,
      definesName: def ? 1 : 0, definesType: def?.type ? 1 : 0, definesUnique: def?.unique ?? 0,
      classFile: def?.names.has(nst) ? 1 : 0,
      usesOnly: s.mentionRef > 0 && !def ? 1 : 0,
      headerPair, testPair,
      testNamed: fact.cls !== 'test' && nst.length >= 3 && [...qf.tests].some((t) => t === nst || (nst.length >= 4 && t.startsWith(nst))) ? 1 : 0,
      specific: rare.reduce((acc, t) => acc + (holds(t) ? ev.text.idf[t]! : 0), 0) / rareTotal,
      rarest: rare.length && holds(rare[0]!) ? 1 : 0,
      depth: segs.length / 10, logLines: Math.log1p(fact.lines) / 10,
    };
    for (const k of FEATURE_NAMES) f[k] = round(f[k]);
    return f;
  });
}
