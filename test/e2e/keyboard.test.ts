/**
 * The whole import with the keyboard alone: Templates (download the onboarding workbook) → Import (choose the
 * filled workbook) → Check → Dry run → Run → Results, reaching every control with Tab and pressing it with Enter
 * or Space, never the mouse. Every control the focus passes on its way shows that it has the focus (an outline
 * or a ring, `:focus-visible`).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { flowSession, onboarding, WRONG_ID } from './flow-helpers.js';
import { fullPageShot, screenshotPath } from './helpers.js';

const flow = flowSession();
let page: Page;

beforeAll(() => {
  ({ page } = flow);
});

/** The focused element: its accessible name as a user reads it, and whether its focus can be seen. */
function focused(): Promise<{ name: string; visible: boolean; html: string } | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const st = getComputedStyle(el);
    const ring =
      (st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) > 0) ||
      (st.boxShadow !== 'none' && st.boxShadow !== '');
    return {
      name: (el.getAttribute('aria-label') || el.innerText || (el as HTMLInputElement).value || '').trim(),
      visible: el.matches(':focus-visible') && ring,
      html: el.outerHTML.slice(0, 80),
    };
  });
}

const unseen: string[] = [];

/** Tab forward until the control named `name` has the focus (at most 120 steps); every stop must show its focus. */
async function tabTo(name: string | RegExp): Promise<void> {
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press('Tab');
    const f = await focused();
    if (!f) continue;
    if (!f.visible) unseen.push(f.html);
    if (typeof name === 'string' ? f.name === name : name.test(f.name)) return;
  }
  throw new Error(`the focus never reached "${String(name)}" with Tab`);
}

describe('the import with the keyboard alone', () => {
  it('template → check → dry run → run → results, every focus visible', async () => {
    await page.goto(flow.env.mode.url);
    await page.getByRole('heading', { level: 1, name: 'Connection' }).waitFor();
    await tabTo('Templates');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
    await tabTo('Download onboarding workbook');
    const [d] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    await d.saveAs(flow.template);
    const file = await flow.workbook('onboarding.xlsx', onboarding(flow.cat, WRONG_ID));

    // back up to the navigation: Shift+Tab from the page's controls
    await page.keyboard.press('Shift+Tab');
    await tabTo('Import');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Import a workbook' }).waitFor();
    await tabTo('Choose workbook…');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
    await chooser.setFiles(file);
    await page
      .getByText('No problems found in 21 data rows and 3 reference rows (plant and material codes).')
      .waitFor();
    await fullPageShot(page, screenshotPath('keyboard-check'));
    await tabTo('Make the dry run');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Dry run of onboarding.xlsx' }).waitFor();
    await tabTo('Run the import (14 to write)');
    await fullPageShot(page, screenshotPath('keyboard-dry-run-focus-on-run'));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Results of onboarding.xlsx' }).waitFor({ timeout: 30_000 });
    await page.getByText('Completed with problems: 12 succeeded, 1 failed, 1 skipped.').waitFor({ timeout: 30_000 });
    await tabTo('Download results workbook');
    const [results] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(results.suggestedFilename()).toBe('onboarding-results.xlsx');
    await fullPageShot(page, screenshotPath('keyboard-results'));
    expect(unseen).toEqual([]);
    expect(flow.consoleErrors).toEqual([]);
  });
});
