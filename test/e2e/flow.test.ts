/**
 * The whole flow in browser mode, driven by Debian Chromium on the embedded sandbox: download the onboarding
 * template → fill every sheet with exceljs (one supplier product maps its material to an id the service does
 * not know, so it fails on the service and its BOM is skipped) → import: a workbook with an error first (the
 * check by cell), then the good one → dry run → run (progress) → results with the failure explained → results
 * and failed-rows workbooks → fix the workbook and re-run only the failed rows → Jobs → LCA recompute, chart,
 * blockers, Excel → Export. Screenshots of every screen: test-artifacts/screenshots/ (README shows two).
 */
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  column,
  companies,
  instanceOfThisYear,
  pastProductionFigures,
  saveNewProfile,
  fillMismatches,
  flowSession,
  materialId,
  onboarding,
  readDownload,
  WRONG_ID,
  type Catalog,
} from './flow-helpers.js';
import type { E2eEnv } from './helpers.js';
import { screenshotPath } from './helpers.js';

const flow = flowSession();
const {
  consoleErrors,
  shot,
  control,
  api,
  chooseFile,
  workbook,
  unnamedControls,
  overflowingFields,
  overflowAcrossWidths,
  entityWordsSplitAcrossWidths,
  expectRevealed,
} = flow;
let env: E2eEnv;
let page: Page;
let cat: Catalog;
let firstJob: string;

beforeAll(() => {
  ({ env, page, cat } = flow);
});

describe('from a blank template to imported data', () => {
  it('downloads the onboarding template and fills every sheet in it', async () => {
    await page.goto(env.mode.url);
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download onboarding workbook' }).click(),
    ]);
    await d.saveAs(flow.template);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(flow.template);
    for (const sheet of Object.keys(onboarding(cat, WRONG_ID))) expect(wb.getWorksheet(sheet), sheet).toBeDefined();
  });

  it('checks a workbook by cell: errors listed by sheet, cell and field, filterable', async () => {
    const bad = onboarding(cat, WRONG_ID);
    bad['supplier-products'][1].unit = 'BARRELS';
    bad['product-instances'][1].produced_to = 2020; // before produced_from 2022
    delete bad['supplier-companies'][1].name;
    const file = await workbook('onboarding-with-errors.xlsx', bad);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Import a workbook' }).waitFor();
    await shot('10-import-choose');
    await chooseFile('Choose workbook…', file);
    await page.getByRole('heading', { name: 'Check of onboarding-with-errors.xlsx' }).waitFor();
    await page.getByText(/3 errors and \d+ warnings? in 24 rows/).waitFor();
    const issues = page.getByRole('table', { name: 'Problems by cell' });
    await issues.getByText('supplier-products!', { exact: false }).first().waitFor();
    const text = (await issues.textContent()) ?? '';
    expect(text).toMatch(/supplier-products!\w+3/);
    expect(text).toContain('Unit');
    expect(text).toMatch(/product-instances!\w+3/);
    await shot('11-import-check-errors');
    // The check's search field stays inside its card (it overflowed by 24 px when the filter row
    // left it between 200 and 224 px), at any window width.
    expect(await overflowAcrossWidths()).toEqual([]);
    // Filter: only the supplier-products sheet.
    await page.getByRole('combobox', { name: /^Sheet/ }).selectOption('supplier-products');
    await expect.poll(async () => (await issues.textContent()) ?? '').not.toContain('product-instances!');
    await page.getByRole('button', { name: 'Choose another workbook' }).click();
  });

  it('makes the dry run of the filled template: counts per sheet and rows with before → after', async () => {
    const file = await workbook('onboarding.xlsx', onboarding(cat, WRONG_ID));
    await chooseFile('Choose workbook…', file);
    await page
      .getByText('No problems found in 21 data rows and 3 reference rows (plant and material codes).')
      .waitFor();
    await shot('12-import-check-ok');
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run of onboarding.xlsx' }).waitFor();
    const counts = page.getByRole('table', { name: 'What the import would do, per sheet' });
    const total = counts.locator('tfoot tr');
    await expect.poll(() => total.textContent()).toMatch(/Total\s*12\s*0\s*0\s*2\s*0/);
    await page
      .getByRole('table', { name: 'Rows of the dry run' })
      .getByText('supplier product E-SP-4', { exact: true })
      .waitFor();
    // Years are never grouped ("2023", not "2,023"); a created silo shows its yearly amounts and
    // a created supplier product its hazardous substances, as updates do.
    const dry = page.getByRole('table', { name: 'Rows of the dry run' });
    const pi1 = dry.getByRole('row').filter({ has: page.getByText('product instance E-PI-1', { exact: true }) });
    await expect.poll(() => pi1.textContent()).toMatch(/First year of production\s*2023/);
    expect(await dry.textContent()).not.toMatch(/\b20,2\d\b/);
    const silo = dry.getByRole('row').filter({ has: page.getByText('silo E-SILO-1', { exact: true }) });
    const siloText = (await silo.textContent()) ?? '';
    expect(siloText).toMatch(/Purchase volume of E-SP-1 in 2024\s*1,000/);
    expect(siloText).toMatch(/Purchase volume of E-SP-1 in 2025\s*1,200/);
    expect(siloText).toMatch(/Purchase volume of E-SP-2 in 2025\s*800/);
    const sp3 = dry.getByRole('row').filter({ has: page.getByText('supplier product E-SP-3', { exact: true }) });
    expect(await sp3.textContent()).toMatch(/Mass share of 14808-60-7\s*0\.05/);
    await shot('13-import-dry-run');
    await page.getByRole('combobox', { name: /^Sheet/ }).selectOption('silos');
    await expect.poll(() => dry.getByRole('row').count()).toBe(2);
    await shot('13b-import-dry-run-created-silo');
    await page.getByRole('combobox', { name: /^Sheet/ }).selectOption('product-instances');
    await expect.poll(() => dry.getByRole('row').count()).toBe(3);
    await shot('13c-import-dry-run-created-instances');
    await page.getByRole('combobox', { name: /^Sheet/ }).selectOption('');
    // A count is a filter: the two BOMs, with their components as added.
    await page.getByRole('button', { name: /Show the 2 rows “BOM replace” of sheet bom/ }).click();
    const rows = page.getByRole('table', { name: 'Rows of the dry run' });
    await expect.poll(() => rows.getByRole('row').count()).toBe(3); // header + 2
    expect(await rows.textContent()).toContain('+ E-SP-4');
    expect(await overflowAcrossWidths()).toEqual([]); // with "Clear filter" the search has the least room
    await page.getByRole('button', { name: 'Clear filter' }).click();
  });

  it('runs the import with progress, then shows the failed row explained and its dependent skipped', async () => {
    // Slow the service a little so the running step can be seen (and photographed).
    await control('PUT', '/__sandbox/faults', { latency_ms: 600 });
    await page.getByRole('button', { name: 'Run the import (14 to write)' }).click();
    await page.getByRole('progressbar', { name: 'Import progress' }).waitFor();
    await page.getByText(/rows\/s/).waitFor();
    await shot('14-import-running');
    // Pause: the job stops after the requests under way and can be resumed where it stopped.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Paused. Resume to continue where it stopped.').waitFor({ timeout: 30_000 });
    await expect
      .poll(() => page.getByRole('list', { name: 'Entities per outcome' }).first().textContent())
      .toContain('Not run yet');
    await shot('14b-import-paused');
    await control('PUT', '/__sandbox/faults', {});
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('heading', { name: 'Results of onboarding.xlsx' }).waitFor({ timeout: 30_000 });
    // Completed with a failed row is not a green "Completed" and says how many failed.
    await page.getByText('Completed with problems: 12 succeeded, 1 failed, 1 skipped.').waitFor({ timeout: 30_000 });
    const badge = page.locator('.card-head .tag').first();
    expect(await badge.textContent()).toBe('Completed, 1 failed');
    expect(await badge.getAttribute('class')).toContain('tone-bad');
    const perRow = page.getByRole('table', { name: 'Outcome per row' });
    const failed = perRow.getByRole('row').filter({ has: page.getByText('supplier product E-SP-4', { exact: true }) });
    await failed.waitFor();
    const failedText = (await failed.textContent()) ?? '';
    expect(failedText).toContain('Failed');
    expect(failedText).toContain('err_material_type_not_found');
    expect(failedText).toContain('HTTP 422');
    expect(failedText).toContain('The material type does not exist.');
    const skipped = perRow.getByRole('row').filter({ hasText: 'BOM of E-PI-1' });
    expect(await skipped.textContent()).toContain('a row it depends on did not succeed');
    expect(await overflowAcrossWidths()).toEqual([]);
    firstJob = (await page.locator('dd code').first().textContent()) ?? '';
    expect(firstJob).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    await shot('15-import-results');
  });

  it('offers the results workbook and the failed rows as downloads', async () => {
    const [results] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download results workbook' }).click(),
    ]);
    expect(results.suggestedFilename()).toBe('onboarding-results.xlsx');
    const wb = await readDownload(results);
    const sp = wb.getWorksheet('supplier-products')!;
    expect(sp.getRow(5).getCell(column(sp, '_result')).value).toBe('failed');
    expect(sp.getRow(5).getCell(column(sp, '_err_code')).value).toBe('err_material_type_not_found');
    expect(sp.getRow(2).getCell(column(sp, '_result')).value).toBe('created');
    const [failedRows] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save failed rows (3)' }).click(),
    ]);
    expect(failedRows.suggestedFilename()).toBe('onboarding-failed-rows.xlsx');
    const fw = await readDownload(failedRows);
    expect(fw.getWorksheet('supplier-products')!.getRow(2).getCell(1).value).toBe('E-SP-4');
    await page.getByText('onboarding-failed-rows.xlsx is ready: 3 rows').waitFor();
  });

  it('colours every input cell of the results workbook with its own row’s outcome, system sheets none', async () => {
    // Read the downloaded file back, cell by cell.
    const [results] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download results workbook' }).click(),
    ]);
    const wb = await readDownload(results);
    expect(column(wb.getWorksheet('supplier-products')!, '_result')).toBeGreaterThan(0);
    expect(fillMismatches(wb)).toEqual([]);
  });

  it('re-runs only the failed rows after the workbook is fixed', async () => {
    const fixed = await workbook('onboarding-fixed.xlsx', onboarding(cat, materialId(cat, 'MAT-SUPERPL')));
    await page.getByRole('button', { name: 'Re-run failed rows (3)…' }).click();
    // The panel opens in view and takes focus (it opened ~1,700 px down, unscrolled).
    await expectRevealed(page.getByRole('region', { name: 'Re-run only the rows that did not succeed' }));
    await page.screenshot({ path: screenshotPath('16a-import-rerun-panel') });
    await chooseFile('Choose the corrected workbook…', fixed);
    await page.getByText(`Re-run of job ${firstJob}`).waitFor();
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page
      .getByText(/Only the rows that did not succeed in job .* 12 entries of the workbook are left out/)
      .waitFor();
    const rows = page.getByRole('table', { name: 'Rows of the dry run' });
    await expect.poll(() => rows.getByRole('row').count()).toBe(3);
    expect(await rows.textContent()).toContain('supplier product E-SP-4');
    await shot('16-import-rerun-dry-run');
    await page.getByRole('button', { name: 'Run the import (2 to write)' }).click();
    await page.getByRole('heading', { name: 'Results of onboarding-fixed.xlsx' }).waitFor();
    await page.getByText('Completed: every row succeeded.').waitFor();
    expect(await page.locator('.card-head .tag').first().getAttribute('class')).toContain('tone-ok');
    const chips = page.getByRole('list', { name: 'Entities per outcome' }).first();
    await expect.poll(() => chips.textContent()).toBe('Created: 1 entityBOM replaced: 1 entity');
    const sp = await api<{ data: { id: string }[] }>('/v2/supplier-products?external_id=E-SP-4');
    expect(sp.data).toHaveLength(1);
    await shot('17-import-rerun-results');
  });

  it('shows changes to existing data field by field in the dry run: before → after', async () => {
    const changed = onboarding(cat, materialId(cat, 'MAT-SUPERPL'));
    changed['supplier-companies'][1].name = 'Dyckerhoff GmbH';
    changed['supplier-products'][0].truck_km = 135;
    changed['silo-items'][1].amount = 1350;
    changed.bom[2].mass_kg = 120;
    changed['supplier-products'].push({
      external_id: 'E-SP-5',
      name: 'Gips REA',
      plant_code: 'HEID',
      material_code: 'MAT-GYPSUM',
      supplier_plant_external_id: 'E-SPL-2',
      unit: 'KG',
      truck_km: 60,
    });
    const file = await workbook('onboarding-changed.xlsx', changed);
    await page.getByRole('button', { name: 'Import another workbook' }).click();
    await chooseFile('Choose workbook…', file);
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run of onboarding-changed.xlsx' }).waitFor();
    const total = page.getByRole('table', { name: 'What the import would do, per sheet' }).locator('tfoot tr');
    await expect.poll(() => total.textContent()).toMatch(/Total\s*1\s*3\s*10\s*1\s*0/);
    await page.getByRole('combobox', { name: /^Action/ }).selectOption('writes');
    const rows = page.getByRole('table', { name: 'Rows of the dry run' });
    await expect.poll(() => rows.getByRole('row').count()).toBe(6); // header + 1 create + 3 updates + 1 BOM
    const text = (await rows.textContent()) ?? '';
    expect(text).toMatch(/Name: Dyckerhoff\s*→\s*Dyckerhoff GmbH/);
    expect(text).toMatch(/Truck distance \(km\): 120\s*→\s*135/);
    expect(text).toMatch(/Purchase volume of E-SP-1 in 2025: 1,200\s*→\s*1,350/);
    expect(text).toMatch(/E-SP-3: 100 kg\s*→\s*120 kg/);
    await shot('19-import-dry-run-changes'); // the README's docs/images/import-dry-run.png
  });

  it('lists both jobs with their reports on the Jobs screen', async () => {
    await page.getByRole('button', { name: 'Jobs', exact: true }).click();
    const list = page.getByRole('table').first();
    await expect.poll(() => list.locator('tbody tr').count()).toBe(2);
    // The list says which job had a failure, not "Completed" twice in green.
    const firstRow = list.locator('tbody tr').filter({ hasText: firstJob });
    expect(await firstRow.locator('.tag').first().textContent()).toBe('Completed, 1 failed');
    expect(await firstRow.locator('.tag').first().getAttribute('class')).toContain('tone-bad');
    const rerunRow = list.locator('tbody tr').filter({ hasNotText: firstJob });
    expect(await rerunRow.locator('.tag').first().textContent()).toBe('Completed');
    expect(await overflowingFields()).toEqual([]); // the Report buttons stay inside the card
    await page.getByRole('button', { name: `Report of job ${firstJob}` }).click();
    await page.getByRole('heading', { name: 'Results of onboarding.xlsx' }).waitFor();
    // The report opened from the list comes into view; a finished job with failed rows offers the re-run.
    await page.getByRole('button', { name: 'Re-run failed rows (3)…' }).waitFor();
    await shot('18-jobs');
  });
});

describe('LCA and export', () => {
  it('recomputes the LCA of chosen instances with a live state each, a GWP chart and blockers explained', async () => {
    // Production figures as entered in the web interface: the past years of both instances, the current year left open.
    const year = await pastProductionFigures(flow);
    await page.getByRole('button', { name: 'LCA', exact: true }).click();
    await page.getByRole('heading', { name: 'Choose product instances' }).waitFor();
    // By product: the instances of an article number.
    await page.getByRole('checkbox', { name: /ART-10011/ }).check();
    await page.getByRole('button', { name: 'Find instances' }).click();
    await page.getByText(/\d+ instances? found\./).waitFor();
    expect(await page.locator('table.lca-table tbody tr').filter({ hasText: 'E-PI-1' }).count()).toBe(1);
    // By a list of codes.
    // An instance of this year without production data: its recompute completes with no year computed.
    await instanceOfThisYear(flow, 'E-PI-NEW', year);
    await page.getByText('List of instances').click();
    await page.getByLabel(/Instance codes/).fill('E-PI-1\nE-PI-2\nPI-HEID-10011\nE-PI-NEW');
    await page.getByRole('button', { name: 'Find instances' }).click();
    await page.getByText('4 instances found.').waitFor();
    // Nothing has started yet, so nothing is "Waiting".
    const states = page.locator('table.lca-table tbody tr td:nth-child(5)');
    expect(await states.allTextContents()).toEqual(['Not started', 'Not started', 'Not started', 'Not started']);
    // Slower jobs on the service, so the live state of each instance can be seen.
    await control('PUT', '/__sandbox/lca', { queued_ms: 600, processing_ms: 1200 });
    try {
      await page.getByRole('button', { name: 'Recompute and read results' }).click();
      await page
        .locator('table.lca-table')
        .getByText(/^(Queued|Computing)$/)
        .first()
        .waitFor();
      await shot('20a-lca-running');
      await page.getByText('4 of 4 instances completed; 1 of them with no year computed.').waitFor({ timeout: 30_000 });
    } finally {
      await control('PUT', '/__sandbox/lca', { queued_ms: 100, processing_ms: 400 });
    }
    const table = page.locator('table.lca-table');
    for (const code of ['E-PI-1', 'E-PI-2', 'PI-HEID-10011'])
      expect(await table.locator('tr', { hasText: code }).textContent()).toContain('Completed');
    // 0 years computed is its own neutral state, not a green "Completed".
    const none = table.locator('tr', { hasText: 'E-PI-NEW' });
    const noneTag = none.locator('td:nth-child(6) .tag');
    expect(await noneTag.textContent()).toBe('Completed — no years computed');
    expect(await noneTag.getAttribute('class')).toContain('tone-neutral');
    expect(await none.locator('td:nth-child(5) .tag').getAttribute('class')).not.toContain('tone-ok');
    expect(await table.locator('tr', { hasText: 'E-PI-1' }).textContent()).toMatch(
      new RegExp(`${year - 2023} years? computed, 1 blocked`),
    );
    await page.locator('.chart-box .recharts-wrapper').waitFor();
    expect(await page.locator('.chart-box .recharts-line').count()).toBe(4);
    await page.getByText('What blocks results').waitFor();
    const blockers = page.locator('ul.blockers');
    expect(await blockers.textContent()).toContain(`E-PI-1 · ${year}: no production data for ${year}`);
    expect(await blockers.textContent()).toContain('2030 is a future production year');
    await shot('20-lca-chart');
    // For the README (docs/images/lca-chart.png): the chart card.
    await page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'GWP-total per year' }) })
      .screenshot({ path: screenshotPath('readme-lca-chart') });
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export to Excel' }).click(),
    ]);
    const wb = await readDownload(d);
    expect(wb.worksheets.map((w) => w.name)).toEqual(
      expect.arrayContaining(['results', 'indicators', 'blockers', 'jobs', 'about']),
    );
  });

  it('exports a collection to a workbook in the template format', async () => {
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByLabel(/Supplier products/).check();
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export', exact: true }).last().click(),
    ]);
    expect(d.suggestedFilename()).toMatch(/^supply-loader-export-supplier-products-\d{8}-\d{4}\.xlsx$/);
    const wb = await readDownload(d);
    const sp = wb.getWorksheet('supplier-products')!;
    const codes: string[] = [];
    sp.eachRow((r, n) => n > 1 && codes.push(String(r.getCell(1).value)));
    expect(codes).toEqual(expect.arrayContaining(['E-SP-1', 'E-SP-2', 'E-SP-3', 'E-SP-4']));
    await page.getByText(/Exported: supply-loader-export-supplier-products/).waitFor();
    await shot('21-export');
  });

  it('reads in German and dark colours, and nothing on the page went wrong', async () => {
    await page.getByLabel('Language').selectOption('de');
    await page.getByLabel('Farben').selectOption('dark');
    await page.getByRole('button', { name: 'Ökobilanz', exact: true }).click();
    await page.getByRole('heading', { name: 'GWP-total je Jahr' }).waitFor();
    await shot('22-lca-de-dark');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Probelauf von onboarding-changed.xlsx' }).waitFor();
    await shot('23-import-dry-run-de-dark');
    // Every control of the work screens has a name (a label, text or aria-label).
    for (const screen of ['Import', 'Aufträge', 'Export', 'Ökobilanz']) {
      await page.getByRole('button', { name: screen, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: screen }).waitFor();
      expect(await unnamedControls(), screen).toEqual([]);
    }
    await page.getByLabel('Sprache').selectOption('system');
    await page.getByLabel('Colours').selectOption('system');
    expect(consoleErrors).toEqual([]);
    // No key anywhere on the page.
    expect(await page.content()).not.toContain(env.mode.app.sandbox.ownerKey() ?? 'no key');
  });
});

describe('after a reload: jobs, connection and LCA say what happened', () => {
  it('the Jobs report offers the re-run of a finished job with failed rows, and the panel opens in view', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Jobs', exact: true }).click();
    await page.getByRole('button', { name: `Report of job ${firstJob}` }).click();
    await page.getByRole('heading', { name: 'Results of onboarding.xlsx' }).waitFor();
    await page.getByRole('button', { name: 'Save failed rows (3)' }).waitFor();
    await page.getByRole('button', { name: 'Re-run failed rows (3)…' }).click();
    await expectRevealed(page.getByRole('region', { name: 'Re-run only the rows that did not succeed' }));
    await page.screenshot({ path: screenshotPath('24-jobs-rerun-after-reload') });
    // The corrected workbook goes to the Import screen, restricted to the failed rows of that job.
    const fixed = await workbook('onboarding-fixed-2.xlsx', onboarding(cat, materialId(cat, 'MAT-SUPERPL')));
    await chooseFile('Choose the corrected workbook…', fixed);
    await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
    await page.getByText(`Re-run of job ${firstJob}`).waitFor();
  });

  it('Resume from Jobs shows the live progress in view, and the row’s counts follow it', async () => {
    const file = await workbook('companies.xlsx', companies(60));
    await page.getByRole('button', { name: 'Choose another workbook' }).click();
    await chooseFile('Choose workbook…', file);
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await control('PUT', '/__sandbox/faults', { latency_ms: 800 });
    try {
      await page.getByRole('button', { name: 'Run the import (60 to write)' }).click();
      await page.getByRole('progressbar', { name: 'Import progress' }).waitFor();
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByText('Paused. Resume to continue where it stopped.').waitFor({ timeout: 30_000 });
      const jobId = (await page.locator('dd code').first().textContent()) ?? '';
      await page.getByRole('button', { name: 'Jobs', exact: true }).click();
      const row = page.getByRole('table').first().locator('tbody tr').filter({ hasText: jobId });
      const createdIn = async () => Number(/Created (\d+)/.exec((await row.textContent()) ?? '')?.[1] ?? 0);
      const pausedCreated = await createdIn();
      expect(pausedCreated).toBeLessThan(60);
      await page.getByRole('button', { name: `Resume job ${jobId}` }).click();
      await expectRevealed(
        page.locator('.reveal-target').filter({ has: page.getByRole('region', { name: 'Importing companies.xlsx' }) }),
      );
      await page.screenshot({ path: screenshotPath('25-jobs-resume-progress') });
      // The list's counts go up while the job runs (they stayed at the resume-time counts).
      await expect
        .poll(async () => (await row.textContent())?.includes('Running') && (await createdIn()) > pausedCreated, {
          timeout: 30_000,
          interval: 100,
        })
        .toBe(true);
    } finally {
      await control('PUT', '/__sandbox/faults', {});
    }
    await expect.poll(() => page.getByRole('table').first().textContent(), { timeout: 60_000 }).toContain('Created 60');
  });

  it('does not save a profile whose key the service refuses, and keeps the form', async () => {
    await page.getByRole('button', { name: 'Connection', exact: true }).click();
    await saveNewProfile(flow, 'Refused key', 'svc-nokey1-NotAKnownKey123');
    const form = page.getByRole('region', { name: 'New profile' });
    await form.getByRole('alert').getByText('err_not_authenticated').waitFor();
    expect(await form.getByRole('alert').textContent()).toContain('The service refused the request.');
    await form.getByText('Nothing was saved: the service refused this key.', { exact: false }).waitFor();
    await page.getByRole('heading', { name: 'New profile' }).waitFor(); // the form stays, with what was typed
    expect(await page.getByLabel('Profile name').inputValue()).toBe('Refused key');
    expect(await page.getByRole('list', { name: 'Profiles' }).textContent()).not.toContain('Refused key');
    expect(await page.getByRole('button', { name: 'Use this connection' }).count()).toBe(0);
    await shot('26-connection-refused-key');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  });

  it('with a key refused after it was saved, the LCA screen shows the error and no endless Loading…', async () => {
    const k = await control<{ key: string; api_key_id: string }>('POST', '/__sandbox/keys', {
      scopes: ['view:plants', 'view:products'],
    });
    await saveNewProfile(flow, 'Soon revoked', k.key);
    await page.getByRole('button', { name: 'Use profile Soon revoked' }).click();
    await control('DELETE', `/__sandbox/keys/${k.api_key_id}`);
    await page.reload();
    await page.getByRole('button', { name: 'LCA', exact: true }).click();
    await page.getByText(/could not be read \(see the error above\)/).waitFor();
    await page.getByRole('alert').first().waitFor();
    expect(await page.getByText('Loading…').count()).toBe(0);
    await shot('27-lca-refused-key');
    // The connection check of a refused key does not offer it either.
    await page.getByRole('button', { name: 'Connection', exact: true }).click();
    await page.getByRole('button', { name: 'Use profile Sandbox' }).click();
    await page.getByRole('button', { name: 'Edit profile Soon revoked' }).waitFor();
  });

  it('reads in German and dark: the new words', async () => {
    await page.getByLabel('Language').selectOption('de');
    await page.getByLabel('Farben').selectOption('dark');
    await page.getByRole('button', { name: 'Aufträge', exact: true }).click();
    await page.getByRole('button', { name: `Bericht von Auftrag ${firstJob}` }).click();
    await page.getByText(/Mit Problemen abgeschlossen: 12 erfolgreich, 1 fehlgeschlagen, 1 übersprungen/).waitFor();
    expect(await overflowingFields()).toEqual([]); // longer German words do not push the table out of its card
    await page.locator('.results-grid .entity').first().waitFor();
    expect(await entityWordsSplitAcrossWidths()).toEqual([]); // "Lieferantenprodukt" whole, at 900–1280 px
    await shot('28-jobs-report-de-dark');
    await page.getByLabel('Sprache').selectOption('en');
    await page.getByLabel('Colours').selectOption('light');
    await shot('29-jobs-report-en-light');
    await page.getByLabel('Language').selectOption('system');
    await page.getByLabel('Colours').selectOption('system');
    expect(consoleErrors.filter((e) => !/401|Unauthorized/i.test(e))).toEqual([]);
  });
});
