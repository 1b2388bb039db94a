/**
 * Keeping the service in sync (issue 13) in browser mode, driven by Debian Chromium on the embedded sandbox
 * (reset to empty data): the dry run's mirror checkbox lists the delete of the company the workbook no longer
 * has, by name, and the run deletes it; then "Undo this job" on the Jobs screen shows the undo's own dry run
 * (the created companies deleted, the deleted one re-created), runs it, lists it as "undo of …", and the
 * service is as it was before the import. Screenshots EN light and DE dark: test-artifacts/screenshots/40-*.png.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeTestWorkbook } from '../jobs/helpers.js';
import type { E2eEnv } from './helpers.js';
import { fullPageShot, reportFailure, screenshotPath, startE2e } from './helpers.js';

let env: E2eEnv;
let page: Page;
let sandboxUrl: string;
let importJob: string;
const consoleErrors: string[] = [];

interface Company {
  id: string;
  external_id: string | null;
  name: string;
  country: string | null;
}

async function shot(name: string) {
  await fullPageShot(page, screenshotPath(name));
}

/** The same picture in German and dark colours, then back to English and light. */
async function shotEnAndDe(name: string) {
  await shot(`${name}-en-light`);
  await page.getByLabel('Language').selectOption('de');
  await page.getByLabel('Farben').selectOption('dark');
  await shot(`${name}-de-dark`);
  // The longer German words do not push the page wider than the window.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await page.getByLabel('Sprache').selectOption('en');
  await page.getByLabel('Colours').selectOption('light');
}

async function sandbox<T>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sandboxUrl}${p}`, {
    method,
    headers: {
      'x-api-key': env.mode.app.sandbox.ownerKey() ?? '',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p} → ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The supplier companies on the service, as code → name (what the import and its undo change). */
async function companies(): Promise<Record<string, string>> {
  const page1 = await sandbox<{ data: Company[] }>('GET', '/v2/supplier-companies?limit=200');
  return Object.fromEntries(page1.data.map((c) => [c.external_id ?? `(no code) ${c.id}`, c.name]));
}

async function chooseFile(buttonName: string, file: string) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: buttonName }).click(),
  ]);
  await chooser.setFiles(file);
}

beforeAll(async () => {
  env = await startE2e();
  await env.mode.app.sandbox.reset('empty');
  sandboxUrl = env.mode.app.sandbox.baseUrl() ?? '';
  page = await env.context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
});

afterEach((ctx) => reportFailure(ctx, page, env, 'sync-'));

afterAll(async () => {
  await env?.close();
});

describe('mirror a sheet, then undo the import', () => {
  let before: Record<string, string>;

  it('mirrors supplier-companies: the dry run lists the delete by name, the run deletes it on the service', async () => {
    // The service has a company with an external_id that the workbook does not have, and one without a code.
    await sandbox('POST', '/v2/supplier-companies', {
      external_id: 'SYNC-OLD',
      name: 'Altlieferant Gamma GmbH',
      country: 'DE',
    });
    await sandbox('POST', '/v2/supplier-companies', { name: 'Ohne Code KG', country: 'AT' });
    before = await companies();
    expect(Object.values(before).sort()).toEqual(['Altlieferant Gamma GmbH', 'Ohne Code KG']);

    const file = path.join(env.dir, 'suppliers.xlsx');
    await writeTestWorkbook(file, {
      'supplier-companies': [
        { external_id: 'SYNC-1', name: 'Alpha Zement AG', country: 'DE' },
        { external_id: 'SYNC-2', name: 'Beta Kies GmbH', country: 'DE' },
      ],
    });
    await page.goto(env.mode.url);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await chooseFile('Choose workbook…', file);
    await page.getByText('No problems found in 2 rows.').waitFor();
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run of suppliers.xlsx' }).waitFor();
    await page.getByRole('button', { name: 'Run the import (2 to write)' }).waitFor();

    await page.getByRole('checkbox', { name: 'Mirror supplier-companies' }).check();
    await page.getByRole('button', { name: 'Run the import (3 to write)' }).waitFor();
    const dry = page.getByRole('table', { name: 'Rows of the dry run' });
    const del = dry.getByRole('row').filter({ hasText: 'SYNC-OLD' });
    await expect.poll(() => del.textContent()).toMatch(/Delete/);
    expect(await del.textContent()).toContain('Altlieferant Gamma GmbH');
    // The company without an external_id is never touched: "not managed by the workbook".
    expect(await dry.textContent()).not.toContain('Ohne Code KG');
    await page.getByText(/not managed by the workbook/).waitFor();
    await shotEnAndDe('40-sync-mirror-dry-run');

    await page.getByRole('button', { name: 'Run the import (3 to write)' }).click();
    await page.getByRole('heading', { name: /Results of suppliers\.xlsx/ }).waitFor({ timeout: 30_000 });
    const after = await companies();
    expect(Object.keys(after)).not.toContain('SYNC-OLD');
    expect(after['SYNC-1']).toBe('Alpha Zement AG');
    expect(after['SYNC-2']).toBe('Beta Kies GmbH');
    expect(Object.values(after)).toContain('Ohne Code KG');
  });

  it('undoes the import from the Jobs screen: its own dry run first, then a job listed as the undo of it', async () => {
    await page.getByRole('button', { name: 'Jobs', exact: true }).click();
    const table = page.locator('table.jobs-table');
    await table.getByText('suppliers.xlsx').waitFor();
    const undoButton = page.getByRole('button', { name: /^Undo job / });
    await expect.poll(() => undoButton.count()).toBe(1);
    importJob = ((await undoButton.getAttribute('aria-label')) ?? '').replace('Undo job ', '');
    await undoButton.click();

    await page.getByRole('heading', { name: `Undo job ${importJob}: dry run` }).waitFor();
    const rows = page.locator('table.undo-table');
    await rows.getByText('SYNC-OLD').first().waitFor();
    const recreate = rows.getByRole('row').filter({ hasText: 'SYNC-OLD' });
    expect(await recreate.textContent()).toContain('Re-create (deleted by the job)');
    expect(await recreate.textContent()).toContain('Altlieferant Gamma GmbH');
    for (const code of ['SYNC-1', 'SYNC-2'])
      expect(await rows.getByRole('row').filter({ hasText: code }).textContent()).toContain(
        'Delete (created by the job)',
      );
    await shotEnAndDe('41-sync-undo-dry-run');

    await page.getByRole('button', { name: 'Run the undo (3 changes)' }).click();
    await page.getByText(`undo of ${importJob}`).waitFor();
    // The undo finishes (the list shows it completed) and the service is back as before the import.
    const undoRow = table.getByRole('row').filter({ hasText: `undo of ${importJob}` });
    await expect.poll(() => undoRow.textContent(), { timeout: 30_000 }).toMatch(/Completed/);
    await expect.poll(async () => Object.values(await companies()).sort()).toEqual(Object.values(before).sort());
    const now = await companies();
    expect(now['SYNC-OLD']).toBe('Altlieferant Gamma GmbH');
    expect(now['SYNC-1']).toBeUndefined();
    expect(now['SYNC-2']).toBeUndefined();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await shotEnAndDe('42-sync-jobs-list-undo');
    expect(consoleErrors).toEqual([]);
  });
});
