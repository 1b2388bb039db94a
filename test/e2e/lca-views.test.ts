/**
 * E2E of the LCA screen's new views against the embedded sandbox (demo data), in Chromium: results per
 * declared unit (default) and as totals, any indicator, hotspots (top 10 + rest, with names and suppliers) and
 * trend; the blocker "no production data for YEAR" → "Enter it here" → write → recompute → the year is
 * computed. Screenshots light/dark, English/German in test-artifacts/screenshots/ (lca-views-*.png).
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { E2eEnv } from './helpers.js';
import { fullPageShot, reportFailure, screenshotPath, startE2e } from './helpers.js';

let env: E2eEnv;
let page: Page;
const consoleErrors: string[] = [];

async function shot(name: string) {
  await fullPageShot(page, screenshotPath(name));
}

beforeAll(async () => {
  env = await startE2e();
  page = await env.context.newPage();
  page.setDefaultTimeout(30_000);
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
}, 180_000);

afterEach((ctx) => reportFailure(ctx, page, env, 'lca-views-'));

afterAll(async () => {
  await env?.close();
});

describe('LCA views', () => {
  it('per declared unit by default, totals on request, any indicator, hotspots and trend', async () => {
    await page.goto(env.mode.url);
    await page.getByRole('button', { name: 'LCA', exact: true }).click();
    await page.getByRole('heading', { name: 'Choose product instances' }).waitFor();
    await page.getByText('All', { exact: true }).click();
    await page.getByRole('button', { name: 'Find instances' }).click();
    await page.getByText(/\d+ instances? found\./).waitFor();
    await page.getByRole('button', { name: 'Recompute and read results' }).click();
    await page.getByRole('heading', { name: 'Results as read in an EPD' }).waitFor();
    const card = page.locator('section[aria-labelledby="lca-analysis-heading"]');
    await expect.poll(() => card.textContent()).toMatch(/kg CO2 eq\. per (t|m³)/);
    // one declared unit on the axis at a time: the selection has several, so a choice of the unit
    const unitChoice = card.getByRole('combobox', { name: /^Declared unit/ });
    await unitChoice.waitFor();
    const options = await unitChoice.locator('option').allTextContents();
    expect(options.length).toBeGreaterThan(1);
    for (const o of options) expect(o).toMatch(/^per \S+ \(\d+ instances?\)$/);
    const axis = card.locator('p.chart-axis-unit').first();
    const axisText = (await axis.textContent()) ?? '';
    expect(axisText).toMatch(/^kg CO2 eq\. per [^,\s]+$/);
    const chosen = /per (\S+)$/.exec(axisText)![1];
    expect(options[0]).toContain(`per ${chosen} `);
    // the instances of the other units are named, with their unit
    const hidden = card.locator('.lca-hidden-units');
    await expect.poll(() => hidden.textContent()).toContain('never compared on one axis');
    const hiddenItems = await hidden.locator('li').allTextContents();
    expect(hiddenItems.length).toBeGreaterThan(0);
    for (const h of hiddenItems) {
      expect(h).toMatch(/— per (\S+): shown under \1$/);
      expect(h).not.toContain(`per ${chosen}:`);
    }
    // another unit chosen: the axis shows that unit alone
    const other = /^per (\S+) /.exec(options[1])![1];
    await unitChoice.selectOption({ index: 1 });
    await expect.poll(() => axis.textContent()).toBe(`kg CO2 eq. per ${other}`);
    await shot('lca-views-en-light-per-unit-other');
    await unitChoice.selectOption({ index: 0 });
    await expect.poll(() => axis.textContent()).toBe(axisText);
    await card.locator('ol.hotspot-bars li').first().waitFor();
    const hot = (await card.locator('ol.hotspot-bars').textContent()) ?? '';
    expect(hot).toMatch(/%/);
    expect(await card.locator('table.data').first().locator('tbody tr').count()).toBeGreaterThan(0);
    await expect.poll(() => card.textContent()).toContain('Trend against the previous computed year');
    await shot('lca-views-en-light-per-unit');

    await card.getByText('Annual totals', { exact: true }).click();
    await card.getByLabel('Indicator').selectOption('ADPF');
    await expect.poll(() => card.textContent()).toContain('Abiotic depletion potential for fossil resources');
    await expect.poll(() => card.locator('p.chart-axis-unit').first().textContent()).toBe('MJ');
    await shot('lca-views-en-light-totals-adpf');
  });

  it('"Enter it here" writes the missing production figure, recomputes, and the year is computed', async () => {
    const blockers = page.locator('ul.blockers');
    const item = blockers.locator('li.needs-action').filter({ hasText: 'no production data for' }).first();
    await item.waitFor();
    const text = (await item.textContent()) ?? '';
    const m = /(\S+) · (\d{4}): no production data for \d{4}/.exec(text);
    expect(m).not.toBeNull();
    const [, code, year] = m!;
    await item.getByRole('button', { name: 'Enter it here' }).click();
    // the input names the product's declared unit ("t", "m³"), not "the product's unit"
    const input = item.getByRole('textbox', { name: new RegExp(`^Production quantity ${year} \\([^)]+\\)$`) });
    await input.waitFor();
    expect(await item.locator('form label').textContent()).not.toContain('product’s unit');
    await input.fill('4321');
    await shot('lca-views-en-light-enter-here');
    await item.getByRole('button', { name: 'Write and recompute' }).click();
    await expect
      .poll(
        async () =>
          (await blockers.count()) === 0 ||
          !((await blockers.textContent()) ?? '').includes(`${code} · ${year}: no production data`),
        {
          timeout: 30_000,
        },
      )
      .toBe(true);
    await page.getByRole('heading', { name: 'Results as read in an EPD' }).waitFor();
  });

  it('reads in German and dark colours', async () => {
    await page.getByLabel('Language').selectOption('de');
    await page.getByLabel('Farben').selectOption('dark');
    await page.getByRole('heading', { name: 'Ergebnisse wie in einer EPD gelesen' }).waitFor();
    const card = page.locator('section[aria-labelledby="lca-analysis-heading"]');
    await expect.poll(() => card.textContent()).toContain('Je deklarierter Einheit');
    await card.locator('label.segment').filter({ hasText: 'Je deklarierter Einheit' }).click();
    await expect
      .poll(() =>
        card
          .getByRole('combobox', { name: /^Deklarierte Einheit/ })
          .locator('option')
          .count(),
      )
      .toBeGreaterThan(1);
    await expect
      .poll(() => card.locator('p.chart-axis-unit').first().textContent())
      .toMatch(/^kg CO2-Äq\. je [^,\s]+$/);
    await shot('lca-views-de-dark');
    await page.getByLabel('Sprache').selectOption('en');
    await page.getByRole('heading', { name: 'Results as read in an EPD' }).waitFor();
    await shot('lca-views-en-dark');
    await page.getByLabel('Colours').selectOption('light');
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('heading', { name: 'Ergebnisse wie in einer EPD gelesen' }).waitFor();
    await shot('lca-views-de-light');
    expect(consoleErrors).toEqual([]);
  });

  // Element shots, to be read: the charts' hover texts, titles and axes in both languages at both widths.
  it('charts, hover texts and blockers at 900 and 1280 px, in English and German', async () => {
    const card = page.locator('section[aria-labelledby="lca-analysis-heading"]');
    for (const width of [900, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const locale of ['en', 'de'] as const) {
        await page
          .getByLabel(locale === 'en' ? 'Sprache' : 'Language')
          .or(page.getByLabel(locale === 'en' ? 'Language' : 'Sprache'))
          .first()
          .selectOption(locale);
        await card.waitFor();
        const charts = card.locator('figure.chart');
        for (let i = 0; i < Math.min(await charts.count(), 3); i++) {
          const fig = charts.nth(i);
          await fig.scrollIntoViewIfNeeded();
          await fig.screenshot({ path: screenshotPath(`lca-el-${width}-${locale}-chart${i}`) });
          const dot = fig.locator('.recharts-line-dots circle, .recharts-dot').first();
          if (await dot.count()) {
            await dot.hover({ force: true });
            const tip = fig.locator('.recharts-default-tooltip');
            await expect.poll(() => tip.isVisible()).toBe(true);
            await fig.screenshot({ path: screenshotPath(`lca-el-${width}-${locale}-chart${i}-hover`) });
            // the hover text stays inside the chart (long names wrap) and reads "name: value"
            const [tb, fb] = [(await tip.boundingBox())!, (await fig.boundingBox())!];
            expect(tb.x + tb.width).toBeLessThanOrEqual(fb.x + fb.width + 1);
            expect(await tip.textContent()).not.toContain(' : ');
          }
        }
        // the card in slices one screen high, each readable
        await card.scrollIntoViewIfNeeded();
        const box = (await card.boundingBox())!;
        const top = box.y + (await page.evaluate(() => window.scrollY));
        for (let y = 0, n = 0; y < box.height; y += 700, n++)
          await page.screenshot({
            path: screenshotPath(`lca-el-${width}-${locale}-card${n}`),
            fullPage: true,
            clip: { x: box.x, y: top + y, width: box.width, height: Math.min(700, box.height - y) },
          });
        const blockers = page.locator('ul.blockers');
        if (await blockers.count())
          await blockers.first().screenshot({ path: screenshotPath(`lca-el-${width}-${locale}-blockers`) });
      }
    }
    await page.getByLabel('Sprache').or(page.getByLabel('Language')).first().selectOption('en');
  });
});
