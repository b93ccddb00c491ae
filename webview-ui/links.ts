/** Which link targets the panel turns into links (no DOM here: unit-tested in plain Node). */
const PATH_REF = /^([\w@.+-]+(?:\/[\w@.+-]+)*\.[A-Za-z0-9]+)(?::(\d+)(?:-(\d+))?)?$/;

/** `src/a.ts:3-9` → parts, or undefined when it does not look like a workspace file reference. */
export function parsePathRef(text: string): { path: string; line?: number; endLine?: number } | undefined {
  const m = PATH_REF.exec(text.trim());
  if (!m || m[1]!.startsWith('/') || m[1]!.split('/').includes('..')) return undefined;
  return { path: m[1]!, ...(m[2] ? { line: Number(m[2]) } : {}), ...(m[3] ? { endLine: Number(m[3]) } : {}) };
}

/** Only these link targets become links; everything else is text. */
export function linkKind(url: string): 'citation' | 'path' | 'external' | 'refused' {
  const u = url.trim();
  if (/^\d+$/.test(u)) return 'citation';
  if (/^https?:\/\/[^\s]+$/i.test(u)) return 'external';
  if (parsePathRef(u)) return 'path';
  return 'refused';
}
