/**
 * Electron entry (bundled by scripts/start.mjs to dist-electron/main/index.js). The only file that imports
 * the real `electron` and `electron-store`; everything else takes them injected.
 */
import * as electron from 'electron';
import Store from 'electron-store';
import path from 'node:path';
import type { MainElectron } from './electron-api.js';
import { startMain } from './main.js';
import type { JsonDocument } from '../core/settings/json-file.js';

const real: MainElectron = electron;

function storeDocument(name: string): JsonDocument {
  const store = new Store<Record<string, unknown>>({ name });
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
