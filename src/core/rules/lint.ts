/**
 * Lint: graph load problems, rules-file problems and rule violations in one report, with the exit code policy:
 * 0 by default (a report), 1 with --strict when there is any error, 1 with --fail-on-warn when there is anything.
 */
import type { Knowledge } from '../graph/knowledge';
import type { GraphIssue } from '../graph/types';
import { evaluateRules, type RuleContext } from './evaluate';
import type { RuleSet } from './load';
import type { Violation } from './types';

export interface LintReport {
  violations: Violation[];
  summary: {
    rules_evaluated: number;
    violations: number;
    errors: number;
    warnings: number;
    nodes: number;
    edges: number;
    graph_files: string[];
    rule_files: string[];
    /** False when there is no index: deny, forbid_import, check, module_coverage and unregistered_feature_candidate rules could not look at code. */
    code_indexed: boolean;
  };
}

export function lintGraph(k: Knowledge, rules: RuleSet, context: RuleContext = {}): LintReport {
  const issues = (list: readonly GraphIssue[], type: 'graph' | 'rules'): Violation[] => list.map((i) => ({
    rule: `${type}:${i.code}`, type, severity: i.severity === 'error' ? 'error' : 'warn', message: i.message, file: i.file, line: i.line,
  }));
  const violations = [...issues(k.graph.issues, 'graph'), ...issues(rules.issues, 'rules'), ...evaluateRules(k, rules.rules, context)];
  violations.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) || a.rule.localeCompare(b.rule)
    || (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || a.message.localeCompare(b.message));
  const errors = violations.filter((v) => v.severity === 'error').length;
  return {
    violations,
    summary: {
      rules_evaluated: rules.rules.length, violations: violations.length, errors, warnings: violations.length - errors,
      nodes: k.graph.nodes.size, edges: k.graph.edges.length, graph_files: k.graph.files, rule_files: rules.files, code_indexed: !!k.code,
    },
  };
}

export function lintExitCode(report: LintReport, options: { strict?: boolean; failOnWarn?: boolean }): number {
  if (options.failOnWarn && report.violations.length) return 1;
  if ((options.strict || options.failOnWarn) && report.summary.errors) return 1;
  return 0;
}

/** beadloom's names for the rule types its violations carry, where they differ from the rules.yml key. */
const BEADLOOM_TYPE: Partial<Record<Violation['type'], string>> = { forbid_cycles: 'cycle', layers: 'layer', check: 'cardinality' };

/** `rule:type:severity:file:line:from:to` per violation, as beadloom's porcelain format (empty fields stay empty). */
export function formatPorcelain(report: LintReport): string {
  return report.violations.map((v) => [v.rule, BEADLOOM_TYPE[v.type] ?? v.type, v.severity, v.file ?? '', v.line ?? '', v.from ?? '', v.to ?? ''].join(':')).join('\n');
}

export function formatRich(report: LintReport): string {
  const s = report.summary;
  if (!s.graph_files.length) return 'no graph found (.context-oracle/graph/*.yml or .beadloom/_graph/*.yml)';
  const lines = report.violations.map((v) => {
    const where = v.file ? `${v.file}${v.line ? `:${v.line}` : ''}  ` : '';
    return `${v.severity === 'error' ? '✖ error' : '⚠ warn '}  ${where}${v.message}  [${v.rule}]`;
  });
  lines.push(`${lines.length ? '\n' : ''}${s.nodes} nodes, ${s.edges} edges, ${s.rules_evaluated} rules: ${s.errors} error${s.errors === 1 ? '' : 's'}, ${s.warnings} warning${s.warnings === 1 ? '' : 's'}${s.code_indexed ? '' : ' (no index: code rules skipped)'}`);
  return lines.join('\n');
}
