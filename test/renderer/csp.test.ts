/** The CSP meta tag of renderer/index.html is the same policy the shell and browser mode send as a header. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RENDERER_CSP, RENDERER_CSP_HEADER } from '../../core/ipc/csp.js';

describe('renderer CSP', () => {
  const html = fs.readFileSync(new URL('../../renderer/index.html', import.meta.url), 'utf8');

  it('index.html carries the shared policy', () => {
    const m = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
    expect(m?.[1]).toBe(RENDERER_CSP);
  });

  it('allows no inline or remote script, no eval, no framing', () => {
    const script = RENDERER_CSP.split('; ').find((d) => d.startsWith('script-src'));
    expect(script).toBe("script-src 'self'");
    expect(RENDERER_CSP).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    expect(RENDERER_CSP_HEADER).toContain("frame-ancestors 'none'");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});
