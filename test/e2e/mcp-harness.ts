/**
 * Drives the built MCP server as a host does: the SDK's own Client over StdioClientTransport spawning
 * `node dist/cli.js mcp --root <workspace>`. Workspaces are temporary copies of test/fixtures/mcp.
 */
import { cpSync, mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from '../helpers/cli';
import { removeWorkspace } from '../helpers/workspace';

export const FIXTURE = resolve('test/fixtures/mcp');

/**
 * A fresh temporary copy of the MCP fixture workspace (never indexed). The declared graph is kept as
 * `dot-context-oracle/` in the repository (the index folder ignores itself in git) and becomes `.context-oracle/`.
 */
export function copyFixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'co-mcp-'));
  cpSync(FIXTURE, root, { recursive: true });
  renameSync(join(root, 'dot-context-oracle'), join(root, '.context-oracle'));
  return root;
}

/** Fresh copies of the fixture, one per call, all removed when the calling test file ends. */
export function fixtureWorkspaces(): () => string {
  const roots: string[] = [];
  after(() => roots.forEach(removeWorkspace));
  return () => {
    const root = copyFixture();
    roots.push(root);
    return root;
  };
}

export interface Served {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** The test's cache folder (see esbuild.mjs): the server never writes into the user's real cache. */
export function cacheEnv(): Record<string, string> {
  const dir = process.env.CONTEXT_ORACLE_TEST_CACHE ?? process.env.XDG_CACHE_HOME;
  return dir ? { XDG_CACHE_HOME: dir, LOCALAPPDATA: dir, CONTEXT_ORACLE_TEST_CACHE: dir } : {};
}

/**
 * `env`, when given, is the server's whole environment (the SDK otherwise passes only a safe default set), plus
 * the test's cache folder.
 */
export async function serve(root: string, extraArgs: string[] = [], env?: Record<string, string>): Promise<Served> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--root', root, ...extraArgs],
    stderr: 'pipe',
    env: { ...(env ?? getDefaultEnvironment()), ...cacheEnv() },
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => { err += chunk.toString('utf8'); });
  const client = new Client({ name: 'context-oracle-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

export interface Called<T = Record<string, unknown>> {
  isError: boolean;
  /** The first content block parsed as JSON. */
  json: T;
  /** Every content block's text. */
  texts: string[];
  raw: CallToolResult;
}

export async function call<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (p: Progress) => void,
): Promise<Called<T>> {
  const raw = (await client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress } : {})) as CallToolResult;
  const texts = raw.content.map((c) => (c.type === 'text' ? c.text : ''));
  return { isError: raw.isError === true, json: JSON.parse(texts[0] ?? 'null') as T, texts, raw };
}

export interface ErrorBody {
  code: string;
  message: string;
  suggestions?: string[];
}
