/**
 * Test helpers of the import-engine tests: an in-process sandbox with a client, workbooks written with
 * exceljs (row 1 = the registry's field names), and the control API calls the tests count and steer with.
 */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import { collectBuffer } from '../../core/fs/buffer.js';
import { readWorkbook } from '../../core/workbook/reader.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import type { PlanContext } from '../../core/jobs/plan.js';
import { planInMemory } from './job-folder.js';
import type { Plan } from '../../core/jobs/types.js';
import { getSheet } from '../../core/workbook/registry.js';
import type { DataSheetName, ParsedWorkbook } from '../../core/workbook/types.js';

export type SheetData = Partial<Record<DataSheetName, Record<string, unknown>[]>>;

export interface Env {
  sb: RunningSandbox;
  client: ApiClient;
  dir: string;
  jobsDir: string;
  clients: ApiClient[];
  newClient(apiKey: string, o?: { maxConcurrency?: number }): ApiClient;
  control<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** Requests of the request log after `since` (a last_seq from requestsMark()). */
  requestsSince(since: number): Promise<RequestEntry[]>;
  requestsMark(): Promise<number>;
  state(): Promise<Record<string, { active: number; deleted: number }>>;
  close(): Promise<void>;
}

export interface RequestEntry {
  method: string;
  path: string;
  status: number;
  err_code?: string | null;
  idempotency_key?: string | null;
}

export async function startEnv(seed: 'demo' | 'empty' = 'demo'): Promise<Env> {
  const sb = await startSandbox({ port: 0, seed });
  const dir = await mkdtemp(join(tmpdir(), 'sl-jobs-'));
  const clients: ApiClient[] = [];
  const newClient = (apiKey: string, o: { maxConcurrency?: number } = {}) => {
    const c = createApiClient({
      baseUrl: sb.baseUrl,
      apiKey,
      maxConcurrency: o.maxConcurrency ?? 16,
      retry: { baseMs: 5, capMs: 50, maxTotalMs: 5_000 },
    });
    clients.push(c);
    return c;
  };
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${sb.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const env: Env = {
    sb,
    client: newClient(sb.ownerKey),
    dir,
    jobsDir: join(dir, 'jobs'),
    clients,
    newClient,
    control,
    async requestsSince(since) {
      const r = await control<{ entries: RequestEntry[] }>('GET', `/__sandbox/requests?since=${since}`);
      return r.entries;
    },
    async requestsMark() {
      const r = await control<{ last_seq: number }>('GET', `/__sandbox/requests?since=999999999`);
      return r.last_seq;
    },
    state: () => control('GET', '/__sandbox/state'),
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await sb.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return env;
}

/** Write a workbook: one sheet per entry, row 1 = the registry's columns (all of them; `action` when used), then the rows. */
export async function writeTestWorkbook(
  path: string,
  data: SheetData,
  extraColumns: Partial<Record<DataSheetName, string[]>> = {},
): Promise<string> {
  // The streaming writer (as the template writer uses): workbook.xml comes before the worksheets.
  const { buffer } = await collectBuffer(async (sink) => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: true });
    for (const [name, rows] of Object.entries(data) as [DataSheetName, Record<string, unknown>[]][]) {
      const ws = wb.addWorksheet(name);
      // The optional `action` column only when a row uses it (workbooks as they were before it existed).
      const own = Object.keys(getSheet(name).columns).filter(
        (f) => f !== 'action' || rows.some((r) => r.action !== undefined),
      );
      const fields = [...own, ...(extraColumns[name] ?? [])];
      ws.addRow(fields).commit();
      for (const r of rows) ws.addRow(fields.map((f) => (r[f] === undefined ? null : r[f]))).commit();
      ws.commit();
    }
    await wb.commit();
  });
  await writeFile(path, await excelEntryOrder(buffer));
  return path;
}

/**
 * Put the zip entries in the order Excel and LibreOffice write them (workbook.xml and the relationships first,
 * then the worksheets). exceljs's writers put workbook.xml last, which the streaming reader handles by
 * buffering every worksheet first (a different code path): these tests exercise the engine on files as users'
 * spreadsheet programs save them.
 */
async function excelEntryOrder(buf: Buffer): Promise<Buffer> {
  const src = await JSZip.loadAsync(buf);
  const rank = (name: string) =>
    name === '[Content_Types].xml'
      ? 0
      : name.startsWith('_rels/')
        ? 1
        : name.startsWith('docProps/')
          ? 2
          : name === 'xl/workbook.xml'
            ? 3
            : name.startsWith('xl/_rels/')
              ? 4
              : name === 'xl/sharedStrings.xml'
                ? 5
                : name === 'xl/styles.xml'
                  ? 6
                  : name.startsWith('xl/theme/')
                    ? 7
                    : 8;
  const names = Object.keys(src.files)
    .filter((n) => !src.files[n].dir)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b, 'en', { numeric: true }));
  const out = new JSZip();
  for (const n of names) out.file(n, await src.files[n].async('nodebuffer'));
  return out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

export async function readTestWorkbook(path: string): Promise<ParsedWorkbook> {
  return readWorkbook(path);
}

/** Read, validate (validateWorkbook) and plan a workbook file, as the CLI and the app do. */
export async function planFile(path: string, ctx: Omit<PlanContext, 'validation'>): Promise<Plan> {
  const parsed = await readWorkbook(path);
  return planInMemory(parsed, { ...ctx, validation: await validateWorkbook(parsed) });
}

export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const writesOf = (entries: RequestEntry[]) =>
  entries.filter((e) => WRITE_METHODS.has(e.method) && e.path.startsWith('/v2/'));

export interface Catalog {
  manufacturer_id: string;
  owner_profile_id: string;
  plants: { id: string; external_id: string }[];
  elementaries: { id: string; external_id: string }[];
  composites: { id: string; external_id: string }[];
  products: { id: string; external_id: string }[];
}

export const catalog = (env: Env) => env.control<Catalog>('GET', '/__sandbox/catalog');
export const idOf = (list: { id: string; external_id: string }[], code: string): string => {
  const e = list.find((x) => x.external_id === code);
  if (!e) throw new Error(`no ${code} in the catalog`);
  return e.id;
};

/**
 * A workbook with every sheet filled: mapping rows (one plant and one material mapped in the workbook, the
 * others resolved on the service), 2 companies, 2 supplier plants, 3 supplier products (one with a hazardous
 * substance), a silo with items of 2 products, 2 instances, a prechain product and 2 BOMs.
 */
export function fullWorkbook(cat: Catalog): SheetData {
  return {
    plants: [{ plant_code: 'HEID', plant_id: idOf(cat.plants, 'PL-HEID') }],
    materials: [
      { material_code: 'CEM1', category: 'elementary', material_type_id: idOf(cat.elementaries, 'MAT-CEM1') },
    ],
    'supplier-companies': [
      { external_id: 'SC-1', name: 'Holcim', country: 'DE' },
      { external_id: 'SC-2', name: 'Dyckerhoff' },
    ],
    'supplier-plants': [
      {
        external_id: 'SPL-1',
        name: 'Werk Lägerdorf',
        supplier_company_external_id: 'SC-1',
        country: 'DE',
        city: 'Lägerdorf',
      },
      { external_id: 'SPL-2', name: 'Werk Deuna', supplier_company_external_id: 'SC-2' },
    ],
    'supplier-products': [
      {
        external_id: 'SP-1',
        name: 'CEM I 42,5 R Holcim',
        plant_code: 'HEID',
        material_code: 'CEM1',
        supplier_plant_external_id: 'SPL-1',
        unit: 'KG',
        truck_km: 120,
      },
      {
        external_id: 'SP-2',
        name: 'CEM I 42,5 R Dyckerhoff',
        plant_code: 'HEID',
        material_code: 'CEM1',
        supplier_plant_external_id: 'SPL-2',
        unit: 'KG',
      },
      {
        external_id: 'SP-3',
        name: 'Klinker',
        plant_code: 'PL-MUC',
        material_code: 'MAT-CLINKER',
        unit: 'KG',
        train_km: 300,
        secondary_percentage: 20,
      },
    ],
    'hazardous-substances': [{ supplier_product_external_id: 'SP-3', cas_number: '14808-60-7', mass_share: 0.05 }],
    silos: [{ external_id: 'SILO-1', name: 'Zementsilo 1', plant_code: 'HEID' }],
    'silo-items': [
      { silo_external_id: 'SILO-1', supplier_product_external_id: 'SP-1', year: 2024, amount: 1000 },
      { silo_external_id: 'SILO-1', supplier_product_external_id: 'SP-1', year: 2025, amount: 1200 },
      { silo_external_id: 'SILO-1', supplier_product_external_id: 'SP-2', year: 2025, amount: 800 },
    ],
    'product-instances': [
      { external_id: 'PI-1', product_external_id: 'ART-10011', plant_code: 'HEID', produced_from: 2023 },
      {
        external_id: 'PI-2',
        product_external_id: 'ART-10012',
        plant_code: 'PL-MUC',
        produced_from: 2022,
        produced_to: 2030,
        name: 'CEM I 52,5 R München',
      },
    ],
    'prechain-products': [
      { external_id: 'PC-1', product_instance_external_id: 'PI-1', plant_code: 'PL-MUC', truck_km: 50 },
    ],
    bom: [
      {
        product_instance_external_id: 'PI-2',
        component_type: 'supplier_product',
        component_external_id: 'SP-3',
        mass_kg: 100,
      },
      { product_instance_external_id: 'PI-2', component_type: 'silo', component_external_id: 'SILO-1', mass_kg: 300 },
      {
        product_instance_external_id: 'PI-2',
        component_type: 'prechain_product',
        component_external_id: 'PC-1',
        mass_kg: 50,
      },
      { product_instance_external_id: 'PI-1', component_type: 'silo', component_external_id: 'SILO-1', mass_kg: 950 },
    ],
  };
}

/**
 * A larger workbook for mid-run interruptions: `n` supplier products spread over 4 companies/plants, a silo
 * per 10 products, `instances` product instances each with a BOM of 3 supplier products.
 */
export function bulkWorkbook(cat: Catalog, n: number, instances = 0, prefix = 'B'): SheetData {
  const companies = Array.from({ length: 4 }, (_, i) => ({
    external_id: `${prefix}-SC-${i + 1}`,
    name: `Company ${i + 1}`,
    country: 'DE',
  }));
  const plants = companies.map((c, i) => ({
    external_id: `${prefix}-SPL-${i + 1}`,
    name: `Plant ${i + 1}`,
    supplier_company_external_id: c.external_id,
  }));
  const products = Array.from({ length: n }, (_, i) => ({
    external_id: `${prefix}-SP-${String(i + 1).padStart(4, '0')}`,
    name: `Product ${i + 1}`,
    plant_code: 'PL-HEID',
    material_code: 'MAT-CEM1',
    supplier_plant_external_id: plants[i % plants.length].external_id,
    unit: 'KG',
    truck_km: 10 + (i % 90),
  }));
  const silos: Record<string, unknown>[] = [];
  const items: Record<string, unknown>[] = [];
  for (let s = 0; s * 10 < n; s++) {
    const code = `${prefix}-SILO-${s + 1}`;
    silos.push({ external_id: code, name: `Silo ${s + 1}`, plant_code: 'PL-HEID' });
    for (const p of products.slice(s * 10, s * 10 + 3))
      items.push({ silo_external_id: code, supplier_product_external_id: p.external_id, year: 2025, amount: 100 + s });
  }
  const productCodes = cat.products.map((p) => p.external_id);
  const inst = Array.from({ length: instances }, (_, i) => ({
    external_id: `${prefix}-PI-${i + 1}`,
    product_external_id: productCodes[i % productCodes.length],
    plant_code: 'PL-HEID',
    produced_from: 2020 + (i % 5),
  }));
  const bom = inst.flatMap((pi, i) =>
    [0, 1, 2].map((k) => ({
      product_instance_external_id: pi.external_id,
      component_type: 'supplier_product',
      component_external_id: products[(i * 3 + k) % n].external_id,
      mass_kg: 10 * (k + 1),
    })),
  );
  const data: SheetData = {
    'supplier-companies': companies,
    'supplier-plants': plants,
    'supplier-products': products,
    silos,
    'silo-items': items,
  };
  if (instances) {
    data['product-instances'] = inst;
    data.bom = bom;
  }
  return data;
}
