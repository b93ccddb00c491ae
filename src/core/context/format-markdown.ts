/** The markdown rendering of a context: a heading per file, fenced code per node, call sites as a list. */
import type { CallSite } from './call-sites';
import { dedent, oneLine, type ContextFormatter, type Selected } from './render';

/** Fence info strings for the index's language ids. */
const FENCE: Record<string, string> = { typescript: 'ts', tsx: 'tsx', javascript: 'js', python: 'python', go: 'go', rust: 'rust', java: 'java', c: 'c', cpp: 'cpp', kotlin: 'kotlin', swift: 'swift', objc: 'objc', csharp: 'csharp', ruby: 'ruby', php: 'php' };

/** Backticks in code would close an inline span early; a longer fence keeps them. */
const inline = (s: string): string => (s.includes('`') ? `\`\` ${s} \`\`` : `\`${s}\``);

export const markdownFormatter: ContextFormatter = {
  header: (question) => `# Context: ${question.split('\n')[0]!.trim().slice(0, 200)}`,
  file: (path) => `\n## ${inline(path)}`,
  node({ node, mode }: Selected, language: string) {
    const label = node.kind === 'file' ? 'code' : `${node.kind} ${inline(node.symbol ?? oneLine(node.signature, '?'))}`;
    const where = node.lineStart === node.lineEnd ? `line ${node.lineStart}` : `lines ${node.lineStart}–${node.lineEnd}`;
    const head = `**${label}** · ${where} · relevance ${node.score.toFixed(2)}${node.reason === 'class context' ? ' · class context' : ''}`;
    const body = mode === 'signature' || node.reason === 'class context' ? [oneLine(node.signature, node.symbol ?? '')] : dedent(node.text);
    const doc = mode === 'full' && node.reason !== 'class context' && node.doc ? `\n> ${node.doc.split('\n').map((l) => l.trim()).join(' ')}` : '';
    const fence = body.some((l) => l.includes('```')) ? '````' : '```';
    return [`${head}${doc}`, `${fence}${FENCE[language] ?? ''}`, ...body, fence].join('\n');
  },
  callSitesHeader: () => '\n## Call sites',
  callSite: (s: CallSite) => `- ${inline(s.callee)} ← ${inline(`${s.path}:${s.line}`)}${s.caller ? ` in ${inline(s.caller)}` : ''}: ${inline(s.code)}`,
  empty: (question, reason) => `# Context: ${question.split('\n')[0]!.trim().slice(0, 200)}\n\nNo relevant code: ${reason}.`,
};
