/** Runs the built CLI (dist/cli.js) as a user would: a child process with argv, stdout, stderr and an exit code. */
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export const CLI = resolve('dist/cli.js');

export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function runCliJson<T = unknown>(args: string[], options?: { cwd?: string }): { code: number; json: T; stderr: string } {
  const r = runCli([...args, '--json'], options);
  let json: T;
  try {
    json = JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`);
  }
  return { code: r.code, json, stderr: r.stderr };
}

/**
 * Runs the CLI without blocking this process (a fake server in this process must keep answering); `chunks` records
 * stdout as it arrived. `env` is added to this process's environment; `wholeEnv` replaces it.
 */
export function runCliAsync(args: string[], options: { env?: NodeJS.ProcessEnv; wholeEnv?: NodeJS.ProcessEnv } = {}): Promise<CliResult & { chunks: string[] }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: options.wholeEnv ?? { ...process.env, ...options.env } });
    const chunks: string[] = [];
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => chunks.push(b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => { stderr += b.toString('utf8'); });
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout: chunks.join(''), stderr, chunks }));
  });
}
