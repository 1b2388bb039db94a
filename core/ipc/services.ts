/**
 * The hosts' parts of the services (app/services.ts AppServices): a logger to stderr and the fan-out of the
 * contract's events to the transports.
 */
import { events } from '../contract/index.js';
import type { EventName } from '../contract/names.js';
import type { Emit, Logger } from '../app/services.js';

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
