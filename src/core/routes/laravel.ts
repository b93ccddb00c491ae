/**
 * Laravel routes: `Route::get('/x', [Controller::class, 'action'])` and the other verbs, `match`/`any`,
 * `Route::resource`/`apiResource` (the REST actions, `->only([...])`/`->except([...])` honoured), and the prefixes of
 * `Route::prefix('admin')->group(function () { … })` blocks.
 */
import { joinPaths } from './handlers';
import { candidates, route } from './lines';
import type { FileFacts, Route } from './types';

type Action = [name: string, method: string, suffix: string];
const RESOURCE: Action[] = [
  ['index', 'GET', ''], ['create', 'GET', '/create'], ['store', 'POST', ''], ['show', 'GET', '/{id}'],
  ['edit', 'GET', '/{id}/edit'], ['update', 'PUT', '/{id}'], ['destroy', 'DELETE', '/{id}'],
];

function names(list: string | undefined): string[] | undefined {
  return list === undefined ? undefined : [...list.matchAll(/['"](\w+)['"]/g)].map((m) => m[1]!);
}

/** `[UserController::class, 'show']` → UserController.show; `'UserController@show'` → UserController.show. */
function handlerOf(args: string): string {
  const pair = /\[\s*\\?([\w\\]+)::class\s*,\s*['"](\w+)['"]\s*\]/.exec(args);
  if (pair) return `${pair[1]!.split('\\').pop()}.${pair[2]}`;
  const at = /['"]([\w\\]+)@(\w+)['"]/.exec(args);
  if (at) return `${at[1]!.split('\\').pop()}.${at[2]}`;
  const invokable = /,\s*\\?([\w\\]+)::class\s*\)/.exec(args);
  return invokable ? invokable[1]!.split('\\').pop()! : '<anonymous>';
}

export function laravel(file: string, lines: string[], facts?: FileFacts): Route[] {
  const out: Route[] = [];
  const prefixes: Array<{ path: string; depth: number }> = [];
  let depth = 0;
  const routeLines = new Set(candidates(lines, facts, /Route::/));
  for (let n = 1; n <= lines.length; n++) {
    const line = lines[n - 1]!;
    while (prefixes.length && depth < prefixes[prefixes.length - 1]!.depth) prefixes.pop();
    const prefix = prefixes[prefixes.length - 1]?.path ?? '';
    const delta = (line.match(/\{/g)?.length ?? 0) - (line.match(/\}/g)?.length ?? 0);
    if (routeLines.has(n)) {
      const group = /Route::(?:prefix\(\s*['"]([^'"]*)['"]\s*\)|.*?->prefix\(\s*['"]([^'"]*)['"]\s*\)).*->group\(/.exec(line);
      if (group) prefixes.push({ path: joinPaths(prefix || '/', group[1] ?? group[2]!), depth: depth + 1 });
      let m = /Route::(get|post|put|patch|delete|options|any)\(\s*['"]([^'"]*)['"](.*)$/.exec(line);
      if (m) out.push(route(m[1] === 'any' ? '*' : m[1]!.toUpperCase(), joinPaths(prefix || '/', m[2]!), handlerOf(m[3]!), file, n, 'laravel'));
      else if ((m = /Route::match\(\s*\[([^\]]*)\]\s*,\s*['"]([^'"]*)['"](.*)$/.exec(line))) {
        for (const verb of names(m[1]) ?? []) out.push(route(verb.toUpperCase(), joinPaths(prefix || '/', m[2]!), handlerOf(m[3]!), file, n, 'laravel'));
      } else if ((m = /Route::(resource|apiResource)\(\s*['"]([^'"]*)['"]\s*,\s*\\?([\w\\]+)::class(.*)$/.exec(line))) {
        const only = names(/->only\(\s*\[([^\]]*)\]/.exec(m[4]!)?.[1]);
        const except = names(/->except\(\s*\[([^\]]*)\]/.exec(m[4]!)?.[1]) ?? [];
        const ctl = m[3]!.split('\\').pop()!;
        for (const [action, verb, suffix] of RESOURCE) {
          if (m[1] === 'apiResource' && (action === 'create' || action === 'edit')) continue;
          if ((only && !only.includes(action)) || except.includes(action)) continue;
          out.push(route(verb, joinPaths(prefix || '/', m[2]!) + suffix, `${ctl}.${action}`, file, n, 'laravel'));
        }
      }
    }
    depth += delta;
  }
  return out;
}
