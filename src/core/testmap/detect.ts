/** Which test framework a file belongs to, how many tests it holds, and what it is named after. */
/** `dotnet_test`: xUnit, NUnit and MSTest alike (one naming convention, told apart only by their attributes). */
export type TestFramework = 'pytest' | 'jest' | 'go_test' | 'junit' | 'xctest' | 'dotnet_test' | 'rspec' | 'minitest' | 'phpunit';

export function testFramework(path: string): TestFramework | undefined {
  const name = path.split('/').pop()!;
  if (/^test_.+\.py$|^.+_test\.py$/.test(name) || name === 'conftest.py') return 'pytest';
  if (/\.(test|spec)\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/.test(name) || (/(^|\/)__tests__\//.test(path) && /\.(ts|tsx|js|jsx|mjs|cjs)$/.test(name))) return 'jest';
  if (name.endsWith('_test.go')) return 'go_test';
  if (/Tests?\.(java|kt)$/.test(name) || (/(^|\/)src\/test\//.test(path) && /\.(java|kt)$/.test(name))) return 'junit';
  if (/Tests?\.swift$/.test(name) || (/Tests\//.test(path) && name.endsWith('.swift'))) return 'xctest';
  if (/Tests?\.cs$/.test(name)) return 'dotnet_test';
  if (name.endsWith('_spec.rb')) return 'rspec';
  if (/^test_.+\.rb$|^.+_test\.rb$/.test(name)) return 'minitest';
  if (/Test\.php$/.test(name)) return 'phpunit';
  return undefined;
}

const COUNTERS: Record<TestFramework, RegExp> = {
  pytest: /^\s*(?:async\s+)?def\s+test\w*\s*\(/gm,
  jest: /(?:^|[^\w.])(?:it|test)(?:\.(?:only|skip|concurrent|todo))?\s*\(/gm,
  go_test: /^func\s+Test\w*\s*\(/gm,
  junit: /@(?:Test|ParameterizedTest)\b/g,
  xctest: /\bfunc\s+test\w*\s*\(/g,
  dotnet_test: /\[\s*(?:Fact|Theory|Test|TestCase|TestMethod|DataTestMethod)\b/g,
  rspec: /^\s*(?:it|specify|scenario)\b(?:\s+['"(]|\s*\{|\s+do\b)/gm,
  minitest: /^\s*(?:def\s+test_\w*|test\s+['"])/gm,
  phpunit: /\bfunction\s+test\w*\s*\(|@test\b|#\[\s*Test\s*\]/g,
};

export function countTests(framework: TestFramework, text: string): number {
  return text.match(COUNTERS[framework])?.length ?? 0;
}

/**
 * The subject a test file is named after: `test_auth.py`, `auth_test.go`, `auth.spec.ts`, `AuthTests.swift`,
 * `auth_spec.rb`, `AuthTest.php` → auth.
 */
export function testSubject(path: string): string {
  const name = path.split('/').pop()!.replace(/\.[^.]+$/, '');
  return normalise(name.replace(/^test_|_test$|_spec$|\.(test|spec)$|Tests?$/g, ''));
}

/** Lower-cased with separators dropped, so `auth-service`, `auth_service` and `AuthService` compare equal. */
export function normalise(s: string): string {
  return s.toLowerCase().replace(/[-_.\s]/g, '');
}
