/**
 * A small MCP endpoint over HTTP (the Streamable HTTP transport, answering with plain JSON; no server-sent stream) for
 * agents outside the editor. Bound to 127.0.0.1 only; every request needs `Authorization: Bearer <token>`. A browser
 * cannot be used to reach it: agents send no Origin, so any request that carries one is refused (a page on another
 * loopback port is a web page too), and the Host must name the bound port on 127.0.0.1 or localhost (a DNS-rebound
 * name is refused). The tools are injected, so this file has no 'vscode' import and is tested in plain Node.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HttpTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
  /** Returns the tool's text; throws ToolInputError for bad input (reported as a tool error, not a protocol error). */
  run(args: Record<string, unknown>): Promise<string>;
}

export class ToolInputError extends Error {}

export interface McpHttpOptions {
  token: string;
  tools: HttpTool[];
  /** 0 = any free port. */
  port?: number;
  serverInfo: { name: string; version: string };
  log?: (message: string) => void;
}

export interface McpHttpEndpoint {
  url: string;
  port: number;
  close(): Promise<void>;
}

const PROTOCOL_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05'];
const MAX_BODY = 1024 * 1024;

type JsonRpc = { jsonrpc: '2.0'; id?: string | number | null; method?: string; params?: Record<string, unknown> };

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether a request may be from a browser page. Agents send no Origin; a page always does on a cross-origin POST, and a
 * page on another loopback port (a dev server, a local web app) is still a web page, so any Origin is refused.
 */
function fromWebPage(headers: IncomingMessage['headers']): boolean {
  return headers.origin !== undefined;
}

/** The Host must be the address the server is bound to: a DNS-rebound name (evil.example -> 127.0.0.1) is refused. */
function expectedHost(host: string | undefined, port: number): boolean {
  const h = host?.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/** A body JSON-RPC can answer: one request object, or a non-empty batch of them (null, numbers, [] are not). */
function isRequestShape(body: unknown): boolean {
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  return Array.isArray(body) ? body.length > 0 && body.every(isObject) : isObject(body);
}

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), 'Cache-Control': 'no-store', ...headers });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new Error('request body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function startMcpHttp(o: McpHttpOptions): Promise<McpHttpEndpoint> {
  const tools = new Map(o.tools.map((t) => [t.name, t]));

  async function handle(msg: JsonRpc): Promise<unknown | undefined> {
    const reply = (result: unknown) => ({ jsonrpc: '2.0', id: msg.id ?? null, result });
    const fail = (code: number, message: string) => ({ jsonrpc: '2.0', id: msg.id ?? null, error: { code, message } });
    if (msg?.jsonrpc !== '2.0' || typeof msg.method !== 'string') return fail(-32600, 'not a JSON-RPC 2.0 request');
    if (msg.id === undefined) return undefined; // a notification (notifications/initialized, cancelled): nothing to say
    switch (msg.method) {
      case 'initialize': {
        const asked = String(msg.params?.protocolVersion ?? '');
        return reply({
          protocolVersion: PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0],
          capabilities: { tools: { listChanged: false } },
          serverInfo: o.serverInfo,
          instructions: "Exact definitions and references from the editor's own language servers, for this workspace only.",
        });
      }
      case 'ping':
        return reply({});
      case 'tools/list':
        return reply({ tools: o.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) });
      case 'tools/call': {
        const tool = tools.get(String(msg.params?.name ?? ''));
        if (!tool) return fail(-32602, `unknown tool ${String(msg.params?.name)}`);
        const args = msg.params?.arguments;
        try {
          const text = await tool.run(args && typeof args === 'object' && !Array.isArray(args) ? args as Record<string, unknown> : {});
          return reply({ content: [{ type: 'text', text }], isError: false });
        } catch (e) {
          return reply({ content: [{ type: 'text', text: e instanceof Error ? e.message : String(e) }], isError: true });
        }
      }
      default:
        return fail(-32601, `method not found: ${msg.method}`);
    }
  }

  let boundPort = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (fromWebPage(req.headers)) return send(res, 403, { error: 'requests from web pages (with an Origin header) are not allowed' });
      if (!expectedHost(req.headers.host, boundPort)) return send(res, 403, { error: `the Host must be 127.0.0.1:${boundPort} or localhost:${boundPort}` });
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith('Bearer ') || !sameToken(auth.slice(7).trim(), o.token)) {
        return send(res, 401, { error: 'missing or wrong bearer token' }, { 'WWW-Authenticate': 'Bearer' });
      }
      if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return send(res, 404, { error: 'the endpoint is /mcp' });
      if (req.method !== 'POST') return send(res, 405, { error: 'POST JSON-RPC to /mcp' }, { Allow: 'POST' });
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readBody(req));
      } catch (e) {
        return send(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: `parse error: ${e instanceof Error ? e.message : String(e)}` } });
      }
      if (!isRequestShape(parsed)) {
        return send(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: send a JSON-RPC request object or a non-empty array of them' } });
      }
      const batch = Array.isArray(parsed);
      const answers = (await Promise.all((batch ? parsed as JsonRpc[] : [parsed as JsonRpc]).map(handle))).filter((a) => a !== undefined);
      if (!answers.length) return send(res, 202);
      return send(res, 200, batch ? answers : answers[0]);
    })().catch((e: unknown) => {
      o.log?.(`MCP HTTP request failed: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      boundPort = port;
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        port,
        close: () => new Promise<void>((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
      });
    });
  });
}
