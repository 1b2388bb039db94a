/**
 * What a host (the Electron main process, browser mode) provides to the app: settings, secrets, the embedded
 * sandbox, files, dialogs, an event emitter and a logger. The app's sessions (sessions/sessions.ts) is built over these and
 * added to them as AppServices (services.ts).
 */
import type { EventPayload } from '../contract/index.js';
import type { EventName } from '../contract/names.js';
import type { SecretStore } from '../settings/secrets.js';
import type { SettingsStore } from '../settings/settings.js';
import type { EmbeddedSandbox } from './embedded-sandbox.js';
import type { FileRegistry, HostDialogs } from './sessions/files.js';

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export type Emit = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

export interface HostServices {
  mode: 'electron' | 'browser';
  appVersion: string;
  platform: string;
  settings: SettingsStore;
  secrets: SecretStore;
  sandbox: EmbeddedSandbox;
  /** files handed to the app, by opaque id */
  files: FileRegistry;
  /** native dialogs (desktop); null in browser mode */
  dialogs: HostDialogs | null;
  emit: Emit;
  log: Logger;
}

/** What the long-lived sessions need of the services (sessions/sessions.ts). */
export type SessionServices = Pick<HostServices, 'settings' | 'emit' | 'log'>;
