/**
 * What part a piece of evidence plays in an answer, and the order the answer gives them in. A code question is
 * answered where the behaviour happens, then how it is reached, then its tests, then docs; templates, changelogs,
 * lock files and generated copies are never where a code question's answer starts.
 */
import { classifyPath } from '../context/paths';
import { isCommonCall } from './code-facts';
import type { Evidence, QuestionAnalysis } from './types';

export type Role = 'where' | 'reached' | 'tests' | 'docs' | 'history' | 'notes' | 'boilerplate';

export const ROLE_TITLES: Record<Role, string> = {
  where: 'Where it happens',
  reached: 'How it is reached',
  tests: 'Tests',
  docs: 'Docs',
  history: 'History',
  notes: 'Notes',
  boilerplate: 'Also mentioned',
};

/** PR and issue templates, changelogs and release notes, lock files, licences and codes of conduct, generated copies. */
const BOILERPLATE = [
  /(^|\/)\.github\//i,
  /(^|\/)[^/]*template[^/]*\.(md|mdx|ya?ml|txt)$/i,
  /(^|\/)(changelog|changes|history|news|releases?|release[-_]notes|upgrading|migration)[^/]*\.(md|mdx|rst|txt)$/i,
  /(^|\/)(changelogs?|\.changeset|\.changes)\//i,
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.ya?ml|bun\.lockb?|cargo\.lock|poetry\.lock|pipfile\.lock|uv\.lock|gemfile\.lock|composer\.lock|go\.sum|flake\.lock|[^/]+\.lock)$/i,
  /(^|\/)(license|licence|copying|code_of_conduct|security|funding|sponsors|governance|expense_policy|project_charter)[^/]*$/i,
];

export function isBoilerplate(path: string): boolean {
  return BOILERPLATE.some((re) => re.test(path)) || classifyPath(path) === 'generated';
}

/**
 * A question about the docs themselves, how to install or set up, or releases: docs may lead it. "during install" in
 * a question about the code's behaviour does not make it one.
 */
const ABOUT_DOCS = /\b(?:docs?|documentation|documented|readme|guide|tutorial|installation|changelog|release\s+notes?|contribut\w*|licen[cs]e)\b|\bhow\s+(?:do|can|should|to)\s+(?:i\s+|we\s+|you\s+)?(?:install|set\s*up|setup|get\s+started)\b/i;

/** Code leads the answer: every question but a change question (history leads) and one about the docs. */
export function codeLeads(a: QuestionAnalysis, question: string): boolean {
  return a.kind !== 'change' && !ABOUT_DOCS.test(question);
}

/** The role of one piece of evidence; `lead` is the symbol the answer is about, when there is one. */
export function roleOf(e: Evidence, lead?: string): Role {
  if (e.source === 'git') return 'history';
  if (e.source === 'threads') return 'notes';
  if (e.path && isBoilerplate(e.path)) return 'boilerplate';
  if (e.source === 'docs') return 'docs';
  if (e.path && classifyPath(e.path) === 'test') return 'tests';
  if (e.method === 'references') return 'reached';
  // A definition that calls the lead symbol reaches it, when the lead's name is distinctive enough to tell; in a file
  // smart context ranked it stays where it happens, so the answer keeps retrieval's file order.
  const name = lead ? shortOf(lead) : undefined;
  if (name && !isCommonCall(name) && e.meta?.fileRank === undefined && e.meta?.symbol !== lead && (e.meta?.calls ?? '').split(',').includes(name)) return 'reached';
  return 'where';
}

const shortOf = (name: string): string => name.split(/::|->|[.#/]/).filter(Boolean).pop() ?? name;

const CODE_ORDER: Role[] = ['where', 'reached', 'tests', 'docs', 'notes', 'history', 'boilerplate'];
const CHANGE_ORDER: Role[] = ['history', 'where', 'reached', 'tests', 'notes', 'docs', 'boilerplate'];
const DOCS_ORDER: Role[] = ['docs', 'where', 'reached', 'tests', 'notes', 'history', 'boilerplate'];

/**
 * Evidence in the order the answer cites it: by role (as the question's kind wants), then, within a role, code in
 * smart context's file order (it ranks files better than word overlap does, and the answer must not lose what it
 * found) after the lead's file, each file's definitions before its top-level code, the lead's own definition opening
 * its file; the rest
 * best first. A change question keeps history first; a question about the docs keeps docs first.
 */
export function orderByRole<T extends { evidence: Evidence; fileRank?: number }>(ranked: T[], a: QuestionAnalysis, question: string, lead?: string): T[] {
  const order = codeLeads(a, question) ? CODE_ORDER : a.kind === 'change' ? CHANGE_ORDER : DOCS_ORDER;
  // The lead's file opens the answer, so its first sentence cites [1] (the lead comes from smart context's first five
  // files: R@5 is unchanged).
  const leadPath = lead ? ranked.find((c) => c.evidence.meta?.symbol === lead && c.evidence.meta.defLine)?.evidence.path : undefined;
  const key = (c: T, i: number): number[] => [
    order.indexOf(roleOf(c.evidence, lead)),
    leadPath && c.evidence.path === leadPath && c.evidence.source === 'code' ? -Infinity : c.fileRank ?? Infinity,
    lead && c.evidence.meta?.symbol === lead && c.evidence.meta.defLine ? 0 : 1,
    c.evidence.source === 'code' && !c.evidence.meta?.defLine ? 1 : 0,
    i,
  ];
  const keyed = ranked.map((c, i) => ({ c, k: key(c, i) }));
  keyed.sort((x, y) => {
    for (let j = 0; j < x.k.length; j++) if (x.k[j] !== y.k[j]) return x.k[j]! - y.k[j]!;
    return 0;
  });
  return keyed.map((x) => x.c);
}
