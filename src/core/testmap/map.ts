/**
 * Maps test files to a node by, in order of trust: what they import (a test importing the node's code tests it),
 * their name (`test_auth.py` → node or file `auth`), and where they live (`tests/auth/…`, or inside the node's
 * source folder). Coverage: more than 3 test files high, 1–3 medium, none but a framework in use low, else none.
 */
import type { CodeView } from '../graph/code-view';
import { readTextRel } from '../graph/workspace-files';
import type { GraphNode } from '../graph/types';
import type { FileSystem } from '../ports';
import { countTests, normalise, testFramework, testSubject, type TestFramework } from './detect';

export interface TestMapping {
  /** The framework with the most mapped test files (beadloom's single label). */
  framework: string;
  /** Every framework the mapped test files use, most files first (XCTest next to pytest, say); empty when none map. */
  frameworks: string[];
  test_files: string[];
  test_count: number;
  coverage_estimate: 'high' | 'medium' | 'low' | 'none';
}

const MAX_TEST_FILES = 50;

export async function mapTests(fs: FileSystem, root: string, code: CodeView, node: GraphNode, nodeFiles: readonly string[]): Promise<TestMapping | null> {
  const tests = new Map<string, TestFramework>();
  for (const path of code.fileTable().keys()) {
    const fw = testFramework(path);
    if (fw) tests.set(path, fw);
  }
  if (!tests.size) return null;
  const own = new Set(nodeFiles);
  const stems = new Set([...nodeFiles].map((f) => normalise(f.split('/').pop()!.replace(/\.[^.]+$/, ''))));
  const names = new Set([normalise(node.ref_id), ...(node.source ? [normalise(node.source.replace(/\/+$/, '').split('/').pop()!.replace(/\.[^.]+$/, ''))] : [])]);
  const sourceDir = node.source?.replace(/\/+$/, '');
  const mapped: string[] = [];
  for (const [path, _fw] of tests) {
    if (own.has(path) && !sourceDir) continue;
    const imports = code.importsOf(path).some((i) => own.has(i.target));
    const subject = testSubject(path);
    const named = names.has(subject) || (stems.has(subject) && subject.length > 2);
    const dirs = path.split('/').slice(0, -1).map(normalise);
    const near = dirs.some((d) => names.has(d)) || (sourceDir !== undefined && path.startsWith(`${sourceDir}/`));
    if (imports || named || near) mapped.push(path);
  }
  mapped.sort();
  const files = mapped.slice(0, MAX_TEST_FILES);
  let count = 0;
  for (const f of files) {
    const text = await readTextRel(fs, root, f);
    if (text !== undefined) count += countTests(tests.get(f)!, text);
  }
  const byFramework = new Map<string, number>();
  for (const f of mapped) byFramework.set(tests.get(f)!, (byFramework.get(tests.get(f)!) ?? 0) + 1);
  const language = dominantFramework(nodeFiles);
  const frameworks = [...byFramework].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([fw]) => fw);
  const framework = frameworks[0] ?? (language && [...tests.values()].includes(language) ? language : [...tests.values()][0]!);
  const coverage = mapped.length > 3 ? 'high' : mapped.length >= 1 ? 'medium' : 'low';
  return { framework, frameworks, test_files: files, test_count: count, coverage_estimate: coverage };
}

/** The framework a node's own language would use, to name the framework when nothing maps yet. */
function dominantFramework(files: readonly string[]): TestFramework | undefined {
  const ext = files.map((f) => f.slice(f.lastIndexOf('.'))).sort().pop();
  switch (ext) {
    case '.py': return 'pytest';
    case '.ts': case '.tsx': case '.js': case '.jsx': return 'jest';
    case '.go': return 'go_test';
    case '.java': case '.kt': return 'junit';
    case '.swift': return 'xctest';
    case '.cs': return 'dotnet_test';
    case '.rb': return 'rspec';
    case '.php': return 'phpunit';
    default: return undefined;
  }
}
