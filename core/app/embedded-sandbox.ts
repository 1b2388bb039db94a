/**
 * The API v2 sandbox started in-process for the built-in "Sandbox" profile, so the app works at once without an
 * account. The start function is injected (sandbox/index.ts startSandbox) to keep this module free of the
 * sandbox's dependencies in tests that do not need it.
 */
import { maskApiKey } from '../spec/constants.js';
import type { SandboxStatus } from '../contract/index.js';

export interface StartedSandbox {
  baseUrl: string;
  ownerKey: string;
  manufacturerId: string;
  close(): Promise<void>;
}
export type StartSandboxFn = (opts: {
  port?: number;
  host?: string;
  seed?: 'demo' | 'empty';
}) => Promise<StartedSandbox>;

export class EmbeddedSandbox {
  private state: SandboxStatus['state'] = 'stopped';
  private running: StartedSandbox | null = null;
  private key: string | null = null;
  private manufacturerId: string | null = null;
  private message: string | null = null;
  private starting: Promise<SandboxStatus> | null = null;

  constructor(
    private readonly startFn: StartSandboxFn | null,
    private readonly onChange: (status: SandboxStatus) => void = () => {},
  ) {}

  status(): SandboxStatus {
    return {
      state: this.state,
      baseUrl: this.running?.baseUrl ?? null,
      maskedKey: this.key ? maskApiKey(this.key) : null,
      manufacturerId: this.manufacturerId,
      message: this.message,
    };
  }

  /** The owner key of the running sandbox (main side only; never sent to the renderer). */
  ownerKey(): string | null {
    return this.key;
  }

  baseUrl(): string | null {
    return this.running?.baseUrl ?? null;
  }

  /** Start once (port 0 on loopback, demo seed); later calls return the same result. */
  start(seed: 'demo' | 'empty' = 'demo'): Promise<SandboxStatus> {
    if (this.running) return Promise.resolve(this.status());
    if (this.starting) return this.starting;
    if (!this.startFn) {
      this.state = 'failed';
      this.message = 'The embedded sandbox is not part of this build.';
      this.onChange(this.status());
      return Promise.resolve(this.status());
    }
    const startFn = this.startFn;
    this.state = 'starting';
    this.message = null;
    this.onChange(this.status());
    this.starting = (async () => {
      try {
        const s = await startFn({ port: 0, host: '127.0.0.1', seed });
        this.running = s;
        this.key = s.ownerKey;
        this.manufacturerId = s.manufacturerId;
        this.state = 'running';
      } catch (err) {
        this.state = 'failed';
        this.message = `The embedded sandbox could not start: ${err instanceof Error ? err.message : String(err)}`;
      } finally {
        this.starting = null;
      }
      this.onChange(this.status());
      return this.status();
    })();
    return this.starting;
  }

  /** POST /__sandbox/reset: demo or empty data, a fresh owner key. */
  async reset(seed: 'demo' | 'empty'): Promise<SandboxStatus> {
    if (!this.running) await this.start(seed);
    if (!this.running) return this.status();
    const res = await fetch(`${this.running.baseUrl}/__sandbox/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seed }),
    });
    if (res.status !== 200) throw new Error(`The sandbox refused the reset (HTTP ${res.status}).`);
    const body = (await res.json()) as { manufacturer_id?: unknown; owner_key?: unknown };
    if (typeof body.owner_key !== 'string' || typeof body.manufacturer_id !== 'string') {
      throw new Error('The sandbox answered the reset without an owner key.');
    }
    this.key = body.owner_key;
    this.manufacturerId = body.manufacturer_id;
    this.onChange(this.status());
    return this.status();
  }

  async close(): Promise<void> {
    const s = this.running;
    this.running = null;
    this.key = null;
    this.state = 'stopped';
    if (s) await s.close();
  }
}
