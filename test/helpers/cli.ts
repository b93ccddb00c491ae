/** Runs the built CLI (dist/cli.js) as a user would: a child process with argv, stdout, stderr and an exit code. */
import { spawnSync } from 'node:child_process';
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
