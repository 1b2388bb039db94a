/** Shared E2E setup: build the renderer once per file, start browser mode in-process, launch Debian Chromium. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';
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
