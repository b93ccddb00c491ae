/**
 * ASP.NET Core routes: attribute routing on controllers (`[Route("api/[controller]")]` on the class, `[HttpGet("{id}")]`
 * on actions) and minimal APIs (`app.MapGet("/x", handler)`, with `var g = app.MapGroup("/api")` prefixes).
 */
import { handlerAfter, handlerArgument, joinPaths } from './handlers';
import { candidates, route } from './lines';
import type { FileFacts, Route } from './types';

const VERBS: Record<string, string> = { Get: 'GET', Post: 'POST', Put: 'PUT', Delete: 'DELETE', Patch: 'PATCH', Head: 'HEAD', Options: 'OPTIONS' };

export function aspnet(file: string, lines: string[], facts?: FileFacts): Route[] {
  const out: Route[] = [];
  let prefix = '';
  let controller = '';
  const groups = new Map<string, string>();
  // Attributes are not calls to the parser, so every non-comment line is a candidate for them.
  const attributeLines = new Set(candidates(lines, undefined, /\[\s*(Route|Http\w+)\b/));
  const callLines = new Set(candidates(lines, facts, /\.Map(Get|Post|Put|Delete|Patch|Methods|Group)?\s*\(\s*"/));
  for (let n = 1; n <= lines.length; n++) {
    const line = lines[n - 1]!;
    const cls = /\bclass\s+(\w+?)(?:Controller)?\b/.exec(line);
    if (cls) controller = cls[1]!;
    if (attributeLines.has(n)) {
      const next = lines.slice(n, n + 6).find((l) => l.trim() && !l.trim().startsWith('['));
      const onClass = next !== undefined && /\bclass\s+\w+/.test(next);
      const r = /\[\s*Route\(\s*"([^"]*)"/.exec(line);
      if (r && onClass) {
        const name = /\bclass\s+(\w+?)(?:Controller)?\b/.exec(next)?.[1] ?? '';
        prefix = r[1]!.replace(/\[controller\]/gi, name);
        continue;
      }
      const m = /\[\s*Http(Get|Post|Put|Delete|Patch|Head|Options)(?:\(\s*"([^"]*)")?/.exec(line);
      if (!m) continue;
      const sub = m[2] ?? r?.[1] ?? '';
      // An action template starting with `/` or `~/` ignores the controller's prefix.
      const path = /^~?\//.test(sub) ? sub.replace(/^~/, '') : joinPaths(prefix.replace(/\[controller\]/gi, controller) || '/', sub);
      out.push(route(VERBS[m[1]!]!, path, handlerAfter(lines, n, facts), file, n, 'aspnet'));
      continue;
    }
    if (!callLines.has(n)) continue;
    const g = /\b(\w+)\s*=\s*(\w+)\.MapGroup\(\s*"([^"]*)"/.exec(line);
    if (g) { groups.set(g[1]!, joinPaths(groups.get(g[2]!) ?? '', g[3]!)); continue; }
    const m = /\b(\w+)\.Map(Get|Post|Put|Delete|Patch)?\(\s*"([^"]*)"/.exec(line);
    if (!m) continue;
    const group = groups.get(m[1]!);
    out.push(route(m[2] ? VERBS[m[2]]! : '*', group !== undefined ? joinPaths(group, m[3]!) : m[3]!, handlerArgument(line.slice(m.index)), file, n, 'aspnet'));
  }
  return out;
}
