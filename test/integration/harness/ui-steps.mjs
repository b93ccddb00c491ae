// UI steps the integration suite asks the code-server harness to perform in chromium, as a person would: open the
// Oracle panel, type a question, click a citation, look at the why-tree. The suite logs
// `[harness:ui] <step> <json args>`; the harness runs the step against the page and writes `<step>.json` (the
// step's findings, or { error }) into the signal folder; the suite then checks the editor state from the inside.
import { join } from 'node:path';

/**
 * The document of one of our webviews (the webview iframe inside the workbench's webview host frame), told apart by
 * the mode its body carries: 'sidebar' (the conversation) or 'editor' (the results tab).
 */
async function modeFrame(page, mode, timeoutMs = 0) {
  const deadline = Date.now() + timeoutMs;
  do {
    for (const f of page.frames()) {
      const m = await f.evaluate(() => (document.getElementById('app') ? document.body.dataset.mode : undefined)).catch(() => undefined);
      if (m === mode) return f;
    }
    if (Date.now() < deadline) await page.waitForTimeout(200);
  } while (Date.now() < deadline);
  return undefined;
}

async function openPanel(page) {
  const entry = page.locator('.activitybar .action-item a[aria-label^="Context Oracle"], .activitybar [aria-label^="Context Oracle"]').first();
  // The side bar must be open with the Oracle view in it. Clicking the icon of the view already shown closes the side
  // bar (VS Code's toggle), and a command that revealed the view a moment earlier makes that race easy to lose: in the
  // two-folder window every click into the frame then landed "outside of the viewport". So look, click, look again.
  const sideBarOpen = async () => ((await page.locator('.part.sidebar').first().boundingBox().catch(() => null))?.width ?? 0) >= 50;
  for (let attempt = 0; attempt < 4; attempt++) {
    const found = await modeFrame(page, 'sidebar', attempt ? 2_000 : undefined);
    if (found && await sideBarOpen() && await found.locator('[data-testid="question"]').isVisible({ timeout: 500 }).catch(() => false)) return found;
    for (let i = 0; i < 20 && !(await entry.isVisible().catch(() => false)); i++) await page.waitForTimeout(250);
    await entry.click();
    await page.waitForTimeout(500);
  }
  const frame = await modeFrame(page, 'sidebar', 20_000);
  if (!frame || !(await sideBarOpen())) throw new Error('the Oracle panel did not open in the side bar');
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

/** The editor-area results tab, once it shows at least `minCards` cards of `testid`. */
async function resultsFrame(page, testid, minCards = 1) {
  const frame = await modeFrame(page, 'editor', 20_000);
  if (!frame) throw new Error('the results tab did not open');
  await frame.locator(`[data-testid="${testid}"]`).nth(minCards - 1).waitFor({ timeout: 20_000 });
  return frame;
}

/** Layout facts about a frame's cards: how paths and code fit a narrow width. */
function layoutFacts(root) {
  const paths = [...root.querySelectorAll('a.path-link')];
  const lineHeight = (el) => parseFloat(getComputedStyle(el).lineHeight) || 18;
  const pres = [...root.querySelectorAll('pre')];
  return {
    width: document.body.clientWidth,
    paths: paths.length,
    wrappedPaths: paths.filter((a) => a.getBoundingClientRect().height > lineHeight(a) * 1.5).map((a) => a.textContent),
    pathsWithoutTooltip: paths.filter((a) => !(a.getAttribute('title') ?? '').includes(a.textContent) && !a.closest('.markdown')).map((a) => a.textContent),
    truncatedPaths: paths.filter((a) => a.scrollWidth > a.clientWidth + 1).length,
    preWhiteSpace: [...new Set(pres.map((p) => getComputedStyle(p).whiteSpace))],
    preScrolling: pres.filter((p) => p.scrollWidth > p.clientWidth + 1 && getComputedStyle(p).overflowX === 'auto').length,
    feedOverflow: Math.max(0, (document.querySelector('.feed')?.scrollWidth ?? 0) - (document.querySelector('.feed')?.clientWidth ?? 0)),
  };
}

/** Pixel rectangles of the elements matching `sel` that overlap each other (edge labels, nodes). */
function overlaps(root, sel) {
  const r = [...root.querySelectorAll(sel)].map((e) => ({ t: e.textContent, b: e.getBoundingClientRect() }));
  const out = [];
  for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {
    const a = r[i].b, b = r[j].b;
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(`${r[i].t} / ${r[j].t}`);
  }
  return out;
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
    // Focus, not a click: in the two-folder window the panel's frame was once still being laid out, and Playwright
    // found the box "outside of the viewport" for 30 s. Typing needs the focus, not a pointer position.
    await box.focus();
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
      phaseIcons: await card.locator('[data-testid="phase"] .codicon').evaluateAll((els) => els.map((e) => e.className)),
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

  /** Reports the latest why-tree in the results tab and takes a picture of it. */
  async 'why-tree'(page, { minCards = 1 } = {}, outDir) {
    const frame = await resultsFrame(page, 'why-card', minCards);
    const tree = frame.locator('[data-testid="why-tree"]').last();
    await tree.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    return {
      upstream: await tree.locator('[data-testid="upstream"] [data-ref]').evaluateAll((els) => els.map((e) => e.getAttribute('data-ref'))),
      downstream: await tree.locator('[data-testid="downstream"] [data-ref]').evaluateAll((els) => els.map((e) => e.getAttribute('data-ref'))),
      branches: await tree.locator(':scope > details').evaluateAll((els) => els.map((e) => ({ testid: e.getAttribute('data-testid'), open: e.open }))),
      downstreamVisible: await tree.locator('[data-testid="downstream"] [data-ref]').first().isVisible().catch(() => false),
      upstreamVisible: await tree.locator('[data-testid="upstream"] [data-ref]').first().isVisible().catch(() => false),
      impact: await frame.locator('[data-testid="impact"]').last().textContent(),
      title: await frame.locator('[data-testid="why-card"] .card-title').last().textContent(),
      screenshot: await shot(page, outDir, 'panel-why-tree'),
    };
  },

  /** The latest card of `testid` in the results tab: its text (what the user reads, Details closed), layout facts, a picture. */
  async 'results-card'(page, { testid, minCards = 1, name }, outDir) {
    const frame = await resultsFrame(page, testid, minCards);
    const card = frame.locator(`[data-testid="${testid}"]`).last();
    await card.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    const visibleText = await card.evaluate((el) => el.innerText);
    return {
      cards: await frame.locator(`[data-testid="${testid}"]`).count(),
      title: await card.locator('.card-title').textContent(),
      visibleText,
      detailsOpen: await card.locator('[data-testid="details"]').evaluateAll((els) => els.some((e) => e.hasAttribute('open'))),
      layout: await frame.locator('body').evaluate(layoutFacts),
      screenshot: name ? await shot(page, outDir, name) : undefined,
    };
  },

  /** The sidebar as it is: its width, the cards it holds, how paths and code fit, and a picture. */
  async 'sidebar'(page, { name }, outDir) {
    const frame = await openPanel(page);
    await page.waitForTimeout(300);
    return {
      cards: await frame.locator('[data-testid="feed"] > section').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid'))),
      questions: await frame.locator('[data-testid="ask-card"] .question-text').allTextContents(),
      answers: await frame.locator('[data-testid="ask-card"] [data-testid="answer"]').allTextContents(),
      layout: await frame.locator('body').evaluate(layoutFacts),
      screenshot: name ? await shot(page, outDir, name) : undefined,
    };
  },

  /** Clicks "Open in editor" on the latest sidebar card of `testid`; reports the results tab's cards of that kind. */
  async 'open-in-editor'(page, { testid }, outDir) {
    const frame = await openPanel(page);
    const before = (await modeFrame(page, 'editor'))?.locator(`[data-testid="${testid}"]`);
    const count = before ? await before.count() : 0;
    await frame.locator(`[data-testid="${testid}"]`).last().locator('[data-testid="open-in-editor"]').click();
    const results = await resultsFrame(page, testid, count + 1);
    await page.waitForTimeout(300);
    return { before: count, after: await results.locator(`[data-testid="${testid}"]`).count(), screenshot: await shot(page, outDir, 'panel-open-in-editor') };
  },

  /** The latest graph card in the results tab: fit, zoom, overlaps among edge labels and nodes, then a click on `clickRef`. */
  async 'graph'(page, { minCards = 1, clickRef, name = 'panel-graph' }, outDir) {
    const frame = await resultsFrame(page, 'graph-card', minCards);
    const card = frame.locator('[data-testid="graph-card"]').last();
    await card.scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    const stage = card.locator('[data-testid="graph-stage"]');
    const facts = await stage.evaluate((el) => {
      const s = el.getBoundingClientRect();
      const nodes = [...el.querySelectorAll('.node')].map((n) => n.getBoundingClientRect());
      return {
        nodes: nodes.length, edgeLabels: el.querySelectorAll('.edge-label').length, layoutMs: Number(el.dataset.layoutMs),
        allInside: nodes.every((b) => b.left >= s.left - 1 && b.right <= s.right + 1 && b.top >= s.top - 1 && b.bottom <= s.bottom + 1),
      };
    });
    const overlapping = await stage.evaluate(overlaps, '.edge-label, .node rect');
    const screenshot = await shot(page, outDir, name);
    const before = await card.locator('g.viewport').getAttribute('transform');
    const box = await stage.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(200);
    const zoomed = await card.locator('g.viewport').getAttribute('transform');
    await card.locator('[data-testid="graph-fit"]').click();
    await page.waitForTimeout(200);
    if (clickRef) await card.locator(`.node[data-ref="${clickRef}"]`).click();
    return { ...facts, overlapping, before, zoomed, meta: await card.locator('[data-testid="graph-meta"]').textContent(), screenshot };
  },

  /** The empty state of the latest card of `testid` (graph or lint); clicks "Write a starter graph" when `write`. */
  async 'empty-graph'(page, { testid, minCards = 1, write, name }, outDir) {
    const frame = testid === 'lint-card' ? await openPanel(page) : await resultsFrame(page, testid, minCards);
    const card = frame.locator(`[data-testid="${testid}"]`).last();
    await card.locator('[data-testid="no-graph"]').waitFor({ timeout: 10_000 });
    await card.scrollIntoViewIfNeeded();
    const text = await card.evaluate((el) => el.innerText);
    const screenshot = name ? await shot(page, outDir, name) : undefined;
    if (write) await card.locator('[data-testid="write-starter-graph"]').click();
    return { text, screenshot };
  },

  /** A picture of the workbench as it is (hovers, CodeLens, Problems). */
  async screenshot(page, { name, delayMs }, outDir) {
    if (delayMs) await page.waitForTimeout(delayMs);
    return { screenshot: await shot(page, outDir, name) };
  },

  /** Hovers the status bar item once its text matches `text` (a regex source) and reports its tooltip. */
  async 'status-bar-tooltip'(page, { text = 'Oracle:', hoverText = 'Context Oracle', name = 'status-bar-tooltip' }, outDir) {
    const item = page.locator('.statusbar-item', { hasText: new RegExp(text) }).first();
    await item.waitFor({ timeout: 30_000 });
    const itemText = (await item.textContent())?.trim();
    await item.hover();
    const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: hoverText }).first();
    const tooltip = await hover.waitFor({ timeout: 5_000 }).then(() => hover.textContent(), () => undefined);
    const screenshot = await shot(page, outDir, name);
    await page.mouse.move(700, 400);
    return { itemText, tooltip: tooltip?.replace(/\s+/g, ' ').trim(), screenshot };
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
      model: (await frame.locator('[data-testid="model"]').textContent())?.trim(),
      screenshot: await shot(page, outDir, name ?? 'panel-last-answer'),
    };
  },
};
