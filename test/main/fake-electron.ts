/**
 * A fake of the parts of `electron` the main process uses (as GitHub Desktop's app/test/helpers/fake-electron.ts),
 * recording what the shell does so tests can assert it under plain node.
 */
import type {
  AppLike,
  BrowserWindowLike,
  BrowserWindowOptionsLike,
  IpcMainInvokeEventLike,
  MainElectron,
  MenuItemOptionsLike,
  PreventableEvent,
  SafeStorageLike,
  SessionLike,
  WebContentsLike,
  WindowOpenResponse,
  HeadersDetailsLike,
} from '../../electron/main/electron-api.js';

type Listener = (...args: never[]) => unknown;

export class FakeWebContents implements WebContentsLike {
  readonly listeners = new Map<string, Listener[]>();
  windowOpenHandler: ((details: { url: string }) => WindowOpenResponse) | null = null;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  destroyed = false;
  on(event: string, listener: Listener): this {
    const list = this.listeners.get(event) ?? [];
    list.push(listener);
    this.listeners.set(event, list);
    return this;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenResponse): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Fire a navigation-like event; returns whether the handler prevented it. */
  fire(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url = ''): boolean {
    let prevented = false;
    const e: PreventableEvent = { preventDefault: () => void (prevented = true) };
    for (const l of this.listeners.get(event) ?? []) (l as (e: PreventableEvent, url: string) => void)(e, url);
    return prevented;
  }
}

export class FakeBrowserWindow implements BrowserWindowLike {
  static instances: FakeBrowserWindow[] = [];
  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.instances.filter((w) => !w.destroyed);
  }
  readonly webContents = new FakeWebContents();
  loadedFile: string | null = null;
  loadedUrl: string | null = null;
  shown = false;
  destroyed = false;
  private readyListeners: (() => void)[] = [];
  constructor(readonly options: BrowserWindowOptionsLike) {
    FakeBrowserWindow.instances.push(this);
  }
  async loadFile(filePath: string): Promise<void> {
    this.loadedFile = filePath;
    for (const l of this.readyListeners.splice(0)) l();
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    for (const l of this.readyListeners.splice(0)) l();
  }
  once(_event: 'ready-to-show', listener: () => void): this {
    this.readyListeners.push(listener);
    return this;
  }
  show(): void {
    this.shown = true;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

type InvokeHandler = (event: IpcMainInvokeEventLike, ...args: unknown[]) => Promise<unknown>;

export class FakeIpcMain {
  readonly handlers = new Map<string, InvokeHandler>();
  handle(channel: string, listener: InvokeHandler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** Invoke as a renderer frame at `url` would (parent null = top frame). */
  async invoke(channel: string, frame: { url: string; parent?: unknown } | null, ...args: unknown[]): Promise<unknown> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`No handler registered for '${channel}'`);
    return h({ senderFrame: frame ? { url: frame.url, parent: frame.parent ?? null } : null }, ...args);
  }
}

export interface FakeSafeStorageOptions {
  backend?: string;
  async?: boolean;
  available?: boolean;
}

/** Reversible "encryption" that does not contain the plain text, recording which API was used. */
export class FakeSafeStorage implements SafeStorageLike {
  readonly calls: string[] = [];
  encryptStringAsync?: (plainText: string) => Promise<Buffer>;
  decryptStringAsync?: (encrypted: Buffer) => Promise<{ result: string; shouldReEncrypt: boolean }>;
  isAsyncEncryptionAvailable?: () => Promise<boolean>;
  constructor(private readonly opts: FakeSafeStorageOptions = {}) {
    if (opts.async !== false) {
      this.encryptStringAsync = async (s) => {
        this.calls.push('encryptStringAsync');
        return FakeSafeStorage.scramble(s);
      };
      this.decryptStringAsync = async (b) => {
        this.calls.push('decryptStringAsync');
        return { result: FakeSafeStorage.unscramble(b), shouldReEncrypt: false };
      };
      this.isAsyncEncryptionAvailable = async () => this.opts.available !== false;
    }
  }
  static scramble(s: string): Buffer {
    return Buffer.from(Buffer.from(s, 'utf8').map((b) => b ^ 0x5a)).reverse();
  }
  static unscramble(b: Buffer): string {
    return Buffer.from(
      Buffer.from(b)
        .reverse()
        .map((x) => x ^ 0x5a),
    ).toString('utf8');
  }
  isEncryptionAvailable(): boolean {
    return this.opts.available !== false;
  }
  encryptString(s: string): Buffer {
    this.calls.push('encryptString');
    return FakeSafeStorage.scramble(s);
  }
  decryptString(b: Buffer): string {
    this.calls.push('decryptString');
    return FakeSafeStorage.unscramble(b);
  }
  getSelectedStorageBackend(): string {
    return this.opts.backend ?? 'gnome_libsecret';
  }
}

export class FakeSession implements SessionLike {
  headersListener:
    | ((details: HeadersDetailsLike, cb: (r: { responseHeaders?: Record<string, string[] | string> }) => void) => void)
    | null = null;
  permissionRequest: ((wc: unknown, permission: string, cb: (granted: boolean) => void) => void) | null = null;
  permissionCheck: ((wc: unknown, permission: string) => boolean) | null = null;
  webRequest = {
    onHeadersReceived: (l: NonNullable<FakeSession['headersListener']>) => {
      this.headersListener = l;
    },
  };
  setPermissionRequestHandler(h: FakeSession['permissionRequest']): void {
    this.permissionRequest = h;
  }
  setPermissionCheckHandler(h: FakeSession['permissionCheck']): void {
    this.permissionCheck = h;
  }
}

export class FakeApp implements AppLike {
  readonly listeners = new Map<string, Listener[]>();
  quitCalled = false;
  isPackaged = false;
  singleInstance = true;
  on(event: string, listener: Listener): this {
    const list = this.listeners.get(event) ?? [];
    list.push(listener);
    this.listeners.set(event, list);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) (l as (...a: unknown[]) => void)(...args);
  }
  async whenReady(): Promise<void> {}
  quit(): void {
    this.quitCalled = true;
  }
  getVersion(): string {
    return '9.9.9-test';
  }
  getPath(): string {
    return '/nonexistent/user-data';
  }
  requestSingleInstanceLock(): boolean {
    return this.singleInstance;
  }
}

export interface FakeElectron extends MainElectron {
  app: FakeApp;
  ipcMain: FakeIpcMain;
  safeStorage: FakeSafeStorage;
  session: { defaultSession: FakeSession };
  shell: { openExternal(url: string): Promise<void>; opened: string[] };
  menu: { template: MenuItemOptionsLike[] | null; set: boolean };
  dialogs: { message: string }[];
  /** what the next showOpenDialog returns (null = cancelled), and the options it was called with */
  openDialog: { next: string | null; calls: { filters: { name: string; extensions: string[] }[] }[] };
}

export function createFakeElectron(opts: { safeStorage?: FakeSafeStorageOptions } = {}): FakeElectron {
  FakeBrowserWindow.instances = [];
  const opened: string[] = [];
  const menu: FakeElectron['menu'] = { template: null, set: false };
  const dialogs: { message: string }[] = [];
  const openDialog: FakeElectron['openDialog'] = { next: null, calls: [] };
  return {
    app: new FakeApp(),
    BrowserWindow: FakeBrowserWindow,
    ipcMain: new FakeIpcMain(),
    safeStorage: new FakeSafeStorage(opts.safeStorage),
    session: { defaultSession: new FakeSession() },
    shell: {
      opened,
      openExternal: async (url: string) => {
        opened.push(url);
      },
    },
    Menu: {
      buildFromTemplate: (template: MenuItemOptionsLike[]) => {
        menu.template = template;
        return { template };
      },
      setApplicationMenu: () => {
        menu.set = true;
      },
    },
    menu,
    dialog: {
      showOpenDialog: async (o: { filters: { name: string; extensions: string[] }[] }) => {
        openDialog.calls.push({ filters: o.filters });
        return openDialog.next === null
          ? { canceled: true, filePaths: [] }
          : { canceled: false, filePaths: [openDialog.next] };
      },
      showMessageBox: async (o: { message: string }) => {
        dialogs.push({ message: o.message });
        return { response: 0 };
      },
    },
    dialogs,
    openDialog,
  };
}
