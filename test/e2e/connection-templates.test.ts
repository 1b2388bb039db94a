/**
 * Browser mode driven by Debian Chromium (playwright-core) on the in-process sandbox: the Connection screen
 * (built-in Sandbox profile, what /v2/me says, a second profile with a restricted key, reset demo data), the
 * Templates screen (combined and pre-filled per-sheet downloads, read back with exceljs), language and colour
 * scheme, and a page on another origin that tries to drive the app. Screenshots: test-artifacts/screenshots/.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { E2eEnv } from './helpers.js';
import { fullPageShot, screenshotPath, startE2e } from './helpers.js';

let env: E2eEnv;
let page: Page;
let sandboxUrl: string;

/** Full-page screenshot from the top (what a user sees when scrolling through the screen). */
async function shot(name: string) {
  await fullPageShot(page, screenshotPath(name));
}

async function sandboxJson<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${sandboxUrl}${path}`, init);
  if (res.status >= 300) throw new Error(`${path} → ${res.status}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  env = await startE2e();
  sandboxUrl = env.mode.app.sandbox.baseUrl() ?? '';
  page = await env.context.newPage();
  page.setDefaultTimeout(20_000);
});

afterAll(async () => {
  await env?.close();
});

describe('Connection screen', () => {
  it('opens with the token, drops it from the address bar and shows the built-in Sandbox profile', async () => {
    await page.goto(env.mode.url);
    expect(page.url()).toBe(`${env.mode.origin}/`); // the token traded for the cookie, gone from the address
    await page.getByRole('heading', { level: 1, name: 'Connection' }).waitFor();
    const sandboxRow = page.getByRole('listitem').filter({ hasText: 'Sandbox' }).first();
    await expect.poll(() => sandboxRow.textContent()).toContain('active');
    await page.getByText('Running', { exact: true }).waitFor();
    // What /v2/me says about the sandbox owner key: every scope, the three demo plants with codes.
    await page.getByText('The key has every scope that import, LCA and export need.').waitFor();
    const plantRows = page.locator('table.data tbody tr');
    await expect.poll(() => plantRows.count()).toBe(3);
    const codes = await plantRows.locator('td:first-child').allTextContents();
    expect(codes.every((c) => /^PL-[A-Z]+$/.test(c))).toBe(true);
    const ownerKey = env.mode.app.sandbox.ownerKey() ?? '';
    const html = await page.content();
    expect(html).not.toContain(ownerKey);
    expect(html).toMatch(/svc-[A-Za-z0-9]+-\*\*\*\*/);
    await shot('01-connection-sandbox');
  });

  it('checks a restricted key entered in a new profile and warns about the scopes the jobs need', async () => {
    const catalog = await sandboxJson<{ plants: { id: string; external_id: string }[] }>('/__sandbox/catalog');
    const plant = catalog.plants[0];
    const issued = await sandboxJson<{ key: string; api_key_id: string }>('/__sandbox/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['view:plants', 'view:materials', 'view:products'], plant_ids: [plant.id] }),
    });
    const secret = issued.key.split('-').slice(2).join('-');

    await page.getByRole('button', { name: 'New profile' }).click();
    await page.getByLabel('Profile name').fill('Read-only plant');
    await page.getByLabel('Base URL').fill(sandboxUrl);
    // A malformed key is refused in words at the field, nothing is saved.
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('An API key looks like svc-<key id>-<secret>.', { exact: false }).waitFor();
    await page.getByLabel('API key').fill(issued.key);
    await page.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'Read-only plant' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(`svc-${issued.api_key_id}-****`);
    // Entering the key shows at once what /v2/me says about it, before the profile is used.
    await page.getByRole('heading', { name: 'What the service says about the key of “Read-only plant”' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'The key lacks scopes your jobs need' }).waitFor();
    await page.getByRole('button', { name: 'Use profile Read-only plant' }).click();
    await expect.poll(() => row.textContent()).toContain('active');
    await expect.poll(() => page.locator('.connection-badge').textContent()).toContain('Read-only plant');

    const warning = page.getByRole('alert').filter({ hasText: 'The key lacks scopes your jobs need' });
    await warning.waitFor();
    const text = (await warning.textContent()) ?? '';
    for (const scope of ['edit:materials', 'edit:products', 'edit:recipes', 'view:recipes'])
      expect(text).toContain(scope);
    expect(text).toContain('Needed for: Import');
    await expect.poll(() => page.locator('table.data tbody tr').count()).toBe(1);
    await expect.poll(() => page.locator('table.data tbody tr td').first().textContent()).toBe(plant.external_id);
    expect(await page.content()).not.toContain(secret);
    await shot('02-connection-restricted-key');

    // Back to the Sandbox for the rest of the flow.
    await page.getByRole('button', { name: 'Use profile Sandbox' }).click();
    await page.getByText('The key has every scope that import, LCA and export need.').waitFor();
  });

  it('resets the demo data after a confirmation', async () => {
    const ownerKey = env.mode.app.sandbox.ownerKey() ?? '';
    // the demo seed has its own supplier set: count relative to it
    const companies = async () =>
      (await sandboxJson<Record<string, { active: number }>>('/__sandbox/state')).supplier_companies.active;
    const seeded = await companies();
    const created = await fetch(`${sandboxUrl}/v2/supplier-companies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': ownerKey },
      body: JSON.stringify({ external_id: 'SUP-E2E', name: 'Kieswerk E2E GmbH' }),
    });
    expect(created.status).toBe(201);
    expect(await companies()).toBe(seeded + 1);

    await page.getByRole('button', { name: 'Reset demo data' }).click();
    await page.getByText('Reset the sandbox? Everything created in it is deleted').waitFor();
    await shot('03-connection-reset-confirm');
    await page.getByRole('button', { name: 'Reset now' }).click();
    await page.getByText('The demo data has been restored.').waitFor();
    expect(await companies()).toBe(seeded);
    const kept = await sandboxJson<{ data: unknown[] }>('/v2/supplier-companies?external_id=SUP-E2E', {
      headers: { 'x-api-key': ownerKey },
    });
    expect(kept.data).toEqual([]);
  });
});

describe('Templates screen', () => {
  async function downloadWorkbook(click: () => Promise<void>): Promise<{ name: string; wb: ExcelJS.Workbook }> {
    const [download] = await Promise.all([page.waitForEvent('download'), click()]);
    const file = await download.path();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    return { name: download.suggestedFilename(), wb };
  }

  it('downloads the combined onboarding workbook with every sheet', async () => {
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
    await shot('04-templates');
    const { name, wb } = await downloadWorkbook(() =>
      page.getByRole('button', { name: 'Download onboarding workbook' }).click(),
    );
    expect(name).toBe('supply-loader-onboarding.xlsx');
    const sheets = wb.worksheets.map((w) => w.name);
    for (const s of [
      'Instructions',
      'supplier-companies',
      'supplier-plants',
      'supplier-products',
      'silos',
      'silo-items',
      'product-instances',
      'bom',
      'plants',
      'materials',
    ]) {
      expect(sheets).toContain(s);
    }
    expect(wb.getWorksheet('supplier-products')?.getRow(1).getCell(1).value).toBe('external_id');
    expect(wb.getWorksheet('plants')?.rowCount).toBe(1); // header only: not pre-filled
    await page.getByText('Downloaded supply-loader-onboarding.xlsx').waitFor();
  });

  it('pre-fills a per-sheet template with the plants, material codes and products of the connection', async () => {
    await page.getByLabel('Pre-fill plants, material codes and products from the active connection (Sandbox)').check();
    const { name, wb } = await downloadWorkbook(() =>
      page.getByRole('button', { name: 'Download the template for sheet silos' }).click(),
    );
    expect(name).toBe('silos-prefilled.xlsx');
    const catalog = await sandboxJson<{ plants: { id: string; external_id: string }[]; products: unknown[] }>(
      '/__sandbox/catalog',
    );
    const plants = wb.getWorksheet('plants');
    expect(plants).toBeDefined();
    const codes: string[] = [];
    plants?.eachRow((row, n) => {
      if (n > 1) codes.push(String(row.getCell(1).value));
    });
    expect(codes.sort()).toEqual(catalog.plants.map((p) => p.external_id).sort());
    expect((wb.getWorksheet('products')?.rowCount ?? 0) - 1).toBe(catalog.products.length);
    expect((wb.getWorksheet('materials')?.rowCount ?? 0) - 1).toBeGreaterThan(20);
    expect(wb.getWorksheet('silos')).toBeDefined();
    await page.getByText(`Pre-filled with 3 plants`).waitFor();
    await shot('05-templates-prefilled');
  });
});

describe('language and colours', () => {
  it('switches to German and to the dark scheme, and keeps them after a reload', async () => {
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('heading', { level: 1, name: 'Vorlagen' }).waitFor();
    await page.getByLabel('Farben').selectOption('dark');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await shot('06-templates-de-dark');
    await page.reload();
    await page.getByRole('button', { name: 'Verbindung', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Verbindung' }).waitFor();
    await page.getByText('Der Schlüssel hat alle Berechtigungen').waitFor();
    await shot('07-connection-de-dark');
    await page.getByLabel('Sprache').selectOption('system');
    await page.getByLabel('Colours').selectOption('system');
  });

  it('every control on the Connection screen can be reached with the keyboard and has a name', async () => {
    await page.getByRole('button', { name: 'Connection', exact: true }).click();
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('button, select, input, a[href]')]
        .filter((el) => {
          const label =
            el.getAttribute('aria-label') ||
            (el as HTMLElement).innerText?.trim() ||
            (el.id && document.querySelector(`label[for="${el.id}"]`)) ||
            el.closest('label');
          return !label;
        })
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    expect(unnamed).toEqual([]);
    const reached = new Set<string>();
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      reached.add(
        await page.evaluate(
          () =>
            (document.activeElement as HTMLElement | null)?.innerText?.trim() ||
            document.activeElement?.getAttribute('aria-label') ||
            '',
        ),
      );
    }
    for (const name of ['Connection', 'Templates', 'New profile', 'Reset demo data'])
      expect([...reached]).toContain(name);
  });
});

describe('a page on another origin', () => {
  it('cannot drive the app, even with the session cookie in the same browser', async () => {
    const evil = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>evil</title>');
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
    const evilPort = (evil.address() as AddressInfo).port;
    try {
      const other = await env.context.newPage();
      await other.goto(`http://localhost:${evilPort}/`);
      const outcome = await other.evaluate(async (target) => {
        const results: string[] = [];
        for (const init of [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"language":"de"}',
            credentials: 'include' as const,
          },
          {
            method: 'POST',
            headers: { 'content-type': 'text/plain' },
            body: '{"language":"de"}',
            credentials: 'include' as const,
            mode: 'no-cors' as const,
          },
        ]) {
          try {
            const r = await fetch(`${target}/rpc/settings.update`, init);
            results.push(`status ${r.status} ${r.type}`);
          } catch (e) {
            results.push(`blocked ${(e as Error).name}`);
          }
        }
        return results;
      }, env.mode.origin);
      // JSON needs a CORS preflight, which is never granted; a blind no-cors post gets no readable answer
      // (Cross-Origin-Resource-Policy) and is refused by the server anyway (no cookie, foreign Origin).
      expect(outcome).toEqual(['blocked TypeError', 'blocked TypeError']);
      await other.close();
      const prefs = await fetch(`${env.mode.origin}/rpc/settings.get`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-supply-loader-token': env.mode.token },
        body: '{}',
      }).then((r) => r.json() as Promise<{ data: { language: string } }>);
      expect(prefs.data.language).toBe('system');
    } finally {
      await new Promise<void>((r) => {
        evil.close(() => r());
        evil.closeAllConnections();
      });
    }
  });
});
