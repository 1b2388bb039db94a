/**
 * Checks of a rendered screen that every E2E walk can run: horizontal overflow (the page and any element that
 * is not a deliberate scroll container), words split across lines ("Materialnumme|r", "85 |%"), and an
 * axe-core accessibility check (WCAG 2.1 A/AA rules; serious and critical violations).
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = (require('axe-core') as { source: string }).source;

/**
 * What sticks out sideways: the page itself (a horizontal scrollbar), and every visible element whose content is
 * wider than its box, unless it scrolls on purpose (overflow-x auto or scroll). Described by tag, class and text.
 */
export function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollWidth > root.clientWidth)
      out.push(`the page scrolls sideways: ${root.scrollWidth} px in ${root.clientWidth} px`);
    const describe = (el: Element) =>
      `<${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? ` class="${el.className}"` : ''}> "${(el.textContent ?? '').trim().slice(0, 50)}"`;
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (el instanceof SVGElement || el.closest('svg')) continue;
      if (el.clientWidth === 0 || el.offsetParent === null) continue;
      const st = getComputedStyle(el);
      if (st.overflowX === 'auto' || st.overflowX === 'scroll') continue;
      // a visually hidden element (skip link, screen-reader text) is clipped on purpose
      if (st.position === 'absolute' && (el.clientWidth <= 1 || st.clip !== 'auto')) continue;
      if (el.scrollWidth > el.clientWidth + 1)
        out.push(`${describe(el)}: content ${el.scrollWidth} px in ${el.clientWidth} px`);
    }
    return out;
  });
}

/**
 * Words that the layout split over two lines: each word of each visible text (a break after a hyphen or a slash
 * is allowed; a number and its "%" or unit count as one word) must sit on one line.
 */
export function splitWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? '';
      const parent = n.parentElement;
      if (!parent || text.trim().length < 2 || parent.closest('svg, script, style, option, select')) continue;
      if (parent.offsetParent === null && getComputedStyle(parent).position !== 'fixed') continue;
      // words and "85 %" / "3.3 %": whitespace separates, except before a percent sign
      const word = /(\S+(?:[ \u00a0]%)?)/g;
      for (let m = word.exec(text); m; m = word.exec(text)) {
        // parts between allowed break points: after a hyphen, a slash, an arrow
        let start = m.index;
        for (const part of m[0].split(/(?<=[-/‐–—→])/)) {
          if (part.length >= 2) {
            range.setStart(n, start);
            range.setEnd(n, start + part.length);
            const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (tops.size > 1) out.add(`"${part}" in "${text.trim().slice(0, 60)}"`);
          }
          start += part.length;
        }
      }
    }
    return [...out];
  });
}

/** axe-core with the WCAG 2.0/2.1 A and AA rules: the serious and critical violations, with where they are. */
export async function axeViolations(page: Page): Promise<string[]> {
  // evaluated over the DevTools protocol: the app's CSP (script-src 'self') refuses an inline script tag
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) =>
        v.nodes
          .slice(0, 5)
          .map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1] ?? ''}`),
      );
  });
}
