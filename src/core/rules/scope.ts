/** Which files code rules look at: beadloom's `scan_paths` from `.beadloom/config.yml` (default src, lib, app). */
import { parse } from 'yaml';
import { readTextRel } from '../graph/workspace-files';
import type { FileSystem } from '../ports';
import type { RuleScope } from './code-facts';

const DEFAULT_SCAN = ['src', 'lib', 'app'];

/** A workspace without a beadloom config is looked at whole. */
export async function ruleScope(fs: FileSystem, root: string): Promise<RuleScope> {
  const text = await readTextRel(fs, root, '.beadloom/config.yml');
  if (text === undefined) return {};
  let config: unknown;
  try {
    config = parse(text);
  } catch {
    return { scanPaths: DEFAULT_SCAN };
  }
  const paths = config && typeof config === 'object' ? (config as Record<string, unknown>).scan_paths : undefined;
  const list = Array.isArray(paths) ? paths.map(String).map((p) => p.replace(/^\.\//, '').replace(/\/+$/, '')).filter(Boolean) : [];
  return { scanPaths: list.length ? list : DEFAULT_SCAN };
}
