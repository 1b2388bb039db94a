/** Shared E2E setup: build the renderer once per file, start browser mode in-process, launch Debian Chromium. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, FileChooser, Page } from 'playwright-core';
import { build } from 'vite';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import { startBrowserMode } from '../../core/ipc/browser-mode.js';
import type { Logger } from '../../core/app/services.js';
import { startSandbox } from '../../sandbox/index.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve('test-artifacts/screenshots');

export async function buildRenderer(outDir: string): Promise<void> {
  await build({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  });
}

/**
 * Debian Chromium, headless, with a persistent profile in `profileDir`: as the E2E tests and the app's
 * dry-run benchmark drive the app (never a downloaded browser).
 */
export function launchChromium(profileDir: string, opts: { locale?: string } = {}): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: 1280, height: 800 },
    locale: opts.locale ?? 'en-US',
    acceptDownloads: true,
    colorScheme: 'light',
  });
}

/** The file chooser the button opens (a user then picks a file in it: `setFiles`). */
export async function openFileChooser(page: Page, buttonName: string): Promise<FileChooser> {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: buttonName }).click(),
  ]);
  return chooser;
}

/** Hand a workbook to the page the way a user does in browser mode: the button opens the file chooser. */
export async function chooseFile(page: Page, buttonName: string, file: string): Promise<void> {
  await (await openFileChooser(page, buttonName)).setFiles(file);
}

export interface E2eEnv {
  dir: string;
  mode: BrowserMode;
  context: BrowserContext;
  /**
   * What happened beside the page, for a failed test's output: the app server's warnings and errors, the
   * browser's console errors and page errors, failed requests and RPC answers that were not ok (last 200).
   */
  trail(): string;
  close(): Promise<void>;
}

export async function startE2e(opts: { locale?: string } = {}): Promise<E2eEnv> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-e2e-'));
  const ui = path.join(dir, 'ui');
  await buildRenderer(ui);
  const lines: string[] = [];
  const note = (what: string) => {
    lines.push(`${new Date().toISOString().slice(11, 23)} ${what}`);
    if (lines.length > 200) lines.shift();
  };
  const serverLog: Logger = {
    info: () => {},
    warn: (o: unknown, msg?: string) => note(`server warn: ${msg ?? ''} ${describeLogged(o)}`),
    error: (o: unknown, msg?: string) => note(`server error: ${msg ?? ''} ${describeLogged(o)}`),
  };
  const mode = await startBrowserMode({
    port: 0,
    staticDir: ui,
    configDir: path.join(dir, 'config'),
    startSandbox,
    log: serverLog,
    appVersion: 'e2e',
  });
  const context = await launchChromium(path.join(dir, 'profile'), opts);
  context.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') note(`console ${m.type()}: ${m.text()}`);
  });
  context.on('weberror', (e) => note(`page error: ${e.error().message}`));
  context.on('requestfailed', (r) =>
    note(`request failed: ${r.method()} ${new URL(r.url()).pathname} ${r.failure()?.errorText ?? ''}`),
  );
  context.on('response', (r) => {
    const at = new URL(r.url()).pathname;
    if (!at.startsWith('/rpc/')) return;
    void r.text().then(
      (body) => {
        if (!body.startsWith('{"ok":true')) note(`rpc ${at} ${r.status()}: ${body.slice(0, 300)}`);
      },
      () => {},
    );
  });
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    dir,
    mode,
    context,
    trail: () => lines.join('\n'),
    close: async () => {
      await context.close();
      await mode.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function describeLogged(o: unknown): string {
  const err = (o as { err?: unknown } | null)?.err;
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  try {
    return JSON.stringify(o).slice(0, 300);
  } catch {
    return String(o);
  }
}

/**
 * After a test: when it failed, a full-page screenshot `failed-<prefix><test name>` and what happened beside the
 * page (E2eEnv.trail) on stderr, to see why.
 */
export async function reportFailure(
  ctx: { task: { name: string; result?: { state: string } } },
  page: Page | undefined,
  env: E2eEnv,
  prefix = '',
): Promise<void> {
  if (ctx.task.result?.state !== 'fail' || !page) return;
  const name = ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
  await page.screenshot({ path: screenshotPath(`failed-${prefix}${name}`), fullPage: true }).catch(() => {});
  process.stderr.write(`\n--- ${ctx.task.name}: what happened beside the page\n${env.trail()}\n---\n`);
}

export function screenshotPath(name: string): string {
  return path.join(SCREENSHOTS, `${name}.png`);
}

/**
 * A full-page screenshot from the top, as a user sees the screen when scrolling through it. Chromium's capture
 * beyond the viewport (Playwright's `fullPage`) right after a change (rows rendered, the viewport resized) is not
 * always finished: tiles of a scroll container that never was on screen (the virtualised tables, `.vscroll`)
 * came out blank — a white block over the "Error code" and "What happened" columns of the results, though the
 * page itself was right — and the page's height could be that of a former width. So the page is first scrolled
 * through the viewport, each part drawn (a viewport capture waits for a drawn frame), and only then captured whole.
 */
export async function fullPageShot(page: Page, file: string): Promise<void> {
  const { height, total } = await page.evaluate(() => ({
    height: window.innerHeight,
    total: document.documentElement.scrollHeight,
  }));
  for (let y = 0; y < total; y += height) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.screenshot({ type: 'jpeg', quality: 1 });
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: true });
}
