/**
 * Browser mode: the whole app without Electron. Settings and keys in files under the user config dir (keys
 * NOT encrypted there: a 0600 file, see docs/architecture.md), the embedded sandbox in-process, and the
 * contract + built renderer on one loopback origin (http-server.ts). `npm run start:web` and `npm start`
 * without an Electron binary land here (scripts/start.mjs); the E2E tests start it in-process on port 0.
 */
import path from 'node:path';
import { userConfigDir } from '../settings/paths.js';
import { JsonFile } from '../settings/json-file.js';
import { keychainFor, openSecretStore } from '../settings/keychain.js';
import { SANDBOX_PROFILE_ID, SettingsStore } from '../settings/settings.js';
import { EmbeddedSandbox } from '../app/embedded-sandbox.js';
import { FileRegistry } from '../app/sessions/files.js';
import type { StartSandboxFn } from '../app/embedded-sandbox.js';
import { startHttpTransport } from './http-server.js';
import type { AppServices, Logger } from '../app/services.js';
import { consoleLogger, EventHub } from './services.js';
import { createSessions } from '../app/sessions/sessions.js';

export interface BrowserModeOptions {
  port?: number;
  /** the built renderer; null = contract only */
  staticDir?: string | null;
  /** where settings.json and secrets.json live (default: the user config dir) */
  configDir?: string;
  startSandbox: StartSandboxFn | null;
  appVersion?: string;
  token?: string;
  log?: Logger;
}

export interface BrowserMode {
  url: string;
  origin: string;
  port: number;
  token: string;
  cookieName: string;
  app: AppServices;
  hub: EventHub;
  close(): Promise<void>;
}

export async function startBrowserMode(opts: BrowserModeOptions): Promise<BrowserMode> {
  const dir = opts.configDir ?? userConfigDir();
  const log = opts.log ?? consoleLogger();
  const hub = new EventHub(log);
  const settings = new SettingsStore(new JsonFile(path.join(dir, 'settings.json')));
  const secrets = openSecretStore(dir, keychainFor(process.env, opts.configDir !== undefined ? true : undefined));
  const sandbox = new EmbeddedSandbox(opts.startSandbox, (status) => hub.emit('sandbox.changed', status));
  const app: AppServices = {
    mode: 'browser',
    appVersion: opts.appVersion ?? '0.0.0',
    platform: process.platform,
    settings,
    secrets,
    sandbox,
    files: new FileRegistry(),
    dialogs: null,
    emit: hub.emit,
    log,
    sessions: createSessions({ settings, emit: hub.emit, log }),
  };
  // The Sandbox profile is the default: start it at once so the first screen works without waiting.
  if (settings.snapshot().activeProfileId === SANDBOX_PROFILE_ID) await sandbox.start('demo');
  // Room for a 100 MB workbook as base64 in a JSON body.
  const http = await startHttpTransport({
    app,
    hub,
    staticDir: opts.staticDir,
    port: opts.port,
    token: opts.token,
    maxBodyBytes: 140 * 1024 * 1024,
  });
  return {
    url: http.url,
    origin: http.origin,
    port: http.port,
    token: http.token,
    cookieName: http.cookieName,
    app,
    hub,
    close: async () => {
      await app.sessions.dispose();
      await http.close();
      await sandbox.close();
      app.files.dispose();
    },
  };
}
