/**
 * Profiles shared by the desktop app and the CLI: the app (main process, fake electron) and the CLI
 * use one config dir and one key store, so a connection set up in the app is usable by `--profile NAME` in a
 * scheduled CLI run, and one added by `supply-loader profile add` is offered by the app with its key.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonFile } from '../../core/settings/json-file.js';
import { openSecretStore } from '../../core/settings/keychain.js';
import { startMain, type MainHandle } from '../../electron/main/main.js';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { cliRunners } from '../fixtures/cli-process.js';
import { createFakeElectron } from './fake-electron.js';

const RENDERER = path.resolve('/opt/supply-loader/dist-renderer/index.html');
const PRELOAD = path.resolve('/opt/supply-loader/dist-electron/preload/index.cjs');
const APP_FRAME = { url: pathToFileURL(RENDERER).href };
const silent = { info: () => {}, warn: () => {}, error: () => {} };

let sb: RunningSandbox;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-shared-'));
const { cli } = cliRunners('sl-shared-never');
beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
});
afterAll(async () => {
  await sb.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The app as index.ts starts it: settings and keys in the config dir (no keychain reachable here: the file). */
async function bootApp(dir: string) {
  const electron = createFakeElectron();
  const handle = (await startMain({
    electron,
    document: (name) => new JsonFile(path.join(dir, name === 'settings' ? 'settings.json' : 'safe-storage-keys.json')),
    secrets: openSecretStore(dir, null),
    startSandbox: null,
    paths: { rendererIndex: RENDERER, preload: PRELOAD },
    log: silent,
    platform: 'linux',
    argv: [],
    uploadRoot: tmp,
  })) as MainHandle;
  const invoke = async <T>(name: string, input: unknown): Promise<T> => {
    const r = (await electron.ipcMain.invoke(`supply-loader:rpc:${name}`, APP_FRAME, input)) as {
      ok: boolean;
      data?: T;
      error?: unknown;
    };
    if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
    return r.data as T;
  };
  return { handle, invoke, electron };
}

describe('one profile for the app and the CLI', () => {
  it('a connection saved in the app is used by the CLI with --profile; the key never passes through safeStorage', async () => {
    const dir = path.join(tmp, 'app-first');
    const app = await bootApp(dir);
    try {
      await app.invoke('profiles.save', { name: 'Werk Nord', baseUrl: sb.baseUrl, apiKey: sb.ownerKey });
      expect(app.electron.safeStorage.calls).toEqual([]);
    } finally {
      await app.handle.shutdown();
    }
    const r = await cli(['me', '--profile', 'werk nord', '--json'], { configDir: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ manufacturer_id: sb.manufacturerId });
  });

  it('a profile added by the CLI is offered by the app with its key (masked), and the app can check it', async () => {
    const dir = path.join(tmp, 'cli-first');
    const add = await cli(['profile', 'add', 'Nightly', '--base-url', sb.baseUrl], {
      configDir: dir,
      key: sb.ownerKey,
    });
    expect(add.code).toBe(0);
    const app = await bootApp(dir);
    try {
      const state = await app.invoke<{
        profiles: { profileId: string; name: string; hasKey: boolean; maskedKey: string | null }[];
      }>('profiles.list', {});
      const nightly = state.profiles.find((p) => p.name === 'Nightly');
      expect(nightly).toMatchObject({ hasKey: true, maskedKey: expect.stringMatching(/^svc-[^-]+-\*\*\*\*$/) });
      const report = await app.invoke<{ ok?: boolean; manufacturerId?: string }>('connection.check', {
        profileId: nightly!.profileId,
      });
      expect(JSON.stringify(report)).toContain(sb.manufacturerId);
    } finally {
      await app.handle.shutdown();
    }
  });
});

describe('where no keychain is reachable', () => {
  it('profile add says on stderr that the key is kept in the 0600 file, not encrypted', async () => {
    const dir = path.join(tmp, 'no-keychain');
    const add = await cli(['profile', 'add', 'Plain', '--base-url', sb.baseUrl, '--no-check'], {
      configDir: dir,
      key: sb.ownerKey,
    });
    expect(add.code).toBe(0);
    expect(add.stderr).toMatch(/no OS keychain could be used .*secrets\.json, readable only by you but not encrypted/);
    expect(add.stderr).not.toContain(sb.ownerKey);
  });
});
