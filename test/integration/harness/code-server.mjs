// code-server = the real VS Code server + web workbench, installed from npm (see scripts/install-vscode-runtime.sh).
// Started on 127.0.0.1 with no auth and fresh user-data/extensions/XDG folders, in its own session and process group
// (detached → setsid) so stopping it ends every child: extension hosts, our language server, file watchers.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { installScript, lmProviderPath, repoRoot, runtime } from './paths.mjs';

/** Runs the (idempotent) installer; throws when it fails. */
export function ensureRuntime(log) {
  const t0 = Date.now();
  const r = spawnSync('bash', [installScript], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`scripts/install-vscode-runtime.sh failed (exit ${r.status})`);
  log(`runtime ready (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

export function codeServerVersion() {
  const out = execFileSync(join(runtime.nodeBin, 'node'), [runtime.codeServerEntry, '--version'], {
    encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: '/tmp', XDG_DATA_HOME: '/tmp' }, stdio: ['ignore', 'pipe', 'ignore'],
  });
  // "4.139.1 <commit> with Code 1.139.1"
  const m = /(\d+\.\d+\.\d+) \S+ with Code (\S+)/.exec(out);
  return m ? { codeServer: m[1], vscode: m[2] } : { codeServer: 'unknown', vscode: 'unknown' };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * @param {{ stateDir: string, logFile: string, env?: Record<string,string>, log: (m: string) => void }} o
 * @returns {Promise<{ url: string, pgid: number, stop: () => Promise<void> }>}
 */
export async function startCodeServer(o) {
  const { stateDir, logFile, log } = o;
  const dirs = ['user-data/User', 'extensions', 'xdg-config', 'xdg-data', 'xdg-cache'].map((d) => join(stateDir, d));
  for (const d of dirs) mkdirSync(d, { recursive: true });
  writeFileSync(join(stateDir, 'user-data/User/settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'security.workspace.trust.enabled': false,
    'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false, 'update.mode': 'none', 'workbench.tips.enabled': false,
    'workbench.enableExperiments': false, 'chat.disableAIFeatures': true,
  }, null, 2));
  const port = await freePort();
  // Extensions installed as a user would (the workbench loads only one extension under development from the payload).
  for (const vsix of o.install ?? []) {
    const r = spawnSync(join(runtime.nodeBin, 'node'), [runtime.codeServerEntry, '--extensions-dir', join(stateDir, 'extensions'),
      '--user-data-dir', join(stateDir, 'user-data'), '--config', join(stateDir, 'config.yaml'), '--install-extension', vsix],
    { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: join(stateDir, 'xdg-config'), XDG_DATA_HOME: join(stateDir, 'xdg-data') } });
    if (r.status !== 0) throw new Error(`installing ${vsix} failed: ${r.stdout}${r.stderr}`);
    log(`installed ${vsix}`);
  }
  const out = openSync(logFile, 'a');
  const env = {
    ...process.env,
    ...o.env,
    PATH: `${runtime.nodeBin}:${process.env.PATH}`,
    XDG_CONFIG_HOME: join(stateDir, 'xdg-config'),
    XDG_DATA_HOME: join(stateDir, 'xdg-data'),
    XDG_CACHE_HOME: join(stateDir, 'xdg-cache'),
  };
  const args = [runtime.codeServerEntry, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry',
    '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--user-data-dir', join(stateDir, 'user-data'), '--extensions-dir', join(stateDir, 'extensions'),
    '--config', join(stateDir, 'config.yaml')];
  const t0 = Date.now();
  const child = spawn(join(runtime.nodeBin, 'node'), args, { detached: true, stdio: ['ignore', out, out], env });
  closeSync(out);
  const pgid = child.pid;
  let exited = null;
  child.on('exit', (code, signal) => { exited = { code, signal }; });

  const stop = async () => {
    const alive = () => { try { process.kill(-pgid, 0); return true; } catch { return false; } };
    try { process.kill(-pgid, 'SIGTERM'); } catch { return; }
    for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    if (alive()) { try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ } }
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited early (${JSON.stringify(exited)}); see ${logFile}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { await stop(); throw new Error(`code-server not healthy after 120 s; see ${logFile}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
  log(`code-server (pgid ${pgid}) healthy on ${url} after ${Date.now() - t0} ms`);
  return { url, pgid, stop };
}

/**
 * Packs test/integration/lm-provider (the suite's stand-in for a Copilot model: a language model provider) into a
 * .vsix with the repository's vsce, for startCodeServer to install.
 */
export function packLmProvider(dir, log) {
  mkdirSync(dir, { recursive: true });
  const vsix = join(dir, 'lm-provider.vsix');
  const r = spawnSync(join(repoRoot, 'node_modules/.bin/vsce'), ['package', '--allow-missing-repository', '--skip-license', '-o', vsix],
    { cwd: lmProviderPath, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`packing ${lmProviderPath} failed: ${r.stdout}${r.stderr}`);
  log(`packed the test language model provider into ${vsix}`);
  return vsix;
}

/**
 * Unpacks a .vsix the way VS Code installs it (code-server --install-extension into a folder of its own) and returns
 * the extension's folder, to be loaded as the extension under development: the workbench runs tests only for one.
 */
export function unpackVsix(vsix, dir, log) {
  mkdirSync(dir, { recursive: true });
  const r = spawnSync(join(runtime.nodeBin, 'node'), [runtime.codeServerEntry, '--extensions-dir', join(dir, 'extensions'),
    '--user-data-dir', join(dir, 'user-data'), '--config', join(dir, 'config.yaml'), '--install-extension', vsix],
  { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg'), XDG_DATA_HOME: join(dir, 'xdg') } });
  const folder = readdirSync(join(dir, 'extensions'), { withFileTypes: true }).find((e) => e.isDirectory())?.name;
  if (r.status !== 0 || !folder) throw new Error(`installing ${vsix} failed: ${r.stdout}${r.stderr}`);
  log(`unpacked ${vsix} into ${join(dir, 'extensions', folder)}`);
  return join(dir, 'extensions', folder);
}
