/**
 * Route extraction for FastAPI, Flask, Strawberry, Ariadne (Python); Express-style routers, NestJS, TypeGraphQL
 * (TS/JS); Gin, Echo, Fiber (Go); Spring (Java/Kotlin); ASP.NET (C#); Rails (`config/routes.rb`); Laravel (PHP);
 * `.graphql`/`.gql` schemas and gRPC `.proto` files.
 * Tree-sitter first: when the index parsed the file, only lines where the parser saw a call or decorator can
 * declare a route (a route in a comment or a string does not count) and handlers come from its definitions. Files
 * the index has no parse for (schemas, unparsed languages) fall back to text patterns. At most 100 routes a file.
 */
import { aspnet } from './aspnet';
import { handlerAfter, handlerArgument, joinPaths } from './handlers';
import { laravel } from './laravel';
import { candidates, route } from './lines';
import { rails } from './rails';
import { MAX_ROUTES_PER_FILE, type FileFacts, type Route } from './types';

export function extractRoutes(file: string, text: string, facts?: FileFacts): Route[] {
  const lower = file.toLowerCase();
  const lines = text.split(/\r?\n/);
  let routes: Route[];
  if (/\.(graphql|gql)$/.test(lower)) routes = graphqlSchema(file, lines);
  else if (lower.endsWith('.proto')) routes = proto(file, lines);
  else if (/\.pyi?$/.test(lower)) routes = python(file, text, lines, facts);
  else if (/\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/.test(lower)) routes = javascript(file, text, lines, facts);
  else if (lower.endsWith('.go')) routes = go(file, text, lines, facts);
  else if (/\.(java|kt|kts)$/.test(lower)) routes = spring(file, lines, facts);
  else if (lower.endsWith('.cs')) routes = aspnet(file, lines, facts);
  else if (/(^|\/)config\/routes(\.rb$|\/.+\.rb$)/.test(lower)) routes = rails(file, lines);
  else if (lower.endsWith('.php')) routes = laravel(file, lines, facts);
  else routes = [];
  return routes.slice(0, MAX_ROUTES_PER_FILE);
}

function python(file: string, text: string, lines: string[], facts?: FileFacts): Route[] {
  const out: Route[] = [];
  const framework = /\bfrom\s+flask\b|\bimport\s+flask\b/.test(text) && !/fastapi/.test(text) ? 'flask' : 'fastapi';
  const gqlVars = new Map<string, string>();
  for (const m of text.matchAll(/^(\w+)\s*=\s*(QueryType|MutationType|SubscriptionType|ObjectType)\(\s*(?:["'](\w+)["'])?/gm)) {
    const kind = m[2] === 'ObjectType' ? (m[3] ?? '').toUpperCase() : m[2]!.replace('Type', '').toUpperCase();
    if (kind) gqlVars.set(m[1]!, kind);
  }
  for (const n of candidates(lines, facts, /^\s*@/)) {
    const line = lines[n - 1]!;
    let m = /^\s*@\s*(\w+)\.(get|post|put|delete|patch|options|head|websocket|api_route)\(\s*(?:path\s*=\s*)?["']([^"']*)["']/.exec(line);
    if (m) {
      const method = m[2] === 'websocket' ? 'WS' : m[2] === 'api_route' ? methodsArg(line) ?? '*' : m[2]!.toUpperCase();
      out.push(route(method, m[3]!, handlerAfter(lines, n, facts), file, n, framework));
      continue;
    }
    m = /^\s*@\s*(\w+)\.route\(\s*["']([^"']*)["']/.exec(line);
    if (m) {
      for (const method of (methodsArg(line) ?? 'GET').split(',')) out.push(route(method, m[2]!, handlerAfter(lines, n, facts), file, n, 'flask'));
      continue;
    }
    m = /^\s*@\s*strawberry\.(field|mutation|subscription)\b/.exec(line);
    if (m) {
      const handler = handlerAfter(lines, n, facts);
      const method = m[1] === 'field' ? 'QUERY' : m[1]!.toUpperCase();
      if (handler) out.push(route(method, handler, handler, file, n, 'strawberry'));
      continue;
    }
    m = /^\s*@\s*(\w+)\.field\(\s*["'](\w+)["']/.exec(line);
    if (m && gqlVars.has(m[1]!)) out.push(route(gqlVars.get(m[1]!)!, m[2]!, handlerAfter(lines, n, facts), file, n, 'ariadne'));
  }
  return out;
}

function methodsArg(line: string): string | undefined {
  const m = /methods\s*=\s*[[(]([^\])]*)[\])]/.exec(line);
  if (!m) return undefined;
  const list = [...m[1]!.matchAll(/["'](\w+)["']/g)].map((x) => x[1]!.toUpperCase());
  return list.length ? list.join(',') : undefined;
}

const HTTP_DECORATORS: Record<string, string> = { Get: 'GET', Post: 'POST', Put: 'PUT', Delete: 'DELETE', Patch: 'PATCH', Options: 'OPTIONS', Head: 'HEAD', All: '*' };

function javascript(file: string, text: string, lines: string[], facts?: FileFacts): Route[] {
  const out: Route[] = [];
  const framework = /from\s+['"]fastify['"]|require\(['"]fastify['"]\)/.test(text) ? 'fastify'
    : /from\s+['"]hono['"]/.test(text) ? 'hono' : /from\s+['"]koa/.test(text) ? 'koa' : 'express';
  let prefix = '';
  for (const n of candidates(lines, facts, /@(Controller|Get|Post|Put|Delete|Patch|Options|Head|All|Query|Mutation|Subscription)\b|\.\s*(get|post|put|delete|patch|options|head|all)\s*\(/)) {
    const line = lines[n - 1]!;
    let m = /@Controller\(\s*(?:['"`]([^'"`]*)['"`])?/.exec(line);
    if (m) { prefix = m[1] ?? ''; continue; }
    m = /@(Get|Post|Put|Delete|Patch|Options|Head|All)\(\s*(?:['"`]([^'"`]*)['"`])?\s*\)/.exec(line);
    if (m) {
      out.push(route(HTTP_DECORATORS[m[1]!]!, joinPaths(prefix, m[2] ?? ''), handlerAfter(lines, n, facts), file, n, 'nestjs'));
      continue;
    }
    m = /@(Query|Mutation|Subscription)\(/.exec(line);
    if (m) {
      const handler = handlerAfter(lines, n, facts);
      if (handler) out.push(route(m[1]!.toUpperCase(), handler, handler, file, n, /@nestjs\/graphql/.test(text) ? 'nestjs-graphql' : 'type-graphql'));
      continue;
    }
    m = /\b([\w$]+)\s*\.\s*(get|post|put|delete|patch|options|head|all)\s*\(\s*['"`](\/[^'"`]*)['"`]/.exec(line);
    if (m) out.push(route(m[2] === 'all' ? '*' : m[2]!.toUpperCase(), m[3]!, handlerArgument(line.slice(m.index)), file, n, framework));
  }
  return out;
}

/**
 * Gin and Echo register with upper-case methods (`e.GET`), Fiber with capitalised ones (`app.Get`): each line is read
 * by its own style, so a file importing both Echo and Fiber keeps both kinds of routes. `g := e.Group("/api")` (any
 * of the three, nested too) puts its prefix before the paths registered on `g`.
 */
function go(file: string, text: string, lines: string[], facts?: FileFacts): Route[] {
  const out: Route[] = [];
  const upperFramework = /labstack\/echo/.test(text) ? 'echo' : /gin-gonic\/gin/.test(text) || !/gofiber\/fiber/.test(text) ? 'gin' : 'fiber';
  const upper = /\b(\w+)\.(GET|POST|PUT|DELETE|PATCH|OPTIONS|HEAD|Any)\(\s*"([^"]*)"/;
  const mixed = /\b(\w+)\.(Get|Post|Put|Delete|Patch|Options|Head|All)\(\s*"([^"]*)"/;
  const group = /\b(\w+)\s*:?=\s*(\w+)\.Group\(\s*"([^"]*)"/;
  const prefixes = new Map<string, string>();
  for (const n of candidates(lines, facts, /\.(GET|POST|PUT|DELETE|PATCH|OPTIONS|HEAD|Any|Get|Post|Put|Delete|Patch|Options|Head|All|Group)\(\s*"/)) {
    const line = lines[n - 1]!;
    const g = group.exec(line);
    if (g) { prefixes.set(g[1]!, joinPaths(prefixes.get(g[2]!) ?? '', g[3]!)); continue; }
    const u = upper.exec(line);
    const m = u ?? mixed.exec(line);
    if (!m) continue;
    const method = m[2] === 'Any' || m[2] === 'All' ? '*' : m[2]!.toUpperCase();
    const prefix = prefixes.get(m[1]!);
    out.push(route(method, prefix !== undefined ? joinPaths(prefix, m[3]!) : m[3]!, handlerArgument(line.slice(m.index)), file, n, u ? upperFramework : 'fiber'));
  }
  return out;
}

const SPRING: Record<string, string> = { GetMapping: 'GET', PostMapping: 'POST', PutMapping: 'PUT', DeleteMapping: 'DELETE', PatchMapping: 'PATCH', RequestMapping: '*' };

function spring(file: string, lines: string[], facts?: FileFacts): Route[] {
  const out: Route[] = [];
  let prefix = '';
  // Java annotations are not calls to the parser, so every non-comment line is a candidate here.
  for (const n of candidates(lines, undefined, /@(Get|Post|Put|Delete|Patch|Request)Mapping\b/)) {
    const line = lines[n - 1]!;
    const m = /@(\w+Mapping)\b(?:\(\s*(?:(?:value|path)\s*=\s*)?\{?\s*"([^"]*)")?/.exec(line);
    if (!m || !SPRING[m[1]!]) continue;
    // A mapping on the class (the next code line declares a class) sets the prefix for the methods below.
    const next = lines.slice(n, n + 6).find((l) => l.trim() && !l.trim().startsWith('@'));
    if (next && /\b(class|interface|object)\s+\w+/.test(next)) { prefix = m[2] ?? ''; continue; }
    let method = SPRING[m[1]!]!;
    const rm = /RequestMethod\.(\w+)/.exec(line);
    if (rm) method = rm[1]!.toUpperCase();
    out.push(route(method, joinPaths(prefix, m[2] ?? ''), handlerAfter(lines, n, facts), file, n, 'spring'));
  }
  return out;
}

function graphqlSchema(file: string, lines: string[]): Route[] {
  const out: Route[] = [];
  let current: string | undefined;
  let depth = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/#.*$/, '');
    const open = /^\s*(?:extend\s+)?type\s+(Query|Mutation|Subscription)\b[^{]*\{/.exec(line);
    if (open && depth === 0) {
      current = open[1]!.toUpperCase();
      depth = (line.match(/[({]/g)?.length ?? 0) - (line.match(/[)}]/g)?.length ?? 0);
      // `type Query { a: Int }` on one line opens and closes: its fields are not listed.
      if (depth <= 0) { current = undefined; depth = 0; }
      continue;
    }
    if (!current) continue;
    if (depth === 1) {
      const field = /^\s*(\w+)\s*[(:]/.exec(line);
      if (field) out.push(route(current, field[1]!, field[1]!, file, i + 1, 'graphql'));
    }
    depth += (line.match(/[({]/g)?.length ?? 0) - (line.match(/[)}]/g)?.length ?? 0);
    if (depth <= 0) { current = undefined; depth = 0; }
  }
  return out;
}

function proto(file: string, lines: string[]): Route[] {
  const out: Route[] = [];
  let service: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\/\/.*$/, '');
    const s = /^\s*service\s+(\w+)/.exec(line);
    if (s) { service = s[1]; continue; }
    const r = /^\s*rpc\s+(\w+)\s*\(/.exec(line);
    if (r && service) out.push(route('RPC', `${service}/${r[1]}`, r[1]!, file, i + 1, 'grpc'));
  }
  return out;
}
