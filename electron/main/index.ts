/**
 * Electron entry (bundled by scripts/start.mjs to dist-electron/main/index.js). The only file that imports
 * the real `electron` and `electron-store`; everything else takes them injected.
 */
import * as electron from 'electron';
import Store from 'electron-store';
import path from 'node:path';
import type { MainElectron } from './electron-api.js';
import { startMain } from './main.js';
import type { JsonDocument } from '../../core/settings/json-file.js';
import { applyHeapGrowth } from '../../core/settings/heap-growth.js';
import { keychainFor, openSecretStore } from '../../core/settings/keychain.js';
import { userConfigDir } from '../../core/settings/paths.js';

// The main process plans and runs: the CLI's heap growth keeps its peak as low as the CLI's.
applyHeapGrowth();

const real: MainElectron = electron;

// One config dir for the app, the CLI and browser mode (settings.json, mappings, the key store), so a profile
// set up in one is usable in the others: the CLI's dir, not Electron's default userData.
const configDir = userConfigDir();
electron.app.setPath('userData', configDir);

// The safeStorage document (used only without the shared key store) must not be the shared store's secrets.json.
const DOCUMENT_FILE = { settings: 'settings', secrets: 'safe-storage-keys' } as const;

function storeDocument(doc: keyof typeof DOCUMENT_FILE): JsonDocument {
  const store = new Store<Record<string, unknown>>({ name: DOCUMENT_FILE[doc], cwd: configDir });
  return {
    location: store.path,
    load: () => (Object.keys(store.store).length === 0 ? undefined : store.store),
    save: (value) => {
      store.store = value as Record<string, unknown>;
    },
  };
}

const appPath = electron.app.getAppPath();

void startMain({
  electron: real,
  document: storeDocument,
  secrets: openSecretStore(configDir, keychainFor()),
  startSandbox: async (opts) => {
    const { startSandbox } = await import('../../sandbox/index.js');
    return startSandbox(opts);
  },
  paths: {
    rendererIndex: path.join(appPath, 'dist-renderer', 'index.html'),
    preload: path.join(appPath, 'dist-electron', 'preload', 'index.cjs'),
  },
  devUrl: process.env.SUPPLY_LOADER_DEV_URL,
});
