/** Shared E2E setup: build the renderer once per file, start browser mode in-process, launch Debian Chromium. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import type { BrowserMode } from '../../electron/core/ipc/browser-mode.js';
import { startBrowserMode } from '../../electron/core/ipc/browser-mode.js';
import type { Logger } from '../../electron/core/ipc/services.js';
import { startSandbox } from '../../sandbox/index.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve('test-artifacts/screenshots');

const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

export async function buildRenderer(outDir: string): Promise<void> {
  await build({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  });
}

export interface E2eEnv {
  dir: string;
  mode: BrowserMode;
  context: BrowserContext;
  close(): Promise<void>;
}

export async function startE2e(opts: { locale?: string } = {}): Promise<E2eEnv> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-e2e-'));
  const ui = path.join(dir, 'ui');
  await buildRenderer(ui);
  const mode = await startBrowserMode({ port: 0, staticDir: ui, configDir: path.join(dir, 'config'), startSandbox, log: quiet, appVersion: 'e2e' });
  const context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport: { width: 1280, height: 800 },
    locale: opts.locale ?? 'en-US',
    acceptDownloads: true,
    colorScheme: 'light',
  });
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    dir,
    mode,
    context,
    close: async () => {
      await context.close();
      await mode.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
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
