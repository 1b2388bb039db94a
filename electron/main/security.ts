/**
 * Security settings of the shell, in one place so a test can assert them: window preferences, navigation and
 * window.open guards, vetting of external links, the sender check for IPC, permissions and CSP.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RENDERER_CSP_HEADER } from '../../core/ipc/csp.js';
import type { SessionLike, ShellLike, WebContentsLike, WebPreferencesLike } from './electron-api.js';

export function secureWebPreferences(preload: string): WebPreferencesLike {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

/** The only sites a link in the app may open, in the system browser, over https. */
export const EXTERNAL_HOST_ALLOWLIST: readonly string[] = ['github.com'];

export function isVettedExternalUrl(raw: string, allow: readonly string[] = EXTERNAL_HOST_ALLOWLIST): boolean {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username !== '' || u.password !== '' || u.port !== '') return false;
  return allow.includes(u.hostname.toLowerCase());
}

/** Open a URL in the system browser only when it is vetted; returns whether it was opened. */
export function openExternalIfVetted(shell: ShellLike, url: string): boolean {
  if (!isVettedExternalUrl(url)) return false;
  void shell.openExternal(url);
  return true;
}

/**
 * Where the renderer is loaded from. Only frames showing exactly this (the packaged index.html, or the dev
 * server's origin during development) may call the contract.
 */
export interface RendererLocation {
  /** absolute path of dist-renderer/index.html */
  file: string;
  /** e.g. http://localhost:5173 while developing with the Vite dev server */
  devUrl?: string;
}

export function isTrustedSenderUrl(frameUrl: string, loc: RendererLocation): boolean {
  let u: URL;
  try {
    u = new URL(frameUrl);
  } catch {
    return false;
  }
  if (u.protocol === 'file:') {
    try {
      const a = path.resolve(fileURLToPath(u));
      const b = path.resolve(loc.file);
      // Windows paths are case-insensitive (and drive letters come in either case).
      return process.platform === 'win32' ? a.toLowerCase() === b.toLowerCase() : a === b;
    } catch {
      return false;
    }
  }
  if (loc.devUrl && (u.protocol === 'http:' || u.protocol === 'https:')) {
    return u.origin === new URL(loc.devUrl).origin;
  }
  return false;
}

/**
 * No navigation away from the app and no new windows: a link to a vetted https site opens in the system
 * browser, anything else is dropped.
 */
const guarded = new WeakSet<WebContentsLike>();

export function guardWebContents(
  contents: WebContentsLike,
  shell: ShellLike,
  log?: (msg: string, url: string) => void,
): void {
  // The window guards its contents itself and app 'web-contents-created' guards any other: never twice (a
  // vetted link would open twice).
  if (guarded.has(contents)) return;
  guarded.add(contents);
  contents.setWindowOpenHandler(({ url }) => {
    if (!openExternalIfVetted(shell, url)) log?.('window.open refused', url);
    return { action: 'deny' };
  });
  const stop = (event: { preventDefault(): void }, url: string) => {
    event.preventDefault();
    if (!openExternalIfVetted(shell, url)) log?.('navigation refused', url);
  };
  contents.on('will-navigate', stop);
  contents.on('will-redirect', stop);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** No permission (camera, notifications, geolocation, …) is ever granted; CSP on every response. */
export function hardenSession(session: SessionLike): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers: Record<string, string[] | string> = { ...(details.responseHeaders ?? {}) };
    for (const k of Object.keys(headers)) if (k.toLowerCase() === 'content-security-policy') delete headers[k];
    headers['Content-Security-Policy'] = [RENDERER_CSP_HEADER];
    callback({ responseHeaders: headers });
  });
}
