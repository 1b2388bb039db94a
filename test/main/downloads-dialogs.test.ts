/**
 * Files the app made, taken away in the desktop app: the native save dialog (the file is copied where the
 * user says; cancelling copies nothing) and "open with the system's program" — through the real IPC
 * registration of the main process, driven with the fake electron module.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../core/app/services.js';
import { MemoryDocument } from '../../core/settings/json-file.js';
import type { ShellLike } from '../../electron/main/electron-api.js';
import { startMain } from '../../electron/main/main.js';
import { createFakeElectron } from './fake-electron.js';

const RENDERER = path.resolve('/opt/supply-loader/dist-renderer/index.html');
const APP_FRAME = { url: pathToFileURL(RENDERER).href };
const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-dl-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Reply = { ok: boolean; data?: Record<string, unknown>; error?: { code: string } };

describe('downloads in the desktop app', () => {
  it('saves with the native dialog, opens with the system, and refuses an unknown id', async () => {
    const electron = createFakeElectron();
    const saveAs: { next: string | null; calls: { defaultPath?: string }[] } = { next: null, calls: [] };
    const opened: string[] = [];
    electron.dialog.showSaveDialog = async (o) => {
      saveAs.calls.push({ defaultPath: o.defaultPath });
      return saveAs.next === null ? { canceled: true } : { canceled: false, filePath: saveAs.next };
    };
    const shell: ShellLike = electron.shell;
    shell.openPath = async (p: string) => {
      opened.push(p);
      return '';
    };
    const docs = { settings: new MemoryDocument(), secrets: new MemoryDocument() };
    const handle = await startMain({
      electron,
      document: (name) => docs[name],
      startSandbox: null,
      paths: { rendererIndex: RENDERER, preload: '/opt/preload.cjs' },
      log: quiet,
      platform: 'linux',
      argv: [],
      uploadRoot: tmp,
    });
    if (!handle) throw new Error('no main');
    try {
      const invoke = (name: string, input: unknown) =>
        electron.ipcMain.invoke(`supply-loader:rpc:${name}`, APP_FRAME, input) as Promise<Reply>;
      const bytes = Buffer.from('PK fake workbook bytes');
      const ticket = handle.services.sessions.downloads.registerBytes(bytes, 'onboarding-results.xlsx');

      // Cancelled: nothing written.
      const cancelled = await invoke('downloads.save', { downloadId: ticket.downloadId });
      expect(cancelled).toEqual({ ok: true, data: { supported: true, saved: false, fileName: null } });
      expect(saveAs.calls[0].defaultPath).toBe('onboarding-results.xlsx');

      const target = path.join(tmp, 'chosen name.xlsx');
      saveAs.next = target;
      const saved = await invoke('downloads.save', { downloadId: ticket.downloadId });
      expect(saved).toEqual({ ok: true, data: { supported: true, saved: true, fileName: 'chosen name.xlsx' } });
      expect(fs.readFileSync(target)).toEqual(bytes);

      const open = await invoke('downloads.open', { downloadId: ticket.downloadId });
      expect(open).toEqual({ ok: true, data: { supported: true, opened: true } });
      expect(opened).toHaveLength(1);
      expect(fs.readFileSync(opened[0])).toEqual(bytes);

      const unknown = await invoke('downloads.save', { downloadId: '00000000-0000-4000-8000-000000000000' });
      expect(unknown.ok).toBe(false);
      expect(unknown.error?.code).toBe('not_found');
      // A page that is not the app's gets nothing.
      const foreign = (await electron.ipcMain.invoke(
        'supply-loader:rpc:downloads.save',
        { url: 'https://evil.example/' },
        { downloadId: ticket.downloadId },
      )) as Reply;
      expect(foreign.error?.code).toBe('forbidden');
    } finally {
      await handle.shutdown();
    }
  });
});
