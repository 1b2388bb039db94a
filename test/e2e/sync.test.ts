/**
 * Keeping the service in sync in browser mode, driven by Debian Chromium on the embedded sandbox
 * (reset to empty data): the dry run's mirror checkbox lists the delete of the company the workbook no longer
 * has, by name, and the run deletes it; then "Undo…" on the Jobs screen shows the undo's own dry run
 * (the created companies deleted, the deleted one re-created), runs it, lists it as "undo of …", and the
 * service is as it was before the import. Then a mirror of supplier-products deletes products with transport
 * routes and hazardous substances (the deletes red in the dry run, the mirror box a card above the run button), and
 * its undo from the Jobs screen shows each re-created product with its own values in words, runs, and the list
 * says the mirror job was undone by it (no Undo offered for it any more). Screenshots EN light and DE dark, at
 * 1280 and 900 px: test-artifacts/screenshots/40-*.png … 46-*.png.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../core/ipc/dispatch.js';
import type { ProcedureInput, ProcedureOutput } from '../../core/ipc/contract.js';
import type { ProcedureName } from '../../core/contract/names.js';
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

/**
 * Elements that reach past the window's right edge (outermost first; not those inside a box that scrolls or clips
 * within the window), to name what overflows.
 */
function overflowing(): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const past = (el: Element) => el.getBoundingClientRect().right > width + 0.5;
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== 'visible' && !past(a)) return true;
      return false;
    };
    const out: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || !past(el) || clipped(el)) continue;
      if (el.parentElement && past(el.parentElement)) continue;
      // a table names its columns' widths, to see which one is too wide
      const cols =
        el instanceof HTMLTableElement && el.rows[0]
          ? ` (columns ${[...el.rows[0].cells].map((c) => Math.round(c.getBoundingClientRect().width)).join('/')} px)`
          : '';
      out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ${Math.round(r.right - width)}px${cols}`);
    }
    return out;
  });
}

/** The same at 900 px: nothing wider than the window, in either language. */
async function narrowShotEnAndDe(name: string) {
  await page.setViewportSize({ width: 900, height: 800 });
  try {
    expect(await overflowing()).toEqual([]);
    await page.getByLabel('Language').selectOption('de');
    expect(await overflowing()).toEqual([]);
    await page.getByLabel('Sprache').selectOption('en');
    await shotEnAndDe(name);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
}

/** A procedure through the contract (test setup that is not the subject of the test). */
async function call<N extends ProcedureName>(name: N, input: ProcedureInput<N>): Promise<ProcedureOutput<N>> {
  const r = await dispatch(name, input, env.mode.app);
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.data as ProcedureOutput<N>;
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

describe('mirror supplier products with routes and hazardous substances, then undo the mirror job', () => {
  const product = (code: string, name: string, more: Record<string, unknown> = {}) => ({
    external_id: code,
    name,
    plant_code: 'PL-HEID',
    material_code: 'MAT-CEM1',
    unit: 'KG',
    ...more,
  });
  let mirrorJob: string;

  interface Product {
    external_id: string | null;
    name: string;
    transport_route: Record<string, number> | null;
    hazardous_substances?: { cas_number: string; mass_share: number }[];
  }
  async function products(): Promise<Record<string, Product>> {
    const list = await sandbox<{ data: { id: string }[] }>('GET', '/v2/supplier-products?limit=200');
    const out: Record<string, Product> = {};
    for (const p of list.data) {
      const full = await sandbox<Product>('GET', `/v2/supplier-products/${p.id}`);
      out[full.external_id ?? p.id] = full;
    }
    return out;
  }
  let before: Record<string, Product>;

  it('mirrors supplier-products: the deletes are red, the mirror box is a card above the run button', async () => {
    // The products the mirror will delete, imported first (setup through the contract).
    const base = path.join(env.dir, 'products.xlsx');
    await writeTestWorkbook(base, {
      'supplier-products': [
        product('MP-1', 'Zement Lägerdorf', { truck_km: 120, train_km: 40 }),
        product('MP-2', 'Kies Rhein', { ship_km: 300 }),
        product('MP-3', 'Sand Werk Nord'),
      ],
      'hazardous-substances': [
        { supplier_product_external_id: 'MP-1', cas_number: '14808-60-7', mass_share: 0.05 },
        { supplier_product_external_id: 'MP-1', cas_number: '1305-78-8', mass_share: 0.2 },
      ],
    });
    const v = await call('import.validate', { fileId: env.mode.app.files.registerPath(base).fileId });
    await call('import.plan', { importId: v.importId, createOnly: false, mirror: [] });
    const { jobId } = await call('import.run', { importId: v.importId, skipBlocked: false });
    await expect.poll(async () => (await call('jobs.get', { jobId })).status, { timeout: 30_000 }).toBe('completed');
    before = await products();
    expect(Object.keys(before).sort()).toEqual(['MP-1', 'MP-2', 'MP-3']);

    const file = path.join(env.dir, 'mirror-products.xlsx');
    await writeTestWorkbook(file, { 'supplier-products': [product('MP-3', 'Sand Werk Nord')] });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const again = page.getByRole('button', { name: /^(Import another workbook|Start over)/ });
    if (await again.count()) await again.first().click();
    await chooseFile('Choose workbook…', file);
    await page.getByText(/^No problems found in 1 rows?\./).waitFor();
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run of mirror-products.xlsx' }).waitFor();

    const box = page.getByRole('region', { name: /^Mirror sheets/ });
    await box.getByRole('checkbox', { name: 'Mirror supplier-products' }).check();
    await page.getByRole('button', { name: 'Run the import (2 to write)' }).waitFor();
    // The mirror box comes before the run button.
    const order = await page.evaluate(() => {
      const card = document.querySelector('.mirror-card');
      const run = [...document.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Run the import'));
      return card && run ? card.compareDocumentPosition(run) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
    });
    expect(order).toBeTruthy();
    // "Everything that writes" lets the deletes through, and a delete is red (not the green of a create).
    await page.getByRole('combobox', { name: /^Action/ }).selectOption('writes');
    const dry = page.getByRole('table', { name: 'Rows of the dry run' });
    for (const code of ['MP-1', 'MP-2']) {
      const row = dry.getByRole('row').filter({ hasText: code });
      await row.waitFor();
      expect(await row.locator('.tag.tone-bad').textContent()).toBe('Delete');
    }
    await shotEnAndDe('43-sync-mirror-products-dry-run');
    await narrowShotEnAndDe('43-sync-mirror-products-dry-run-900');

    await page.getByRole('button', { name: 'Run the import (2 to write)' }).click();
    await page.getByRole('heading', { name: /Results of mirror-products\.xlsx/ }).waitFor({ timeout: 30_000 });
    expect(Object.keys(await products())).toEqual(['MP-3']);
    mirrorJob = (await call('jobs.list', {})).jobs.find((j) => j.file === 'mirror-products.xlsx')!.jobId;
  });

  it('undoes the mirror job: each re-create with its own values in words, then the list says it was undone', async () => {
    await page.getByRole('button', { name: 'Jobs', exact: true }).click();
    const table = page.locator('table.jobs-table');
    await table.getByText('mirror-products.xlsx').waitFor();
    await page.getByRole('button', { name: `Undo job ${mirrorJob}` }).click();
    await page.getByRole('heading', { name: `Undo job ${mirrorJob}: dry run` }).waitFor();
    const rows = page.locator('table.undo-table');
    const one = rows.getByRole('row').filter({ hasText: 'MP-1' });
    const two = rows.getByRole('row').filter({ hasText: 'MP-2' });
    await one.waitFor();
    expect(await one.textContent()).toContain('Zement Lägerdorf');
    expect(await one.textContent()).toContain('truck 120 km, train 40 km');
    expect(await one.textContent()).toContain('CAS 14808-60-7: 0.05; CAS 1305-78-8: 0.2');
    expect(await two.textContent()).toContain('Kies Rhein');
    expect(await two.textContent()).toContain('ship 300 km');
    expect(await two.textContent()).not.toContain('Zement Lägerdorf');
    await shotEnAndDe('44-sync-undo-mirror-dry-run');
    await narrowShotEnAndDe('44-sync-undo-mirror-dry-run-900');

    await page.getByRole('button', { name: 'Run the undo (2 changes)' }).click();
    await page.getByText(`undo of ${mirrorJob}`).waitFor();
    const undoRow = table.getByRole('row').filter({ hasText: `undo of ${mirrorJob}` });
    await expect.poll(() => undoRow.textContent(), { timeout: 30_000 }).toMatch(/Completed/);
    const after = await products();
    expect(Object.keys(after).sort()).toEqual(['MP-1', 'MP-2', 'MP-3']);
    expect(after['MP-1'].transport_route).toEqual(before['MP-1'].transport_route);
    expect(after['MP-1'].hazardous_substances).toEqual(before['MP-1'].hazardous_substances);

    // The mirror job says which job undid it and no longer offers Undo.
    const undoId = (await call('jobs.list', {})).jobs.find((j) => j.undoes === mirrorJob)!.jobId;
    await page.getByRole('button', { name: 'Refresh' }).click();
    const mirrorRow = table.getByRole('row').filter({ hasText: mirrorJob }).filter({ hasNotText: 'undo of' });
    await expect.poll(() => mirrorRow.textContent()).toContain(`Undone by job ${undoId}`);
    expect(await page.getByRole('button', { name: `Undo job ${mirrorJob}` }).count()).toBe(0);
    await shotEnAndDe('45-sync-jobs-undone');
    await narrowShotEnAndDe('45-sync-jobs-undone-900');
    expect(consoleErrors).toEqual([]);
  });
});
