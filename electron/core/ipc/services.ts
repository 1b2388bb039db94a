/**
 * What the handlers work with: settings, secrets, the embedded sandbox and an event emitter. Each transport
 * host (Electron main, browser mode) builds one AppServices and hands it to the same handler table.
 */
import type { SecretStore } from '../settings/secrets.js';
import type { SettingsStore } from '../settings/settings.js';
import { events } from './contract.js';
import type { EventPayload } from './contract.js';
import type { EmbeddedSandbox } from '../app/embedded-sandbox.js';
import type { FileRegistry, HostDialogs } from '../app/files.js';
import type { EventName } from '../contract/names.js';
import type { Work } from '../app/work.js';

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export type Emit = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

export interface AppServices {
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
  /** the work state of the Import, Jobs, Export and LCA screens (app/work.ts createWork) */
  work: Work;
}

/** What the long-lived work state needs of the services (app/work.ts). */
export type WorkServices = Pick<AppServices, 'settings' | 'emit' | 'log'>;

/** A logger that writes one JSON line per entry to stderr (main process log). */
export function consoleLogger(): Logger {
  const line = (level: string) => (obj: object, msg?: string) => {
    const entry = { level, time: new Date().toISOString(), msg, ...obj };
    process.stderr.write(JSON.stringify(entry, errorReplacer) + '\n');
  };
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

/**
 * Fan-out of events to any number of listeners (SSE clients, Electron windows). Payloads are parsed with the
 * contract's event schema first, so nothing the contract does not name leaves the main side.
 */
export class EventHub {
  private readonly listeners = new Set<(name: EventName, payload: unknown) => void>();
  constructor(private readonly log?: Logger) {}
  readonly emit: Emit = (name, payload) => {
    const checked = events[name].safeParse(payload);
    if (!checked.success) {
      this.log?.error({ event: name }, 'event payload does not match the contract; dropped');
      return;
    }
    for (const l of this.listeners) l(name, checked.data);
  };
  listen(fn: (name: EventName, payload: unknown) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
