/**
 * Headless Chromium for tests that must run in a real browser. Like the integration harness
 * (test/integration/harness/browser.mjs): the system's chromium (CHROMIUM, else /usr/bin/chromium) driven over CDP by
 * playwright-core, which downloads no browser. Where chromium is missing a test skips with the reason, except under
 * CI=true, where it fails: CI must run what the browser tests check.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { after, before, type TestContext } from 'node:test';
import type * as Esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
// Loaded at run time from the repository's node_modules, not bundled into the test.
const load = createRequire(resolve('package.json'));

export function chromiumPath(): string {
  return process.env.CHROMIUM || '/usr/bin/chromium';
}

/** Why a browser test cannot run here, or undefined when it can. */
export function browserUnavailable(): string | undefined {
  if (!existsSync(chromiumPath())) return `chromium not found at ${chromiumPath()} (apt-get install chromium, or set CHROMIUM)`;
  try {
    load.resolve('playwright-core');
  } catch {
    return 'playwright-core is not installed (npm ci)';
  }
  return undefined;
}

/** The browser, or undefined after skipping the test (outside CI) when there is none; under CI=true a missing one fails. */
export async function chromiumOrSkip(t: TestContext): Promise<Browser | undefined> {
  const why = browserUnavailable();
  if (why) {
    if (process.env.CI === 'true') throw new Error(`${why}; CI=true, so the browser test fails instead of skipping`);
    t.skip(why);
    return undefined;
  }
  const { chromium } = load('playwright-core') as typeof import('playwright-core');
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
}

/** One IIFE script for the page, bundled by esbuild from `source` (TypeScript, imports resolved from the repo root). */
export async function bundleForBrowser(source: string): Promise<string> {
  const esbuild = load('esbuild') as typeof Esbuild;
  const r = await esbuild.build({
    stdin: { contents: source, loader: 'ts', resolveDir: resolve('.'), sourcefile: 'browser-entry.ts' },
    bundle: true, platform: 'browser', format: 'iife', target: 'es2022', write: false, logLevel: 'silent',
  });
  return r.outputFiles[0]!.text;
}

/**
 * Pages for a browser test: `source` bundled once (before the file's tests), one chromium for the file (closed
 * after), and `open(t)` gives a fresh page holding `html` with the bundle loaded, or undefined when the test was
 * skipped for want of chromium (see chromiumOrSkip).
 */
export function scriptedPages(source: string, html: string, options: { viewport?: { width: number; height: number } } = {}): (t: TestContext) => Promise<Page | undefined> {
  let browser: Browser | undefined;
  let script = '';
  before(async () => { script = await bundleForBrowser(source); });
  after(async () => { await browser?.close(); });
  return async (t) => {
    browser ??= await chromiumOrSkip(t);
    if (!browser) return undefined;
    const page = await browser.newPage(options.viewport ? { viewport: options.viewport } : {});
    await page.setContent(html);
    await page.addScriptTag({ content: script });
    return page;
  };
}
