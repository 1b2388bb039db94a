/**
 * Every screen at window widths 900, 1280 and 1920 px, in English and German (light; dark at 1280 px): nothing
 * sticks out sideways (layout-checks horizontalOverflow), no word is split over two lines (splitWords) and
 * axe-core finds no serious or critical WCAG 2.1 A/AA violation. The screens are walked as a user does:
 * Connection → Templates → Import (choose, check with errors, dry run, results, dry run with changes) → Jobs
 * (list and report) → Export → LCA (run, chart, analysis with hotspots and trend) → Import of an ERP export (the
 * Columns step: own German headers, suggested fields with their confidence). Screenshots at 900 and 1280 px:
 * test-artifacts/screenshots/layout-<screen>-<lang>-<theme>-<width>.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { flowSession, materialId, onboarding, pastProductionFigures, WRONG_ID } from './flow-helpers.js';
import { screenshotPath, fullPageShot } from './helpers.js';
import { axeViolations, horizontalOverflow, splitWords } from './layout-checks.js';

const flow = flowSession();
let page: Page;

beforeAll(() => {
  ({ page } = flow);
});

const WIDTHS = [900, 1280, 1920];

// the top bar's two choices, language then colours (their names change with the language)
async function setLanguage(lang: 'en' | 'de') {
  await page.locator('header.topbar .prefs select').nth(0).selectOption(lang);
}
async function setTheme(theme: 'light' | 'dark') {
  await page.locator('header.topbar .prefs select').nth(1).selectOption(theme);
}

/** The current screen checked in both languages at every width (light) and at 1280 px dark; back to English light. */
async function inspect(name: string): Promise<string[]> {
  const problems: string[] = [];
  const check = async (lang: string, theme: string, width: number) => {
    await page.setViewportSize({ width, height: 800 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const where = `${name} ${lang} ${theme} ${width} px`;
    for (const p of await horizontalOverflow(page)) problems.push(`${where}: overflow: ${p}`);
    for (const p of await splitWords(page)) problems.push(`${where}: split word: ${p}`);
    for (const p of await axeViolations(page)) problems.push(`${where}: axe: ${p}`);
    if (width !== 1920) await fullPageShot(page, screenshotPath(`layout-${name}-${lang}-${theme}-${width}`));
  };
  for (const lang of ['en', 'de'] as const) {
    await setLanguage(lang);
    for (const width of WIDTHS) await check(lang, 'light', width);
    await setTheme('dark');
    await check(lang, 'dark', 1280);
    await setTheme('light');
  }
  await setLanguage('en');
  await page.setViewportSize({ width: 1280, height: 800 });
  return problems;
}

describe('every screen at 900–1920 px, English and German: no overflow, no split words, no serious axe finding', () => {
  it('Connection and Templates', async () => {
    await page.goto(flow.env.mode.url);
    await page.getByRole('heading', { level: 1, name: 'Connection' }).waitFor();
    await page.getByText('The key has every scope that import, LCA and export need.').waitFor();
    const problems = await inspect('connection');
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download onboarding workbook' }).click(),
    ]);
    await d.saveAs(flow.template);
    problems.push(...(await inspect('templates')));
    expect(problems).toEqual([]);
  }, 300_000);

  it('Import: choose, check with errors, dry run', async () => {
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Import a workbook' }).waitFor();
    const problems = await inspect('import-choose');
    const bad = onboarding(flow.cat, WRONG_ID);
    bad['supplier-products'][1].unit = 'BARRELS';
    delete bad['supplier-companies'][1].name;
    await flow.chooseFile('Choose workbook…', await flow.workbook('onboarding-with-errors.xlsx', bad));
    await page.getByRole('heading', { name: 'Check of onboarding-with-errors.xlsx' }).waitFor();
    await page.getByRole('table', { name: 'Problems by cell' }).waitFor();
    problems.push(...(await inspect('import-check')));
    await page.getByRole('button', { name: 'Choose another workbook' }).click();
    await flow.chooseFile('Choose workbook…', await flow.workbook('onboarding.xlsx', onboarding(flow.cat, WRONG_ID)));
    await page
      .getByText('No problems found in 21 data rows and 3 reference rows (plant and material codes).')
      .waitFor();
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('table', { name: 'Rows of the dry run' }).waitFor();
    problems.push(...(await inspect('import-dry-run')));
    expect(problems).toEqual([]);
  }, 300_000);

  it('Import: results, then a dry run with changes (before → after)', async () => {
    await page.getByRole('button', { name: 'Run the import (14 to write)' }).click();
    await page.getByRole('heading', { name: 'Results of onboarding.xlsx' }).waitFor({ timeout: 30_000 });
    await page.getByRole('table', { name: 'Outcome per row' }).waitFor();
    const problems = await inspect('import-results');
    const changed = onboarding(flow.cat, materialId(flow.cat, 'MAT-SUPERPL'));
    changed['supplier-companies'][1].name = 'Dyckerhoff GmbH';
    changed['supplier-products'][0].truck_km = 135;
    changed['silo-items'][1].amount = 1350;
    changed.bom[2].mass_kg = 120;
    await page.getByRole('button', { name: 'Import another workbook' }).click();
    await flow.chooseFile('Choose workbook…', await flow.workbook('onboarding-changed.xlsx', changed));
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run of onboarding-changed.xlsx' }).waitFor();
    await page.getByRole('combobox', { name: /^Action/ }).selectOption('writes');
    await page.getByRole('table', { name: 'Rows of the dry run' }).getByText('→').first().waitFor();
    problems.push(...(await inspect('import-dry-run-changes')));
    expect(problems).toEqual([]);
  }, 300_000);

  it('Jobs (list and report) and Export', async () => {
    await page.getByRole('button', { name: 'Jobs', exact: true }).click();
    await page.getByRole('table').first().locator('tbody tr').first().waitFor();
    const problems = await inspect('jobs');
    await page
      .getByRole('button', { name: /^Report of job / })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Results of onboarding.xlsx' }).waitFor();
    problems.push(...(await inspect('jobs-report')));
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByLabel(/Supplier products/).waitFor();
    problems.push(...(await inspect('export')));
    expect(problems).toEqual([]);
  }, 300_000);

  it('LCA: the run, its chart, and the analysis with hotspots and trend', async () => {
    await pastProductionFigures(flow);
    await page.getByRole('button', { name: 'LCA', exact: true }).click();
    await page.getByRole('heading', { name: 'Choose product instances' }).waitFor();
    const problems = await inspect('lca-choose');
    await page.getByRole('radio', { name: 'All', exact: true }).check();
    await page.getByRole('button', { name: 'Find instances' }).click();
    await page.getByText(/\d+ instances? found\./).waitFor();
    await page.getByRole('button', { name: 'Recompute and read results' }).click();
    await page.getByRole('heading', { name: 'Results as read in an EPD' }).waitFor({ timeout: 60_000 });
    const card = page.locator('section[aria-labelledby="lca-analysis-heading"]');
    // an instance-year with a breakdown (the imported instances have none)
    const choice = card.getByRole('combobox', { name: /^Instance and year/ });
    const choices = await choice.locator('option').count();
    for (let i = 0; i < choices && (await card.locator('ol.hotspot-bars li').count()) === 0; i++) {
      await choice.selectOption({ index: i });
      await card
        .locator('ol.hotspot-bars li')
        .first()
        .waitFor({ timeout: 3_000 })
        .catch(() => {});
    }
    await card.locator('ol.hotspot-bars li').first().waitFor();
    // a share says what it is a share of
    expect(await card.locator('.hotspot-value').first().textContent()).toMatch(/% of the A1-A\d total$/);
    await expect.poll(() => card.textContent()).toContain('Trend against the previous computed year');
    problems.push(...(await inspect('lca')));
    // the GWP-total card as the README shows it (docs/images/lca-chart.png)
    await page
      .locator('section[aria-labelledby="lca-chart-heading"]')
      .screenshot({ path: screenshotPath('layout-readme-lca-chart') });
    // a small indicator (ODP, ~1e-6 per declared unit): its axis and table show significant digits
    await card.getByLabel('Indicator').selectOption('ODP');
    const caption = card.locator('figcaption');
    await expect.poll(() => caption.textContent()).toContain('(ODP)');
    expect(await caption.textContent()).not.toContain('GWP');
    // the y-axis ticks of ODP per t (~1e-5): "0.000009", "0.000018", never all "0"
    const texts = card.locator('.chart-box-analysis svg text');
    await expect
      .poll(async () => (await texts.allTextContents()).filter((x) => /^0\.0+[1-9]/.test(x)).length)
      .toBeGreaterThan(1);
    problems.push(...(await inspect('lca-odp')));
    expect(problems).toEqual([]);
    expect(flow.consoleErrors).toEqual([]);
  }, 300_000);

  it('Import: the Columns step of an ERP export (own German headers, suggested fields)', async () => {
    // a German ERP export as SAP writes it: Windows-1252, ";", a title row, its own headers and a comment column
    const file = path.join(flow.env.dir, 'MAT_2025-11.csv');
    const lines = [
      'Materialstamm Werk München – Stand 30.11.2025',
      'Materialnummer;Materialkurztext;Werk;Materialart;ME;LKW km;Bahn km;Recyclinganteil %;Kommentar',
      'E2E-M1;"Sand 0/2, gewaschen";PL-MUC;MAT-SAND;to;12,5;;30;geprüft',
      'E2E-M2;Kies 8/16 „grob“;PL-MUC;MAT-GRAVEL;kg;1.250,5;40;;',
    ];
    fs.writeFileSync(file, iconv.encode(lines.join('\r\n') + '\r\n', 'windows-1252'));
    // a fresh page: the Import screen starts at choosing a file
    await page.goto(flow.env.mode.url);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Import a workbook' }).waitFor();
    await flow.chooseFile('Choose workbook…', file);
    const card = page.getByRole('region', { name: 'MAT_2025-11.csv → supplier-products' });
    await card.getByText('Header in row 2').waitFor();
    await card
      .getByText(/suggested \(\d+ %\)/)
      .first()
      .waitFor();
    await page.getByRole('table', { name: 'First rows as they will be read' }).waitFor();
    const problems = await inspect('import-columns');
    expect(problems).toEqual([]);
    expect(flow.consoleErrors).toEqual([]);
  }, 300_000);
});
