// UI steps the integration suite asks the code-server harness to perform in chromium, as a person would: open the
// Oracle panel, type a question, click a citation, look at the why-tree. The suite logs
// `[harness:ui] <step> <json args>`; the harness runs the step against the page and writes `<step>.json` (the
// step's findings, or { error }) into the signal folder; the suite then checks the editor state from the inside.
import { join } from 'node:path';

/** The Oracle panel's document: the webview iframe inside the workbench's webview host frame. */
function panelFrame(page) {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

async function openPanel(page) {
  const frame = panelFrame(page);
  if (await frame.locator('[data-testid="question"]').isVisible({ timeout: 500 }).catch(() => false)) return frame;
  const entry = page.locator('.activitybar .action-item a[aria-label^="Context Oracle"], .activitybar [aria-label^="Context Oracle"]').first();
  for (let i = 0; i < 20; i++) {
    if (await entry.isVisible().catch(() => false)) break;
    await page.waitForTimeout(250);
  }
  await entry.click();
  await frame.locator('[data-testid="question"]').waitFor({ timeout: 20_000 });
  return frame;
}

/**
 * The notification that contains `text`: its toast, or (headless chromium's window often lacks focus, and the
 * workbench then keeps toasts back) its entry in the notification center, opened with the status bar bell as a
 * person would. On failure says what there was and takes a picture.
 */
async function toastWith(page, text, outDir, name) {
  const toast = page.locator('.notification-toast', { hasText: text }).first();
  if (await toast.waitFor({ timeout: 3_000 }).then(() => true, () => false)) return toast;
  const entry = page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
  if (!(await entry.isVisible().catch(() => false))) await page.locator('[id="status.notifications"] a, [id="status.notifications"]').first().click().catch(() => undefined);
  try {
    await entry.waitFor({ timeout: 7_000 });
  } catch (e) {
    await shot(page, outDir, `${name}-no-notification`);
    const seen = await page.locator('.notifications-toasts, .notifications-center').allTextContents().catch(() => []);
    throw new Error(`no notification with ${text} (seen: ${JSON.stringify(seen).slice(0, 400)}): ${e.message.split('\n')[0]}`);
  }
  return entry;
}

async function shot(page, outDir, name) {
  const file = join(outDir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

export const uiSteps = {
  /** Opens the panel, asks `question` (with Explain when `explain`), waits for the answer, reports what it shows. */
  async 'panel-ask'(page, { question, explain }, outDir) {
    const frame = await openPanel(page);
    const cardsBefore = await frame.locator('[data-testid="ask-card"]').count();
    if (explain) await frame.locator('[data-testid="explain-toggle"]').click();
    // Record what the card shows while the answer arrives: every phase text and the answer's length after each change.
    await frame.locator('body').evaluate((body, before) => {
      const seen = { phases: [], answers: [] };
      window.__seen = seen;
      new MutationObserver(() => {
        const card = body.querySelectorAll('[data-testid="ask-card"]')[before];
        if (!card) return;
        const phase = card.querySelector('[data-testid="phase"]')?.textContent ?? '';
        if (phase && seen.phases[seen.phases.length - 1] !== phase) seen.phases.push(phase);
        const len = card.querySelector('[data-testid="answer"]')?.textContent?.length ?? 0;
        if (seen.answers[seen.answers.length - 1] !== len) seen.answers.push(len);
      }).observe(body, { subtree: true, childList: true, characterData: true });
    }, cardsBefore);
    const box = frame.locator('[data-testid="question"] textarea');
    await box.click();
    await box.fill(question);
    await box.press('Enter');
    const card = frame.locator('[data-testid="ask-card"]').nth(cardsBefore);
    await card.waitFor({ timeout: 10_000 });
    await frame.locator('[data-testid="ask-card"].done').nth(cardsBefore).waitFor({ timeout: 60_000 });
    if (explain) await card.locator('[data-testid="signal-scores"]').waitFor({ timeout: 20_000 }).catch(() => undefined);
    const evidence = card.locator('[data-testid="evidence"]');
    if (await evidence.count()) await evidence.first().click({ position: { x: 20, y: 10 } }).catch(() => undefined);
    await page.waitForTimeout(300);
    const screenshot = await shot(page, outDir, 'panel-answer');
    if (explain) {
      await card.locator('[data-testid="signal-scores"]').scrollIntoViewIfNeeded().catch(() => undefined);
      await shot(page, outDir, 'panel-explain');
    }
    const text = (sel) => card.locator(sel).allTextContents().then((t) => t.join('\n'));
    const seen = await frame.locator('body').evaluate(() => window.__seen);
    return {
      phasesSeen: seen.phases, answerLengths: seen.answers,
      question: await card.locator('.question-text').textContent(),
      answer: await text('[data-testid="answer"]'),
      citations: await card.locator('[data-testid="citations"] .citation-link').allTextContents(),
      answerCitationLinks: await card.locator('[data-testid="answer"] .citation-link').count(),
      evidenceText: await text('.evidence pre'),
      explainRows: await card.locator('[data-testid="explain-scores"] tr').count(),
      signalHeaders: await card.locator('[data-testid="signal-scores"] th').allTextContents(),
      signalRows: await card.locator('[data-testid="signal-scores"] tr').count(),
      phaseDone: await card.locator('[data-testid="phase"]').textContent(),
      // XSS probes: nothing the workspace wrote may become markup or run.
      scriptsInFeed: await frame.locator('[data-testid="feed"] script').count(),
      imgsInFeed: await frame.locator('[data-testid="feed"] img').count(),
      hrefsInFeed: await frame.locator('[data-testid="feed"] a[href]:not([href="#"])').count(),
      xssFlag: await frame.locator('body').evaluate(() => window.__xss ?? null),
      screenshot,
    };
  },

  /** Clicks citation `n` of the latest answer (in the answer text when it is there, else in the list). */
  async 'click-citation'(page, { n }, outDir) {
    const frame = await openPanel(page);
    const card = frame.locator('[data-testid="ask-card"]').last();
    const inAnswer = card.locator(`[data-testid="answer"] .citation-link[data-n="${n}"]`);
    const link = (await inAnswer.count()) ? inAnswer.first() : card.locator(`[data-testid="citations"] .citation-link[data-n="${n}"]`).first();
    const label = await link.textContent();
    await link.click();
    await page.waitForTimeout(800);
    return { label, screenshot: await shot(page, outDir, 'citation-opened') };
  },

  /** Reports the latest why-tree in the panel and takes a picture of it. */
  async 'why-tree'(page, _args, outDir) {
    const frame = await openPanel(page);
    const tree = frame.locator('[data-testid="why-tree"]').last();
    await tree.waitFor({ timeout: 20_000 });
    await tree.scrollIntoViewIfNeeded();
    return {
      upstream: await tree.locator('[data-testid="upstream"] [data-ref]').evaluateAll((els) => els.map((e) => e.getAttribute('data-ref'))),
      downstream: await tree.locator('[data-testid="downstream"] [data-ref]').evaluateAll((els) => els.map((e) => e.getAttribute('data-ref'))),
      title: await frame.locator('[data-testid="why-card"] .card-title').last().textContent(),
      screenshot: await shot(page, outDir, 'panel-why-tree'),
    };
  },

  /** A picture of the workbench as it is (hovers, CodeLens, Problems). */
  async screenshot(page, { name, delayMs }, outDir) {
    if (delayMs) await page.waitForTimeout(delayMs);
    return { screenshot: await shot(page, outDir, name) };
  },

  /**
   * Waits for an index run to show in the status bar, clicks the item as a person would, and reports the
   * notification that opens and its buttons; then clicks `clickButton` of it, or hovers the item for its tooltip.
   */
  async 'status-bar-click'(page, { clickButton }, outDir) {
    const item = page.locator('.statusbar-item', { hasText: /Oracle: indexing/ }).first();
    await item.waitFor({ timeout: 30_000 });
    const itemText = (await item.textContent())?.trim();
    await item.click();
    const toast = await toastWith(page, /Rebuilding the index|Indexing the workspace/, outDir, 'status-bar-click');
    const message = (await toast.locator('.notification-list-item-message').textContent())?.trim();
    const buttons = await toast.locator('.notification-list-item-buttons-container .monaco-button').allTextContents();
    const screenshot = await shot(page, outDir, clickButton ? 'status-bar-click-cancel' : 'status-bar-click');
    let tooltip;
    if (clickButton) await toast.locator('.notification-list-item-buttons-container .monaco-button', { hasText: clickButton }).click();
    else if (await item.isVisible()) {
      await item.hover();
      const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: /Rebuilding|Indexing/ }).first();
      tooltip = await hover.waitFor({ timeout: 4_000 }).then(() => hover.textContent(), () => undefined);
      if (tooltip) await shot(page, outDir, 'status-bar-indexing-tooltip');
      await page.mouse.move(700, 400);
    }
    return { itemText, tooltip: tooltip?.replace(/\s+/g, ' ').trim(), message, buttons: buttons.map((b) => b.trim()), screenshot };
  },

  /**
   * The quick pick that is open (or opens within 10 s): how long its first items took to show, what it lists, what it
   * lists after typing `type`, then picks the row whose label is `pick` (Escape when none is given).
   */
  async 'quick-pick'(page, { type, pick, name }, outDir) {
    const t0 = Date.now();
    const widget = page.locator('.quick-input-widget');
    await widget.waitFor({ state: 'visible', timeout: 10_000 });
    const opened = Date.now() - t0;
    const rows = widget.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor({ timeout: 15_000 });
    const firstItemsMs = Date.now() - t0;
    const labels = () => rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent ?? ''));
    const title = (await widget.locator('.quick-input-title').textContent().catch(() => ''))?.trim();
    const initial = await labels();
    await shot(page, outDir, `${name ?? 'quick-pick'}-open`);
    let typed;
    if (type) {
      await widget.locator('.quick-input-box input').fill(type);
      await page.waitForTimeout(700);
      typed = await labels();
      await shot(page, outDir, `${name ?? 'quick-pick'}-typed`);
    }
    if (pick) {
      // The row whose label is exactly `pick` (aria-label: "label, description, detail").
      const all = await labels();
      const i = all.findIndex((l) => l === pick || l.startsWith(`${pick}, `));
      if (i < 0) throw new Error(`no row labelled ${pick} in ${all.join(' | ')}`);
      await rows.nth(i).click();
    } else await page.keyboard.press('Escape');
    return { title, opened, firstItemsMs, initial, typed };
  },

  /** The notification toast that contains `text` (waits up to 10 s): its message and buttons, and a picture. */
  async notification(page, { text, name }, outDir) {
    const toast = await toastWith(page, text, outDir, name ?? 'notification');
    return {
      message: (await toast.locator('.notification-list-item-message').textContent())?.trim(),
      buttons: (await toast.locator('.notification-list-item-buttons-container .monaco-button').allTextContents()).map((b) => b.trim()),
      screenshot: await shot(page, outDir, name ?? 'notification'),
    };
  },

  /** What the panel shows under its latest answer (the line that names how it was answered), and a picture. */
  async 'panel-last-answer'(page, { name }, outDir) {
    const frame = await openPanel(page);
    const card = frame.locator('[data-testid="ask-card"].done').last();
    await card.waitFor({ timeout: 30_000 });
    await card.scrollIntoViewIfNeeded().catch(() => undefined);
    return {
      phase: (await card.locator('[data-testid="phase"]').textContent())?.trim(),
      answer: (await card.locator('[data-testid="answer"]').allTextContents()).join('\n'),
      screenshot: await shot(page, outDir, name ?? 'panel-last-answer'),
    };
  },
};
