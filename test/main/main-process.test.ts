/**
 * The Electron main process driven with a fake electron module: window options, navigation and window.open
 * guards, openExternal vetting, IPC registration with the sender check and zod validation, safeStorage use,
 * the basic_text warning, CSP and permissions.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PROCEDURE_NAMES, procedureChannel } from '../../core/contract/names.js';
import type { Logger } from '../../core/app/services.js';
import { MemoryDocument } from '../../core/settings/json-file.js';
import type { MainHandle } from '../../electron/main/main.js';
import { startMain } from '../../electron/main/main.js';
import { isVettedExternalUrl } from '../../electron/main/security.js';
import { startSandbox } from '../../sandbox/index.js';
import type { FakeSafeStorageOptions } from './fake-electron.js';
import { createFakeElectron, FakeBrowserWindow, FakeWebContents } from './fake-electron.js';

const RENDERER = path.resolve('/opt/supply-loader/dist-renderer/index.html');
const PRELOAD = path.resolve('/opt/supply-loader/dist-electron/preload/index.cjs');
const APP_FRAME = { url: pathToFileURL(RENDERER).href };

interface LogEntry {
  level: string;
  obj: object;
  msg?: string;
}

function captureLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void entries.push({ level, obj, msg });
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}

let handles: MainHandle[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-main-'));
afterEach(async () => {
  for (const h of handles) await h.shutdown();
  handles = [];
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function boot(
  opts: { safeStorage?: FakeSafeStorageOptions; withSandbox?: boolean; devUrl?: string; argv?: string[] } = {},
) {
  const electron = createFakeElectron({ safeStorage: opts.safeStorage });
  const docs = { settings: new MemoryDocument(), secrets: new MemoryDocument() };
  const log = captureLogger();
  const handle = await startMain({
    electron,
    document: (name) => docs[name],
    startSandbox: opts.withSandbox ? startSandbox : null,
    paths: { rendererIndex: RENDERER, preload: PRELOAD },
    devUrl: opts.devUrl,
    log,
    platform: 'linux',
    argv: opts.argv ?? [],
    uploadRoot: tmp,
  });
  if (!handle) throw new Error('startMain returned null');
  handles.push(handle);
  const invoke = (name: string, input: unknown, frame: { url: string; parent?: unknown } | null = APP_FRAME) =>
    electron.ipcMain.invoke(`supply-loader:rpc:${name}`, frame, input) as Promise<{
      ok: boolean;
      data?: unknown;
      error?: { code: string; message: string };
    }>;
  return { electron, docs, log, handle, invoke };
}

describe('main window', () => {
  it('is created with isolated, sandboxed, node-free web preferences and loads the built renderer', async () => {
    const { electron } = await boot();
    expect(FakeBrowserWindow.instances).toHaveLength(1);
    const win = FakeBrowserWindow.instances[0];
    expect(win.options.webPreferences).toMatchObject({
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(win.options.width).toBeGreaterThanOrEqual(1280);
    expect(win.options.height).toBeGreaterThanOrEqual(800);
    expect(win.loadedFile).toBe(RENDERER);
    expect(win.shown).toBe(true);
    expect(electron.menu.set).toBe(true);
  });

  it('blocks every navigation and window.open; only vetted https links go to the system browser', async () => {
    const { electron } = await boot();
    const wc = FakeBrowserWindow.instances[0].webContents;
    expect(wc.fire('will-navigate', 'https://evil.example/phish')).toBe(true);
    expect(wc.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(wc.fire('will-redirect', 'http://127.0.0.1:1/')).toBe(true);
    expect(wc.fire('will-attach-webview')).toBe(true);
    expect(wc.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(wc.windowOpenHandler?.({ url: 'http://github.com/' })).toEqual({ action: 'deny' });
    expect(wc.windowOpenHandler?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(electron.shell.opened).toEqual([]);
    expect(wc.windowOpenHandler?.({ url: 'https://github.com/some/page' })).toEqual({ action: 'deny' });
    expect(wc.fire('will-navigate', 'https://github.com/other')).toBe(true);
    expect(electron.shell.opened).toEqual(['https://github.com/some/page', 'https://github.com/other']);
  });

  it('guards web contents created later too, and never twice', async () => {
    const { electron } = await boot();
    const wc = FakeBrowserWindow.instances[0].webContents;
    electron.app.emit('web-contents-created', {}, wc); // Electron fires it for the window's own contents too
    expect(wc.listeners.get('will-navigate')).toHaveLength(1);
    wc.fire('will-navigate', 'https://github.com/once');
    expect(electron.shell.opened).toEqual(['https://github.com/once']);
    const other = new FakeWebContents();
    electron.app.emit('web-contents-created', {}, other);
    expect(other.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(other.fire('will-attach-webview')).toBe(true);
    expect(other.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
  });

  it('vets external URLs: https only, allowlisted host, no credentials or port', () => {
    expect(isVettedExternalUrl('https://github.com/x')).toBe(true);
    expect(isVettedExternalUrl('http://github.com/x')).toBe(false);
    expect(isVettedExternalUrl('https://github.com.evil.example/x')).toBe(false);
    expect(isVettedExternalUrl('https://user:pw@github.com/')).toBe(false);
    expect(isVettedExternalUrl('https://github.com:8443/')).toBe(false);
    expect(isVettedExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isVettedExternalUrl('not a url')).toBe(false);
  });

  it('denies all permission requests and sets the CSP header on responses', async () => {
    const { electron } = await boot();
    const session = electron.session.defaultSession;
    const granted: boolean[] = [];
    session.permissionRequest?.(null, 'media', (g) => granted.push(g));
    session.permissionRequest?.(null, 'notifications', (g) => granted.push(g));
    expect(granted).toEqual([false, false]);
    expect(session.permissionCheck?.(null, 'clipboard-read')).toBe(false);
    let headers: Record<string, string[] | string> | undefined;
    session.headersListener?.(
      { url: 'file:///x', responseHeaders: { 'content-security-policy': ['default-src *'] } },
      (r) => (headers = r.responseHeaders),
    );
    expect(headers?.['content-security-policy']).toBeUndefined();
    expect(String(headers?.['Content-Security-Policy'])).toContain("script-src 'self'");
    expect(String(headers?.['Content-Security-Policy'])).toContain("frame-ancestors 'none'");
  });

  it('quits when another instance already runs', async () => {
    const electron = createFakeElectron();
    electron.app.singleInstance = false;
    const h = await startMain({
      electron,
      document: () => new MemoryDocument(),
      startSandbox: null,
      paths: { rendererIndex: RENDERER, preload: PRELOAD },
      log: captureLogger(),
    });
    expect(h).toBeNull();
    expect(electron.app.quitCalled).toBe(true);
    expect(FakeBrowserWindow.instances).toHaveLength(0);
  });
});

describe('IPC', () => {
  it('registers exactly one handler per contract procedure and no other channel', async () => {
    const { electron } = await boot();
    expect([...electron.ipcMain.handlers.keys()].sort()).toEqual(PROCEDURE_NAMES.map(procedureChannel).sort());
  });

  it('answers the app window and refuses other senders', async () => {
    const { invoke, log } = await boot({ devUrl: 'http://localhost:5173' });
    expect((await invoke('app.info', {})).ok).toBe(true);
    expect((await invoke('app.info', {}, { url: 'http://localhost:5173/#/templates' })).ok).toBe(true);
    for (const frame of [
      { url: 'https://evil.example/' },
      { url: 'file:///tmp/other.html' },
      { url: 'http://localhost:5174/' },
      { url: APP_FRAME.url, parent: { url: APP_FRAME.url } }, // an embedded frame
      null, // the frame is gone
    ]) {
      const r = await invoke('profiles.list', {}, frame);
      expect(r.ok).toBe(false);
      expect(r.error?.code).toBe('forbidden');
    }
    expect(log.entries.filter((e) => e.msg === 'IPC from an untrusted frame refused')).toHaveLength(5);
  });

  it('rejects input that does not match the contract, in words', async () => {
    const { invoke } = await boot();
    const extra = await invoke('settings.update', { language: 'de', evil: true });
    expect(extra.ok).toBe(false);
    expect(extra.error?.code).toBe('invalid_input');
    const wrong = await invoke('settings.update', { language: 'klingon' });
    expect(wrong.error?.code).toBe('invalid_input');
    const badKey = await invoke('profiles.save', {
      name: 'Prod',
      baseUrl: 'https://api.example.com',
      apiKey: 'not-a-key',
    });
    expect(badKey.error?.code).toBe('invalid_input');
    expect(JSON.stringify(badKey)).not.toContain('not-a-key');
    const ok = await invoke('settings.update', { language: 'de' });
    expect(ok).toEqual({ ok: true, data: { language: 'de', theme: 'system' } });
  });

  it('forwards events to the window on their own channel', async () => {
    const { invoke } = await boot();
    const wc = FakeBrowserWindow.instances[0].webContents;
    await invoke('profiles.save', { name: 'Prod', baseUrl: 'https://api.example.com' });
    const sent = wc.sent.filter((s) => s.channel === 'supply-loader:event:profiles.changed');
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(sent.at(-1)?.args[0])).toContain('Prod');
  });
});

describe('keys and safeStorage', () => {
  const KEY = 'svc-abc123-S3cretS3cretS3cret';

  it('encrypts keys with the async safeStorage API and never returns them to the renderer', async () => {
    const { invoke, electron, docs } = await boot();
    const saved = await invoke('profiles.save', { name: 'Prod', baseUrl: 'https://api.example.com/', apiKey: KEY });
    expect(saved.ok).toBe(true);
    expect(saved.data).toMatchObject({
      name: 'Prod',
      baseUrl: 'https://api.example.com',
      hasKey: true,
      maskedKey: 'svc-abc123-****',
    });
    expect(electron.safeStorage.calls).toContain('encryptStringAsync');
    expect(electron.safeStorage.calls).not.toContain('encryptString');
    const stored = JSON.stringify(docs.secrets.load());
    expect(stored).not.toContain('S3cretS3cret');
    expect(JSON.stringify(docs.settings.load())).not.toContain('S3cret');
    const list = await invoke('profiles.list', {});
    expect(JSON.stringify(list)).not.toContain('S3cret');
    // The main side can still read it back (for the client).
    const profileId = (saved.data as { profileId: string }).profileId;
    await expect(handles[0].services.secrets.get(profileId)).resolves.toBe(KEY);
  });

  it('falls back to encryptString when the async API is missing', async () => {
    const { invoke, electron } = await boot({ safeStorage: { async: false } });
    expect((await invoke('profiles.save', { name: 'P', baseUrl: 'https://a.example', apiKey: KEY })).ok).toBe(true);
    expect(electron.safeStorage.calls).toEqual(['encryptString']);
  });

  it('warns (log and app.info) when Linux uses the basic_text backend', async () => {
    const { invoke, log } = await boot({ safeStorage: { backend: 'basic_text' } });
    expect(log.entries.some((e) => e.level === 'warn' && /obfuscated/.test(e.msg ?? ''))).toBe(true);
    const info = await invoke('app.info', {});
    expect(info.data).toMatchObject({ mode: 'electron', secretStorage: { encrypted: false, warning: 'basic_text' } });
  });

  it('does not warn with a real keychain backend', async () => {
    const { invoke, log } = await boot({ safeStorage: { backend: 'gnome_libsecret' } });
    expect(log.entries.filter((e) => e.level === 'warn')).toEqual([]);
    expect((await invoke('app.info', {})).data).toMatchObject({ secretStorage: { encrypted: true, warning: null } });
  });

  it('refuses to store a key when no encryption is available', async () => {
    const { invoke, docs } = await boot({ safeStorage: { available: false } });
    const r = await invoke('profiles.save', { name: 'P', baseUrl: 'https://a.example', apiKey: KEY });
    expect(r.ok).toBe(false);
    expect(r.error?.code).toBe('unavailable');
    expect(JSON.stringify(docs.secrets.load() ?? {})).not.toContain('S3cret');
  });
});

describe('embedded sandbox', () => {
  it('starts for the built-in Sandbox profile on first start; its key stays in main', async () => {
    const { invoke, handle } = await boot({ withSandbox: true });
    await handle.services.sandbox.start();
    const status = await invoke('sandbox.status', {});
    expect(status.data).toMatchObject({ state: 'running' });
    const list = (await invoke('profiles.list', {})) as {
      data: { activeProfileId: string; profiles: { builtIn: boolean; maskedKey: string; baseUrl: string }[] };
    };
    expect(list.data.activeProfileId).toBe('sandbox');
    const sb = list.data.profiles.find((p) => p.builtIn);
    expect(sb?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb?.maskedKey).toMatch(/^svc-[A-Za-z0-9]+-\*\*\*\*$/);
    const ownerKey = handle.services.sandbox.ownerKey() ?? '';
    expect(ownerKey.length).toBeGreaterThan(10);
    expect(JSON.stringify(list)).not.toContain(ownerKey);
    expect(JSON.stringify(status)).not.toContain(ownerKey);
  });
});

describe('workbooks handed to the app', () => {
  const workbook = () => {
    const p = path.join(tmp, `in-${Math.random().toString(36).slice(2)}.xlsx`);
    fs.writeFileSync(p, 'PK fake');
    return p;
  };

  it('picks a workbook with the native dialog (workbook, legacy workbook and CSV filter) and gives the page only an opaque id', async () => {
    const { electron, invoke, handle } = await boot();
    const file = workbook();
    electron.openDialog.next = file;
    const r = (await invoke('files.pickWorkbook', {})) as {
      ok: boolean;
      data: { supported: boolean; file: { fileId: string; name: string; size: number } };
    };
    expect(r.data.supported).toBe(true);
    expect(r.data.file).toMatchObject({ name: path.basename(file), size: 7 });
    expect(JSON.stringify(r)).not.toContain(tmp);
    expect(handle.services.files.path(r.data.file.fileId)).toBe(file);
    expect(electron.openDialog.calls[0].filters).toEqual([
      { name: 'Excel workbook or CSV', extensions: ['xlsx', 'xlsm', 'xls', 'ods', 'csv', 'txt', 'tsv'] },
    ]);
    electron.openDialog.next = null;
    expect(((await invoke('files.pickWorkbook', {})) as { data: unknown }).data).toEqual({
      supported: true,
      file: null,
      files: [],
    });
  });

  it('takes workbooks the OS opened with the app: at start (argv), from a second instance and via open-file', async () => {
    const first = workbook();
    const { electron, invoke } = await boot({ argv: ['--inspect=0', first, 'notes.txt'] });
    const taken1 = (await invoke('files.takeOpened', {})) as { data: { files: { name: string }[] } };
    expect(taken1.data.files.map((f) => f.name)).toEqual([path.basename(first)]);
    expect(((await invoke('files.takeOpened', {})) as { data: { files: unknown[] } }).data.files).toEqual([]);

    const second = workbook();
    electron.app.emit('second-instance', {}, ['/usr/bin/supply-loader', second]);
    const mac = workbook();
    let prevented = false;
    electron.app.emit('open-file', { preventDefault: () => (prevented = true) }, mac);
    expect(prevented).toBe(true);
    const wc = FakeBrowserWindow.instances[0].webContents;
    const opened = wc.sent
      .filter((s) => s.channel === 'supply-loader:event:files.opened')
      .map((s) => (s.args[0] as { name: string }).name);
    expect(opened).toEqual([path.basename(second), path.basename(mac)]);
    const taken2 = (await invoke('files.takeOpened', {})) as { data: { files: { name: string }[] } };
    expect(taken2.data.files.map((f) => f.name)).toEqual([path.basename(second), path.basename(mac)]);
  });
});
