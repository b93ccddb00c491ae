// Drives the code-server workbench with Debian's chromium through playwright-core: opens the fixture workspace with
// the development payload (extensionDevelopmentPath + extensionTestsPath), relays the extension host's test output,
// takes the screenshots the suite asks for, and resolves with the exit code the workbench reports.
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import { runtime } from './paths.mjs';
import { uiSteps } from './ui-steps.mjs';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SUITE_STARTED = 'CONTEXT-ORACLE-INTEGRATION-START'; // logged by suite/index.ts
const SCREENSHOT_REQUEST = /^\[harness:screenshot\] ([\w.-]+)$/;
const UI_REQUEST = /^\[harness:ui\] ([\w.-]+) (\{.*\})$/;
// Workbench chatter that says nothing about our tests (it still goes to workbench.log); offline gallery lookups fail.
const NOISE = [/^Resolv(ing|ed) connection token/, /^Creating a socket/, /^\[reconnection-grace-time\]/, /^Updating additional builtin/,
  /^\[Service Worker\]/, /^\[AgentHost/, /^\[AccountPolicyGate\]/, /^Creation of workbench contribution/, /ENOTFOUND open-vsx\.org/,
  /^Started local extension host/, /^Extension host \(/, /authentication provider 'github'/];

function loadPlaywright() {
  const found = runtime.playwrightCandidates.find((p) => existsSync(join(p, 'package.json')));
  if (!found) throw new Error('playwright-core is not installed (npm ci, or scripts/install-vscode-runtime.sh)');
  return createRequire(import.meta.url)(found);
}

export function chromiumPath() {
  return process.env.CHROMIUM || '/usr/bin/chromium';
}

/**
 * The workbench URL for a folder or a `.code-workspace` file; code-server uses the page's host as the remote authority
 * for vscode-remote:// URIs.
 */
function workbenchUrl(baseUrl, folder, devPath, testsPath) {
  const authority = new URL(baseUrl).host;
  const remote = (p) => `vscode-remote://${authority}${resolve(p)}`;
  const payload = [['extensionDevelopmentPath', remote(devPath)], ['extensionTestsPath', remote(testsPath)]];
  return `${baseUrl}/?${folder.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(resolve(folder))}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/**
 * VS Code 1.13x's built web workbench ignores the payload unless developmentOptions.enableSmokeTestDriver is set, and
 * code-server rejects the server flag for it, so patch what the workbench reads from its configuration meta element.
 * (Rewriting the HTML with page.route() instead makes Chromium block the workbench's WebSocket to 127.0.0.1.)
 */
function enableDevelopmentPayload(page) {
  return page.addInitScript(() => {
    const orig = Element.prototype.getAttribute;
    Element.prototype.getAttribute = function (name) {
      const v = orig.call(this, name);
      if (name === 'data-settings' && this.id === 'vscode-workbench-web-configuration' && v) {
        try {
          const cfg = JSON.parse(v);
          cfg.developmentOptions = Object.assign({}, cfg.developmentOptions, { enableSmokeTestDriver: true });
          return JSON.stringify(cfg);
        } catch { /* leave as is */ }
      }
      return v;
    };
  });
}

/**
 * @param {{ baseUrl: string, workspace: string, devPath: string, testsPath: string, signalDir: string,
 *           outDir: string, timeoutMs: number, startTimeoutMs: number, log: (m: string) => void,
 *           onOutput: (line: string) => void, logPrefix?: string }} o
 * @returns {Promise<{ code: number | 'timeout', started: boolean, statusBarText?: string, tooltipText?: string,
 *           screenshots: string[] }>}
 */
export async function runExtensionTests(o) {
  const { chromium } = loadPlaywright();
  const userDataDir = mkdtempSync(join(tmpdir(), 'context-oracle-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS, viewport: { width: 1400, height: 860 },
  });
  const result = { code: 'timeout', started: false, screenshots: [] };
  const consoleLines = [];
  const workbenchLog = [];
  try {
    const page = context.pages()[0] ?? await context.newPage();
    page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));

    const statusBarItem = page.locator('.statusbar-item', { hasText: /Oracle:/ }).first();
    const screenshot = async (name) => {
      // The suite asks once the index is ready: wait for the item to say so before taking the picture.
      await page.locator('.statusbar-item', { hasText: /Oracle: \d+ files?/ }).first().waitFor({ timeout: 10_000 })
        .catch(() => o.log('status bar item never showed "Oracle: N files"'));
      result.statusBarText = (await statusBarItem.textContent({ timeout: 2_000 }).catch(() => undefined))?.trim();
      const file = join(o.outDir, `${name}.png`);
      await page.screenshot({ path: file });
      result.screenshots.push(file);
      o.log(`screenshot ${file} (status bar: ${JSON.stringify(result.statusBarText)})`);
      // and the tooltip, which carries the freshness ("Updated just now …")
      await statusBarItem.hover({ timeout: 2_000 });
      const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: 'Context Oracle index' }).first();
      if (await hover.waitFor({ timeout: 5_000 }).then(() => true, () => false)) {
        result.tooltipText = (await hover.textContent())?.replace(/\s+/g, ' ').trim();
        const tip = join(o.outDir, `${name}-tooltip.png`);
        await page.screenshot({ path: tip });
        result.screenshots.push(tip);
        o.log(`screenshot ${tip} (tooltip: ${JSON.stringify(result.tooltipText)})`);
      } else o.log('the status bar tooltip did not appear');
      await page.mouse.move(700, 400);
    };

    let finish;
    const exited = new Promise((r) => { finish = r; });
    await page.exposeFunction('codeAutomationExit', (code) => finish(code));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = format(...(args ?? []));
      const request = SCREENSHOT_REQUEST.exec(line.trim());
      if (request) {
        screenshot(request[1])
          .catch((e) => o.log(`screenshot ${request[1]} failed: ${e.message}`))
          .finally(() => writeFileSync(join(o.signalDir, `${request[1]}.done`), ''));
        return;
      }
      const ui = UI_REQUEST.exec(line.trim());
      if (ui) {
        const [, step, args] = ui;
        const run = uiSteps[step] ? uiSteps[step](page, JSON.parse(args), o.outDir) : Promise.reject(new Error(`unknown UI step ${step}`));
        run.then((r) => { o.log(`ui step ${step}: ${JSON.stringify(r).slice(0, 300)}`); return r; }, (e) => { o.log(`ui step ${step} failed: ${e.message}`); return { error: e.message }; })
          .then((r) => {
            // Written whole, then renamed: the suite polls for the file and must never read it half-written.
            const file = join(o.signalDir, `${step}.json`);
            writeFileSync(`${file}.tmp`, JSON.stringify(r));
            renameSync(`${file}.tmp`, file);
          });
        return;
      }
      workbenchLog.push(`[${type}] ${line}`);
      if (line.includes(SUITE_STARTED)) { result.started = true; return; }
      if (!NOISE.some((re) => re.test(line))) o.onOutput(type === 'error' ? `[stderr] ${line.split('\n')[0]}` : line);
    });
    await enableDevelopmentPayload(page);
    await page.goto(workbenchUrl(o.baseUrl, o.workspace, o.devPath, o.testsPath));
    let timer, startTimer;
    result.code = await Promise.race([
      exited,
      new Promise((r) => { timer = setTimeout(() => r('timeout'), o.timeoutMs); }),
      new Promise((r) => { startTimer = setTimeout(() => { if (!result.started) r('timeout'); }, o.startTimeoutMs); }),
    ]);
    clearTimeout(timer);
    clearTimeout(startTimer);
    if (result.code === 'timeout') {
      await page.screenshot({ path: join(o.outDir, 'timeout.png') }).catch(() => undefined);
    }
  } finally {
    writeFileSync(join(o.outDir, `${o.logPrefix ?? ''}browser-console.log`), consoleLines.join('\n'));
    writeFileSync(join(o.outDir, `${o.logPrefix ?? ''}workbench.log`), workbenchLog.join('\n'));
    await context.close().catch(() => undefined);
    rmSync(userDataDir, { recursive: true, force: true });
  }
  return result;
}
