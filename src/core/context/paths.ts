/**
 * What kind of file a path is, from naming conventions shared across ecosystems. Tests, examples, benchmarks and
 * docs are rarely where a behaviour lives, generated or vendored copies never are (the original is), and build
 * tooling seldom is; the ranking lowers them unless the question is about them.
 */
export type PathClass = 'source' | 'test' | 'aux' | 'generated' | 'tooling';
/** Every class, in a fixed order (for classes kept as small numbers). */
export const PATH_CLASSES: readonly PathClass[] = ['source', 'test', 'aux', 'generated', 'tooling'];

const TEST_PATTERNS = [
  /(^|\/)(tests?|__tests__|testing|spec|specs|__mocks__|__fixtures__|fixtures?|testdata|test-?data|e2e|__snapshots__|test-?utils)\//i,
  /(^|\/)([^/]*[-_.])?(tests?|testing|specs?)([-_.][^/]*)?\//i,
  /\.(test|spec|e2e)(-d)?\.[cm]?[jt]sx?$/i,
  /_test\.go$/,
  /(^|\/)test_[^/]+\.py$/,
  /_tests?\.(py|rs)$/,
  /(^|\/)conftest\.py$/,
  /(Test|Tests|Spec)\.(java|kt|swift|cs)$/,
];

const AUX_PATTERNS = [
  /(^|\/)(examples?|samples?|demos?|docs?|documentation|benchmarks?|benches|bench|perf|fuzz)\//i,
  /\.(bench)\.[cm]?[jt]sx?$/i,
];

// Build output and copies: `dist/`, `deno_dist/`, `dist-cjs/`, vendored trees, generated and minified files.
const GENERATED_PATTERNS = [
  /(^|\/)([\w-]*[_-])?(dist|generated|gen|compiled|bundled?)([_-][\w-]*)?\//i,
  /(^|\/)(vendor|vendored|third_party|node_modules)\//,
  /\.min\.[cm]?js$/,
  /(\.|_)(generated|pb|gen)\.\w+$/,
];

const TOOLING_PATTERNS = [/(^|\/)(scripts?|tools?|build|ci|\.github)\//i];

export function classifyPath(path: string): PathClass {
  if (GENERATED_PATTERNS.some((re) => re.test(path))) return 'generated';
  if (TEST_PATTERNS.some((re) => re.test(path))) return 'test';
  if (AUX_PATTERNS.some((re) => re.test(path))) return 'aux';
  if (TOOLING_PATTERNS.some((re) => re.test(path))) return 'tooling';
  return 'source';
}

