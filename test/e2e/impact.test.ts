/**
 * E2E of a job's LCA impact on the embedded sandbox, in Chromium: the instances get LCA results first (past
 * production figures, a recompute on the LCA screen), then a workbook that changes a supplier product, a silo's
 * amount and a BOM mass is imported. The dry run shows the affected instances and the estimated change labelled
 * as an estimate; the job's results show the "LCA impact" panel: affected instances, the recompute button with
 * its request count and the daily limit note, then the before → after table and the waterfall of one change.
 * The panels and the update job's results table (its fields by their labels) are checked at 900 and 1280 px in
 * English and German: nothing sticks out sideways, no word split over two lines, no serious axe finding. Screenshots: test-artifacts/screenshots/impact-<view>-<lang>-<width>.png.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { flowSession, materialId, onboarding, pastProductionFigures } from './flow-helpers.js';
import { fullPageShot, screenshotPath } from './helpers.js';
import { axeViolations, horizontalOverflow, splitWords } from './layout-checks.js';

const flow = flowSession();
let page: Page;

beforeAll(() => {
  ({ page } = flow);
});

async function setLanguage(lang: 'en' | 'de') {
  await page.locator('header.topbar .prefs select').nth(0).selectOption(lang);
}

/** The screen at 900 and 1280 px in English and German: overflow, split words, axe; a screenshot of each. */
async function inspect(name: string, card: Locator): Promise<string[]> {
  const problems: string[] = [];
  for (const lang of ['en', 'de'] as const) {
    await setLanguage(lang);
    for (const width of [900, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const where = `${name} ${lang} ${width} px`;
      // the page scrolling sideways, and what sticks out or splits in this card (the job's own results above it
      // are another view's, checked by the every-screen walk)
      const text = (await card.textContent()) ?? '';
      for (const p of await horizontalOverflow(page))
        if (p.startsWith('the page') || text.includes(/"(.*)"/.exec(p)?.[1] ?? p))
          problems.push(`${where}: overflow: ${p}`);
      for (const p of await splitWords(page))
        if (text.includes(/ in "(.*)"$/.exec(p)?.[1] ?? p)) problems.push(`${where}: split word: ${p}`);
      for (const p of await axeViolations(page)) problems.push(`${where}: axe: ${p}`);
      await fullPageShot(page, screenshotPath(`impact-${name}-${lang}-${width}`));
      await card.screenshot({ path: screenshotPath(`impact-${name}-card-${lang}-${width}`) });
    }
  }
  await setLanguage('en');
  await page.setViewportSize({ width: 1280, height: 800 });
  return problems;
}

describe('what an import does to the LCA, in the app', () => {
  it('imports the onboarding workbook and computes the LCA of the instances', async () => {
    await page.goto(flow.env.mode.url);
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download onboarding workbook' }).click(),
    ]);
    await d.saveAs(flow.template);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const good = onboarding(flow.cat, materialId(flow.cat, 'MAT-SUPERPL'));
    await flow.chooseFile('Choose workbook…', await flow.workbook('onboarding.xlsx', good));
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('button', { name: /^Run the import/ }).click();
    await page.getByRole('heading', { name: 'Results of onboarding.xlsx' }).waitFor({ timeout: 60_000 });
    await pastProductionFigures(flow);
    await page.getByRole('button', { name: 'LCA', exact: true }).click();
    await page.getByRole('radio', { name: 'All', exact: true }).check();
    await page.getByRole('button', { name: 'Find instances' }).click();
    await page.getByText(/\d+ instances? found\./).waitFor();
    await page.getByRole('button', { name: 'Recompute and read results' }).click();
    await page.getByRole('heading', { name: 'Results as read in an EPD' }).waitFor({ timeout: 90_000 });
  }, 300_000);

  it('the dry run shows the affected instances and the estimate, labelled as one', async () => {
    const changed = onboarding(flow.cat, materialId(flow.cat, 'MAT-SUPERPL'));
    changed['supplier-products'][0].truck_km = 135;
    changed['silo-items'][1].amount = 1350;
    changed.bom[2].mass_kg = 120;
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const another = page.getByRole('button', { name: 'Import another workbook' });
    if (await another.isVisible()) await another.click();
    await flow.chooseFile('Choose workbook…', await flow.workbook('onboarding-changed.xlsx', changed));
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run of onboarding-changed.xlsx' }).waitFor();
    const card = page.locator('section[aria-labelledby="impact-dry-run"]');
    await card.getByText(/product instances? (is|are) affected/).waitFor({ timeout: 60_000 });
    await card.getByRole('heading', { name: /Estimated change/ }).waitFor();
    expect(await card.textContent()).toContain('not a result');
    expect(await card.textContent()).toMatch(/recompute \d+ instances? \(about \d+ requests\)/);
    const problems = await inspect('dry-run', card);
    expect(problems).toEqual([]);
  }, 300_000);

  it('the results panel recomputes and shows before → after and the attribution', async () => {
    await page.getByRole('button', { name: /^Run the import/ }).click();
    await page.getByRole('heading', { name: 'Results of onboarding-changed.xlsx' }).waitFor({ timeout: 60_000 });
    const card = page.locator('section.impact-panel');
    const recompute = card.getByRole('button', { name: /^Recompute \d+ instances? \(about \d+ requests\)$/ });
    await recompute.waitFor({ timeout: 60_000 });
    expect(await card.textContent()).toContain('daily request limit');
    const before = await inspect('results-before', card);
    // the job's results table: an update's fields by their labels, no word split, nothing sticking out
    const rows = page.locator('section.card').filter({ has: page.locator('.results-grid') });
    await rows.getByText(/Truck distance \(km\): .* → 135/).waitFor();
    expect(await rows.textContent()).not.toContain('transport_route.');
    const jobRows = await inspect('job-results', rows);
    // by keyboard, with a visible focus
    await recompute.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await recompute.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await recompute.evaluate((b) => getComputedStyle(b).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Enter');
    await card.getByRole('heading', { name: 'Before → after' }).waitFor({ timeout: 120_000 });
    const table = card.getByRole('region', { name: 'Before → after' });
    await table.locator('tbody tr').first().waitFor();
    await card.getByRole('heading', { name: 'What changed it' }).waitFor();
    const after = await inspect('results', card);
    expect([...jobRows, ...before, ...after]).toEqual([]);
    // the same panel from the Jobs screen
    await page.getByRole('button', { name: 'Jobs', exact: true }).click();
    await page
      .getByRole('button', { name: /^Report of job / })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Results of onboarding-changed.xlsx' }).waitFor();
    await card.getByRole('heading', { name: 'Before → after' }).waitFor();
    await flow.shot('impact-jobs-en');
    expect(flow.consoleErrors).toEqual([]);
  }, 300_000);
});
