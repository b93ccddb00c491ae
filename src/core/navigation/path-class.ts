/** What a path is for, judged from its name alone: source, peripheral (examples, benchmarks, vendored) or test. */

/** Ordered: a lower class is the likelier home of a canonical definition. */
export const PathClass = { Source: 0, Peripheral: 1, Test: 2 } as const;
export type PathClass = (typeof PathClass)[keyof typeof PathClass];

const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'spec', 'specs', 'testdata', 'testing', 'fixtures', '__mocks__', 'mocks', 'e2e', 'test-utils', 'testutil', 'testutils']);
const PERIPHERAL_DIRS = new Set(['example', 'examples', 'bench', 'benches', 'benchmark', 'benchmarks', 'docs', 'doc', 'vendor', 'third_party', 'third-party', 'dist', 'build', 'out', 'node_modules', 'scripts', 'tools', 'demo', 'demos', 'sample', 'samples']);
const TEST_FILE = /(^|[._-])(test|tests|spec|specs)\.[^.]+$|^test_[^/]*\.py$|_test\.(go|py)$|^conftest\.py$|Tests?\.(java|kt|swift|cs)$|\.(test|spec)\.[cm]?[jt]sx?$/;

export function classifyPath(path: string): PathClass {
  const parts = path.split('/');
  const file = parts.pop() ?? '';
  if (TEST_FILE.test(file) || parts.some((p) => TEST_DIRS.has(p.toLowerCase()))) return PathClass.Test;
  if (parts.some((p) => PERIPHERAL_DIRS.has(p.toLowerCase()))) return PathClass.Peripheral;
  return PathClass.Source;
}

/** Files that only declare what lives elsewhere: TypeScript declaration files, Python stubs, C/C++ headers. */
export function isDeclarationFile(path: string): boolean {
  return /\.d\.[cm]?ts$|\.pyi$|\.(h|hh|hpp|hxx)$/.test(path);
}

/** Path parts a qualifier can name: directories plus the file name split at dots, extension dropped. */
export function pathSegments(path: string): string[] {
  const parts = path.split('/');
  const file = parts.pop() ?? '';
  const stem = file.replace(/(\.d)?\.[^.]+$/, '');
  return [...parts, ...stem.split('.').filter(Boolean)];
}
