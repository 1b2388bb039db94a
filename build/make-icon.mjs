// Render build/icon.svg to build/icon.png (1024×1024) with the Debian Chromium, for electron-builder, which
// derives the Windows .ico and macOS .icns from it. Run: node build/make-icon.mjs
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const svg = fs.readFileSync(path.join(dir, 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1024, height: 1024 } });
await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
await page.locator('svg').screenshot({ path: path.join(dir, 'icon.png'), omitBackground: true });
await browser.close();
console.log('build/icon.png written');
