/**
 * The Content-Security-Policy of the renderer, in one place: the desktop app sets it as a response header
 * (session.webRequest) and the browser-mode server sends it with every page; renderer/index.html carries the
 * same policy as a meta tag (test/renderer/csp.test.ts keeps them equal). No inline scripts, no eval, no
 * remote origins: the UI talks only to its own origin (browser mode) or through the preload (desktop).
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** As a response header: frame-ancestors only works there (a meta tag ignores it). */
export const RENDERER_CSP_HEADER = `${RENDERER_CSP}; frame-ancestors 'none'`;
