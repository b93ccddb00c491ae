/**
 * Rails routes from `config/routes.rb` (and `config/routes/*.rb`): verbs (`get 'x', to: 'c#a'`, `get 'x' => 'c#a'`),
 * `root`, `resources`/`resource` (the seven REST actions, `only:`/`except:` honoured) and the blocks that nest them
 * (`namespace`, `scope`, a `resources` block's member paths). Read by text: the file is a DSL, every line a call.
 */
import { joinPaths } from './handlers';
import { route } from './lines';
import type { Route } from './types';

type Action = [name: string, method: string, suffix: string];
const PLURAL: Action[] = [
  ['index', 'GET', ''], ['new', 'GET', '/new'], ['create', 'POST', ''], ['show', 'GET', '/:id'],
  ['edit', 'GET', '/:id/edit'], ['update', 'PATCH', '/:id'], ['destroy', 'DELETE', '/:id'],
];
const SINGULAR: Action[] = [
  ['new', 'GET', '/new'], ['create', 'POST', ''], ['show', 'GET', ''], ['edit', 'GET', '/edit'], ['update', 'PATCH', ''], ['destroy', 'DELETE', ''],
];

interface Scope { path: string; module: string; closesAt: number }

function symbols(list: string | undefined): string[] | undefined {
  return list === undefined ? undefined : [...list.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

/** The line without a trailing comment: a `#` outside quotes (`'pages#home'` keeps its own). */
function uncommented(line: string): string {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) { if (c === quote) quote = ''; } else if (c === "'" || c === '"') quote = c;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}

/** Paths always start with `/`, under a prefix or not. */
const under = (prefix: string, sub: string): string => joinPaths(prefix || '/', sub);

export function rails(file: string, lines: string[]): Route[] {
  const out: Route[] = [];
  const stack: Scope[] = [];
  let depth = 0;
  const here = () => stack[stack.length - 1] ?? { path: '', module: '', closesAt: -1 };
  for (let n = 1; n <= lines.length; n++) {
    const line = uncommented(lines[n - 1]!);
    const opens = /\bdo(\s*\|[^|]*\|)?\s*$/.test(line);
    if (/^\s*end\b/.test(line)) {
      depth--;
      while (stack.length && here().closesAt >= depth) stack.pop();
      continue;
    }
    const { path: prefix, module } = here();
    const controller = (c: string) => (module ? `${module}/${c}` : c);
    let m = /^\s*(get|post|put|patch|delete|match)\s+['"]([^'"]*)['"](.*)$/.exec(line);
    if (m) {
      const to = /(?:to:\s*|=>\s*)['"]([\w/]+#\w+)['"]/.exec(m[3]!)?.[1];
      const via = m[1] === 'match' ? (symbols(/via:\s*(\[[^\]]*\]|:\w+)/.exec(m[3]!)?.[1]) ?? ['all']).map((v) => (v === 'all' ? '*' : v.toUpperCase())) : [m[1]!.toUpperCase()];
      const action = /action:\s*:(\w+)/.exec(m[3]!)?.[1];
      const handler = to ? controller(to) : action ?? m[2]!.replace(/^\//, '').replace(/\//g, '#');
      for (const verb of via) out.push(route(verb, under(prefix, m[2]!), handler, file, n, 'rails'));
    } else if ((m = /^\s*root\s+(?:to:\s*)?['"]([\w/]+#\w+)['"]/.exec(line))) {
      out.push(route('GET', under(prefix, '/'), controller(m[1]!), file, n, 'rails'));
    } else if ((m = /^\s*(resources|resource)\s+:(\w+)(.*)$/.exec(line))) {
      const name = m[2]!;
      const only = symbols(/only:\s*(\[[^\]]*\]|:\w+)/.exec(m[3]!)?.[1]);
      const except = symbols(/except:\s*(\[[^\]]*\]|:\w+)/.exec(m[3]!)?.[1]) ?? [];
      const base = under(prefix, name);
      for (const [action, verb, suffix] of m[1] === 'resources' ? PLURAL : SINGULAR) {
        if ((only && !only.includes(action)) || except.includes(action)) continue;
        out.push(route(verb, base + suffix, controller(`${name}#${action}`), file, n, 'rails'));
      }
      // Routes nested in a `resources :users do` block live under /users/:user_id.
      if (opens) stack.push({ path: m[1] === 'resources' ? `${base}/:${name.replace(/s$/, '')}_id` : base, module, closesAt: depth });
    } else if ((m = /^\s*namespace\s+:(\w+)/.exec(line))) {
      if (opens) stack.push({ path: under(prefix, m[1]!), module: controller(m[1]!), closesAt: depth });
    } else if ((m = /^\s*scope\s+(?:path:\s*)?['"]([^'"]*)['"]/.exec(line))) {
      const mod = /module:\s*['":]*(\w+)/.exec(line)?.[1];
      if (opens) stack.push({ path: under(prefix, m[1]!), module: mod ? controller(mod) : module, closesAt: depth });
    } else if (opens && /^\s*(member|collection)\b/.test(line)) {
      // `member do` paths hang off /users/:id, `collection do` ones off /users: the enclosing resources block's path.
      const parent = here().path.replace(/\/:\w+_id$/, '');
      stack.push({ path: /member/.test(line) ? `${parent}/:id` : parent, module, closesAt: depth });
    } else if (opens) {
      stack.push({ path: prefix, module, closesAt: depth });
    }
    if (opens) depth++;
  }
  return out;
}
