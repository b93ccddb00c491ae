/**
 * One graph YAML file → plain records with the line each was declared on. Syntax errors are reported with their
 * line and everything declared before the first error still loads; shape errors drop only the offending item.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { GraphIssue } from './types';

export interface YamlItem {
  data: Record<string, unknown>;
  line: number;
}

export interface ParsedYamlFile {
  nodes: YamlItem[];
  edges: YamlItem[];
  /** Items of a top-level `rules:` list (a rules file may live next to the graph files). */
  rules: YamlItem[];
  /** Top-level `tags:` map (tag → ref_ids), as in beadloom's rules.yml version 3. */
  tags: Record<string, string[]>;
  hasRules: boolean;
  issues: GraphIssue[];
}

export function parseYamlFile(file: string, text: string): ParsedYamlFile {
  const out: ParsedYamlFile = { nodes: [], edges: [], rules: [], tags: {}, hasRules: false, issues: [] };
  const lines = new LineCounter();
  const lineOf = (offset: number | undefined): number => (offset === undefined ? 1 : lines.linePos(offset).line);
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  let cutoff = Infinity;
  for (const e of doc.errors) {
    cutoff = Math.min(cutoff, e.pos[0]);
    out.issues.push({ severity: 'error', code: 'yaml_syntax', file, line: lineOf(e.pos[0]), message: `invalid YAML: ${e.message.split('\n')[0]}` });
  }
  for (const w of doc.warnings) {
    out.issues.push({ severity: 'warning', code: 'yaml_syntax', file, line: lineOf(w.pos[0]), message: w.message.split('\n')[0]! });
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return out;
  if (!isMap(root)) {
    if (cutoff === Infinity) out.issues.push(shape(file, lineOf(root.range?.[0]), 'the top level must be a mapping with `nodes:` and `edges:` lists'));
    return out;
  }
  const complete = (n: YamlNode): boolean => (n.range?.[2] ?? Infinity) <= cutoff;
  const list = (key: string): YamlItem[] => {
    const pair = root.items.find((p) => isScalar(p.key) && p.key.value === key);
    if (!pair || pair.value === null || (isScalar(pair.value) && pair.value.value === null)) return [];
    const seq = pair.value as YamlNode;
    if (!isSeq(seq)) {
      out.issues.push(shape(file, lineOf(seq.range?.[0]), `\`${key}\` must be a list`));
      return [];
    }
    const items: YamlItem[] = [];
    for (const item of seq.items as YamlNode[]) {
      if (!complete(item)) break;
      if (!isMap(item)) {
        out.issues.push(shape(file, lineOf(item.range?.[0]), `each entry of \`${key}\` must be a mapping`));
        continue;
      }
      items.push({ data: item.toJSON() as Record<string, unknown>, line: lineOf(item.range?.[0]) });
    }
    return items;
  };
  out.nodes = list('nodes');
  out.edges = list('edges');
  out.hasRules = root.items.some((p) => isScalar(p.key) && p.key.value === 'rules');
  out.rules = list('rules');
  const tagsPair = root.items.find((p) => isScalar(p.key) && p.key.value === 'tags');
  if (tagsPair && isMap(tagsPair.value) && complete(tagsPair.value as YamlNode)) {
    for (const [tag, ids] of Object.entries(tagsPair.value.toJSON() as Record<string, unknown>)) {
      out.tags[tag] = Array.isArray(ids) ? ids.map(String) : typeof ids === 'string' ? [ids] : [];
    }
  }
  return out;
}

function shape(file: string, line: number, message: string): GraphIssue {
  return { severity: 'error', code: 'invalid_shape', file, line, message };
}
