/**
 * The thin main process: settings (electron-store), keys (safeStorage), the embedded sandbox, IPC, the menu
 * and the window. Takes electron and the storage/sandbox factories injected so tests run it against a fake.
 */
import type { StartSandboxFn } from '../core/ipc/embedded-sandbox.js';
import { EmbeddedSandbox } from '../core/ipc/embedded-sandbox.js';
import type { HandlerTable } from '../core/ipc/handlers.js';
import type { AppServices, Logger } from '../core/ipc/services.js';
import { consoleLogger, EventHub } from '../core/ipc/services.js';
import type { JsonDocument } from '../core/settings/json-file.js';
import { SANDBOX_PROFILE_ID, SettingsStore } from '../core/settings/settings.js';
import type { BrowserWindowLike, MainElectron } from './electron-api.js';
import { forwardEvents, registerIpc } from './ipc.js';
import { menuTemplate } from './menu.js';
import { SafeStorageSecretStore } from './secret-store.js';
import type { RendererLocation } from './security.js';
import { guardWebContents, hardenSession } from './security.js';
import { createMainWindow } from './window.js';

export interface MainDeps {
  electron: MainElectron;
  /** a persistent JSON document by name ('settings', 'secrets'): electron-store in the app */
  document: (name: 'settings' | 'secrets') => JsonDocument;
  startSandbox: StartSandboxFn | null;
  paths: { rendererIndex: string; preload: string };
  devUrl?: string;
  log?: Logger;
  handlers?: HandlerTable;
  platform?: NodeJS.Platform;
}

export interface MainHandle {
  services: AppServices;
  hub: EventHub;
  window: BrowserWindowLike;
  renderer: RendererLocation;
  shutdown(): Promise<void>;
}

export async function startMain(deps: MainDeps): Promise<MainHandle | null> {
  const { app, BrowserWindow, ipcMain, Menu, shell, safeStorage, session, dialog } = deps.electron;
  const log = deps.log ?? consoleLogger();
  const platform = deps.platform ?? process.platform;

  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }

  // Any web contents created later (none are planned) gets the same guards.
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, shell));

  await app.whenReady();

  const hub = new EventHub(log);
  const secrets = new SafeStorageSecretStore(safeStorage, deps.document('secrets'), platform);
  const storage = secrets.info();
  if (storage.warning === 'basic_text') {
    log.warn({ backend: storage.backend }, 'No OS keychain (Linux basic_text backend): stored API keys are only obfuscated, not encrypted.');
  }
  const settings = new SettingsStore(deps.document('settings'));
  const sandbox = new EmbeddedSandbox(deps.startSandbox, (status) => hub.emit('sandbox.changed', status));
  const services: AppServices = {
    mode: 'electron',
    appVersion: app.getVersion(),
    platform,
    settings,
    secrets,
    sandbox,
    emit: hub.emit,
    log,
  };

  const renderer: RendererLocation = { file: deps.paths.rendererIndex, devUrl: deps.devUrl };
  hardenSession(session.defaultSession);
  const unregister = registerIpc(ipcMain, services, renderer, deps.handlers);
  const stopForwarding = forwardEvents(hub, BrowserWindow);

  const about = () =>
    void dialog.showMessageBox({
      type: 'info',
      title: 'About Supply Loader',
      message: `Supply Loader ${app.getVersion()}`,
      detail: 'Loads supply-chain data from Excel into API v2 and exports LCA results.',
    });
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate({ about, isDev: !app.isPackaged, isMac: platform === 'darwin' })));

  // The built-in Sandbox profile is selected on first start: start the sandbox now (in parallel with the window).
  if (settings.snapshot().activeProfileId === SANDBOX_PROFILE_ID) void sandbox.start('demo');

  const refusedLog = (msg: string, url: string) => log.warn({ url }, msg);
  const open = () => createMainWindow({ BrowserWindow, shell }, { preload: deps.paths.preload, renderer, log: refusedLog });
  const window = open();

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) open();
  });
  app.on('second-instance', () => {
    const [w] = BrowserWindow.getAllWindows();
    if (w) w.show();
  });
  app.on('window-all-closed', () => {
    if (platform !== 'darwin') app.quit();
  });
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    stopForwarding();
    unregister();
    await sandbox.close();
  };
  app.on('before-quit', () => void shutdown());

  return { services, hub, window, renderer, shutdown };
}
