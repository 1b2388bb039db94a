/**
 * The part of the `electron` module the main process uses, as a narrow structural type. The real module is
 * passed in by electron/main/index.ts (the compiler checks it fits); tests pass test/main/fake-electron.ts.
 * So the shell is testable under plain node, where the Electron binary is not available.
 */

export interface PreventableEvent {
  preventDefault(): void;
}

export interface WebPreferencesLike {
  preload?: string;
  contextIsolation?: boolean;
  sandbox?: boolean;
  nodeIntegration?: boolean;
  nodeIntegrationInWorker?: boolean;
  nodeIntegrationInSubFrames?: boolean;
  webSecurity?: boolean;
  allowRunningInsecureContent?: boolean;
  webviewTag?: boolean;
  experimentalFeatures?: boolean;
  navigateOnDragDrop?: boolean;
  spellcheck?: boolean;
}

export interface BrowserWindowOptionsLike {
  width?: number;
  height?: number;
  minWidth?: number;
  minHeight?: number;
  title?: string;
  show?: boolean;
  backgroundColor?: string;
  autoHideMenuBar?: boolean;
  webPreferences?: WebPreferencesLike;
}

export type WindowOpenResponse = { action: 'deny' };

export interface WebContentsLike {
  on(event: 'will-navigate', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-redirect', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenResponse): void;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

export interface BrowserWindowLike {
  readonly webContents: WebContentsLike;
  loadFile(filePath: string): Promise<void>;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  show(): void;
  isDestroyed(): boolean;
}

export interface BrowserWindowCtor {
  new (options: BrowserWindowOptionsLike): BrowserWindowLike;
  getAllWindows(): BrowserWindowLike[];
}

export interface SenderFrameLike {
  readonly url: string;
  readonly parent: unknown;
}

export interface IpcMainInvokeEventLike {
  readonly senderFrame: SenderFrameLike | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Electron ≥ 38; absent on older versions */
  encryptStringAsync?(plainText: string): Promise<Buffer>;
  decryptStringAsync?(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  isAsyncEncryptionAvailable?(): Promise<boolean>;
  /** Linux only */
  getSelectedStorageBackend?(): string;
}

export interface ShellLike {
  openExternal(url: string): Promise<void>;
  /** resolves to '' on success, else an error message (Electron's shell.openPath) */
  openPath?(path: string): Promise<string>;
}

export interface HeadersDetailsLike {
  url: string;
  resourceType?: string;
  responseHeaders?: Record<string, string[]>;
}

export interface SessionLike {
  webRequest: {
    onHeadersReceived(
      listener: (
        details: HeadersDetailsLike,
        callback: (response: { responseHeaders?: Record<string, string[] | string> }) => void,
      ) => void,
    ): void;
  };
  setPermissionRequestHandler(
    handler: ((webContents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null,
  ): void;
  setPermissionCheckHandler(handler: ((webContents: unknown, permission: string) => boolean) | null): void;
}

/** Menu items are plain data; the real type is used so roles are checked. */
export type MenuItemOptionsLike = import('electron').MenuItemConstructorOptions;

export interface MenuStatic {
  buildFromTemplate(template: MenuItemOptionsLike[]): unknown;
  setApplicationMenu(menu: unknown): void;
}

export interface DialogLike {
  showOpenDialog(options: {
    title?: string;
    properties: ('openFile' | 'multiSelections')[];
    filters: { name: string; extensions: string[] }[];
  }): Promise<{ canceled: boolean; filePaths: string[] }>;
  showSaveDialog?(options: {
    title?: string;
    defaultPath?: string;
    filters: { name: string; extensions: string[] }[];
  }): Promise<{ canceled: boolean; filePath?: string }>;
  showMessageBox(options: {
    type?: 'none' | 'info' | 'error' | 'question' | 'warning';
    title?: string;
    message: string;
    detail?: string;
    buttons?: string[];
  }): Promise<unknown>;
}

export interface AppLike {
  whenReady(): Promise<unknown>;
  on(event: 'window-all-closed', listener: () => void): unknown;
  on(event: 'activate', listener: () => void): unknown;
  on(event: 'before-quit', listener: () => void): unknown;
  on(event: 'second-instance', listener: (event: unknown, argv: string[]) => void): unknown;
  on(event: 'open-file', listener: (event: PreventableEvent, path: string) => void): unknown;
  on(event: 'web-contents-created', listener: (event: unknown, contents: WebContentsLike) => void): unknown;
  quit(): void;
  getVersion(): string;
  getPath(name: 'userData'): string;
  requestSingleInstanceLock(): boolean;
  readonly isPackaged: boolean;
}

export interface MainElectron {
  app: AppLike;
  BrowserWindow: BrowserWindowCtor;
  ipcMain: IpcMainLike;
  Menu: MenuStatic;
  shell: ShellLike;
  safeStorage: SafeStorageLike;
  session: { defaultSession: SessionLike };
  dialog: DialogLike;
}
