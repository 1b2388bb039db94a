/**
 * Helpers of the parity tests: one app (browser mode, port 0) whose embedded sandbox both adapters use — the
 * CLI (runCli in this process, the sandbox's --base-url and owner key, the app's jobs directory) and the IPC
 * handler table (dispatch) — the sandbox reset to the demo seed before each adapter's turn, and what is compared:
 * the service state read back through the API and workbooks' cells, both with ids and times taken out.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import { resolveConnection } from '../../core/app/profiles.js';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput, ProcedureOutput } from '../../core/ipc/contract.js';
import type { ProcedureName } from '../../core/contract/names.js';
import { cliRunners, sandboxControl, type CliRun } from '../fixtures/cli-process.js';
import { rpc, startTestApp, stopTestApp } from '../ipc/helpers.js';
import type { Catalog } from '../jobs/helpers.js';

const { cli } = cliRunners('sl-parity-no-config');

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g;
const JOB_ID = /\b\d{8}-\d{6}-[0-9a-f]{6}\b/g;
/** Fields the service stamps (when, which version): they differ between two runs of the same operation. */
const STAMPS = new Set(['created_at', 'updated_at', 'deleted_at', 'version', 'etag']);

export class Parity {
  private constructor(
    readonly mode: BrowserMode,
    readonly dir: string,
  ) {}

  static async start(): Promise<Parity> {
    const { mode, dir } = await startTestApp('sl-parity-');
    return new Parity(mode, dir);
  }

  stop(): Promise<void> {
    return stopTestApp(this.mode, this.dir);
  }

  get jobsDir(): string {
    return this.mode.app.sessions.jobs.jobsDir;
  }

  /**
   * The sandbox back to a seed (a fresh owner key); returns its connection. `empty` (the catalog only) where
   * the service state is compared: the demo seed's production figures of the current year depend on the moment.
   */
  async reset(seed: 'demo' | 'empty' = 'empty'): Promise<{ baseUrl: string; apiKey: string }> {
    await this.call('sandbox.reset', { seed });
    return resolveConnection(this.mode.app);
  }

  call<N extends ProcedureName>(name: N, input: ProcedureInput<N>): Promise<ProcedureOutput<N>> {
    return rpc(this.mode, name, input);
  }

  /** The CLI against the app's sandbox, its jobs in the app's jobs directory; a config dir of its own. */
  async cli(args: string[], o: { configDir?: string } = {}): Promise<CliRun> {
    const conn = await resolveConnection(this.mode.app);
    return cli(args, {
      baseUrl: conn.baseUrl,
      key: conn.apiKey,
      cwd: this.dir,
      jobsDir: this.jobsDir,
      configDir: o.configDir ?? path.join(this.dir, 'cli-config'),
    });
  }

  /** The CLI's --json answer (exit code checked). */
  async cliJson<T = Record<string, unknown>>(args: string[], code = 0): Promise<T> {
    const r = await this.cli([...args, '--json']);
    if (r.code !== code) throw new Error(`supply-loader ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  }

  async client(): Promise<ApiClient> {
    const conn = await resolveConnection(this.mode.app);
    return createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
  }

  async catalog(): Promise<Catalog> {
    const conn = await resolveConnection(this.mode.app);
    return sandboxControl<Catalog>(conn.baseUrl, 'GET', '/catalog');
  }

  /** A file of the test for the app: its fileId. */
  fileId(p: string): string {
    return this.mode.app.files.registerPath(p).fileId;
  }

  /** The file behind a download the app offered. */
  download(downloadId: string): string {
    const d = this.mode.app.sessions.downloads.get(downloadId);
    return d.path;
  }

  async settled(jobId: string): Promise<ProcedureOutput<'jobs.get'>> {
    const t0 = Date.now();
    for (;;) {
      const v = await this.call('jobs.get', { jobId });
      if (!v.running) return v;
      if (Date.now() - t0 > 60_000) throw new Error(`job ${jobId} still running`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * What the service holds, as the API gives it: every entity collection (sorted by external_id), each
   * instance's BOM and production figures; ids replaced by the external_id of the entity they name.
   */
  async serviceState(): Promise<unknown> {
    const client = await this.client();
    try {
      const cat = await this.catalog();
      const names = new Map<string, string>();
      for (const list of [cat.plants, cat.elementaries, cat.composites, cat.products])
        for (const e of list) names.set(e.id.toLowerCase(), `@${e.external_id}`);
      const collections = {
        supplierCompanies: await all(client.supplierCompanies.walk()),
        supplierPlants: await all(client.supplierPlants.walk()),
        supplierProducts: await all(client.supplierProducts.walk()),
        silos: await all(client.silos.walk()),
        productInstances: await all(client.productInstances.walk()),
        prechainProducts: await all(client.prechainProducts.walk()),
      };
      for (const list of Object.values(collections))
        for (const e of list as { id: string; external_id?: string | null }[])
          names.set(e.id.toLowerCase(), `@${e.external_id ?? '?'}`);
      const perInstance: Record<string, unknown> = {};
      for (const i of collections.productInstances as { id: string; external_id?: string | null }[])
        perInstance[String(i.external_id)] = {
          bom: await client.bom.get(i.id),
          production: await client.productionFigures.get(i.id),
        };
      const sorted = Object.fromEntries(
        Object.entries(collections).map(([k, list]) => [
          k,
          [...(list as { external_id?: string | null }[])].sort((a, b) =>
            String(a.external_id).localeCompare(String(b.external_id)),
          ),
        ]),
      );
      return normalize({ ...sorted, perInstance }, names);
    } finally {
      await client.close();
    }
  }
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** Ids → the external_id they name (else `<id>`), times → `<time>`, job ids → `<job>`, stamps dropped. */
export function normalize(v: unknown, names: Map<string, string> = new Map()): unknown {
  if (typeof v === 'string')
    return v
      .replace(UUID, (m) => names.get(m.toLowerCase()) ?? '<id>')
      .replace(ISO_TIME, '<time>')
      .replace(JOB_ID, '<job>');
  if (Array.isArray(v)) return v.map((x) => normalize(x, names));
  if (v instanceof Date) return '<time>';
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !STAMPS.has(k))
        .map(([k, x]) => [k, normalize(x, names)]),
    );
  return v;
}

/** Every sheet's cells (values as exceljs reads them), normalized; a workbook's bytes or its path. */
export async function workbookCells(file: string | Buffer): Promise<Record<string, unknown[][]>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((typeof file === 'string' ? fs.readFileSync(file) : file) as unknown as ArrayBuffer);
  const out: Record<string, unknown[][]> = {};
  wb.eachSheet((ws) => {
    const rows: unknown[][] = [];
    ws.eachRow({ includeEmpty: true }, (row) => {
      const values = (row.values as unknown[]).slice(1);
      const cells = values.map((c) =>
        normalize(c && typeof c === 'object' && 'result' in c ? (c as { result: unknown }).result : c),
      );
      // How long a run took ("Duration (s)" of a Report sheet, duration_s of the LCA about sheet) differs by nature.
      if (typeof cells[0] === 'string' && /^duration/i.test(cells[0])) cells[1] = '<duration>';
      rows.push(cells);
    });
    out[ws.name] = rows;
  });
  return out;
}
