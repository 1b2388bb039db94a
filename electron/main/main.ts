/**
 * The thin main process: settings (electron-store), keys (safeStorage), the embedded sandbox, IPC, the menu
 * and the window. Takes electron and the storage/sandbox factories injected so tests run it against a fake.
 */
import type { StartSandboxFn } from '../../core/app/embedded-sandbox.js';
import { EmbeddedSandbox } from '../../core/app/embedded-sandbox.js';
import { FileRegistry, SOURCE_EXTENSIONS, workbookArgs } from '../../core/app/sessions/files.js';
import type { HandlerTable } from '../../core/ipc/contract.js';
import type { AppServices, Logger } from '../../core/app/services.js';
import { consoleLogger, EventHub } from '../../core/ipc/services.js';
import { createSessions } from '../../core/app/sessions/sessions.js';
import type { JsonDocument } from '../../core/settings/json-file.js';
import type { SecretStore } from '../../core/settings/secrets.js';
import { SANDBOX_PROFILE_ID, SettingsStore } from '../../core/settings/settings.js';
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
  /**
   * The key store shared with the CLI and browser mode (OS keychain, 0600 file as the fallback): what the app
   * uses (index.ts). Without it, keys are encrypted with safeStorage into the 'secrets' document, which only the
   * app can read.
   */
  secrets?: SecretStore;
  startSandbox: StartSandboxFn | null;
  paths: { rendererIndex: string; preload: string };
  devUrl?: string;
  log?: Logger;
  handlers?: HandlerTable<AppServices>;
  platform?: NodeJS.Platform;
  /** command-line arguments after the executable (default process.argv.slice(1)) */
  argv?: string[];
  /** where uploaded workbooks are kept while the app runs (default: the OS temp dir) */
  uploadRoot?: string;
}

export interface MainHandle {
  services: AppServices;
  hub: EventHub;
  window: BrowserWindowLike;
  renderer: RendererLocation;
  shutdown(): Promise<void>;
}

/** What the open dialogs offer: workbooks and CSV files, the sources an import reads. */
const SOURCE_FILTERS = [{ name: 'Excel workbook or CSV', extensions: SOURCE_EXTENSIONS.map((e) => e.slice(1)) }];

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

  // Workbooks the OS opens with the app: macOS sends 'open-file' (possibly before ready), Windows and Linux
  // pass the path as an argument (to this instance, or to a second one that hands over and quits).
  const files = new FileRegistry(deps.uploadRoot);
  let hubRef: EventHub | null = null;
  const openWorkbook = (p: string) => {
    try {
      const f = files.addOpened(p);
      hubRef?.emit('files.opened', f);
    } catch (err) {
      log.warn({ err }, 'a workbook opened with the app cannot be read');
    }
  };
  app.on('open-file', (event, p) => {
    event.preventDefault();
    openWorkbook(p);
  });
  for (const p of workbookArgs(deps.argv ?? process.argv.slice(1))) openWorkbook(p);

  await app.whenReady();

  const hub = new EventHub(log);
  hubRef = hub;
  const settings = new SettingsStore(deps.document('settings'));
  const secrets = deps.secrets ?? new SafeStorageSecretStore(safeStorage, deps.document('secrets'), platform);
  const storage = secrets.info();
  if (storage.warning === 'basic_text') {
    log.warn(
      { backend: storage.backend },
      'No OS keychain (Linux basic_text backend): stored API keys are only obfuscated, not encrypted.',
    );
  } else if (storage.warning === 'plain_file') {
    log.warn(
      { backend: storage.backend },
      'No OS keychain could be used: API keys are kept in a file readable only by you, not encrypted.',
    );
  }
  const sandbox = new EmbeddedSandbox(deps.startSandbox, (status) => hub.emit('sandbox.changed', status));
  const services: AppServices = {
    mode: 'electron',
    appVersion: app.getVersion(),
    platform,
    settings,
    secrets,
    sandbox,
    files,
    dialogs: null,
    emit: hub.emit,
    log,
    sessions: createSessions({ settings, emit: hub.emit, log }),
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
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(menuTemplate({ about, isDev: !app.isPackaged, isMac: platform === 'darwin' })),
  );

  // The built-in Sandbox profile is selected on first start: start the sandbox now (in parallel with the window).
  if (settings.snapshot().activeProfileId === SANDBOX_PROFILE_ID) void sandbox.start('demo');

  const refusedLog = (msg: string, url: string) => log.warn({ url }, msg);
  const open = () =>
    createMainWindow({ BrowserWindow, shell }, { preload: deps.paths.preload, renderer, log: refusedLog });
  const window = open();
  services.dialogs = {
    openWorkbook: async () => {
      const r = await dialog.showOpenDialog({
        title: 'Open a workbook',
        properties: ['openFile'],
        filters: SOURCE_FILTERS,
      });
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0];
    },
    // Several sources of one import (a workbook and CSV files of an ERP export)
    openWorkbooks: async () => {
      const r = await dialog.showOpenDialog({
        title: 'Open workbooks or CSV files',
        properties: ['openFile', 'multiSelections'],
        filters: SOURCE_FILTERS,
      });
      return r.canceled ? [] : r.filePaths;
    },
    // Files the app made (results, failed rows, exports, LCA workbooks): saved where the user says, opened with
    // the program the system uses for .xlsx (.csv for the results of a CSV source).
    saveFile: async (suggestedName: string) => {
      if (!dialog.showSaveDialog) return null;
      const csv = /\.csv$/i.test(suggestedName);
      const r = await dialog.showSaveDialog({
        title: csv ? 'Save the CSV file' : 'Save the workbook',
        defaultPath: suggestedName,
        filters: [csv ? { name: 'CSV file', extensions: ['csv'] } : { name: 'Excel workbook', extensions: ['xlsx'] }],
      });
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    openPath: async (filePath: string) => (shell.openPath ? (await shell.openPath(filePath)) === '' : false),
  };

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) open();
  });
  app.on('second-instance', (_event, argv) => {
    for (const p of workbookArgs(argv.slice(1))) openWorkbook(p);
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
    await services.sessions.dispose();
    await sandbox.close();
    files.dispose();
  };
  app.on('before-quit', () => void shutdown());

  return { services, hub, window, renderer, shutdown };
}
