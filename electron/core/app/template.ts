/**
 * Templates for the UI: the combined onboarding workbook or one sheet, optionally pre-filled with reference
 * data from the current connection (plants and material codes in the mapping sheets, the products
 * reference sheet). The CLI's `template --with-reference-data` can reuse fetchTemplateReferenceData.
 */
import type { ApiClient } from '../api/index.js';
import { createApiClient } from '../api/index.js';
import { UNITS } from '../spec/constants.js';
import type { Unit } from '../spec/constants.js';
import type { ProductsReferenceRow, SheetRows } from '../workbook/registry.js';
import { buildTemplate, templateFileName } from '../workbook/template.js';
import type { TemplateReferenceData } from '../workbook/template.js';
import type { DataSheetName } from '../workbook/types.js';
import type { Connection } from './profiles.js';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface ReferenceDataResult {
  data: TemplateReferenceData;
  counts: { plants: number; materials: number; products: number };
  /** parts the key may not read (403): left out, with the err_code */
  skipped: { part: 'plants' | 'materials' | 'products'; errCode: string }[];
}

async function collect<T>(iter: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iter) out.push(x);
  return out;
}

function permissionCode(err: unknown): string | null {
  const e = err as { status?: unknown; err_code?: unknown };
  return e && e.status === 403 && typeof e.err_code === 'string' ? e.err_code : null;
}

/** One walk per collection (limit 200), never one request per row. */
export async function fetchTemplateReferenceData(client: ApiClient, signal?: AbortSignal): Promise<ReferenceDataResult> {
  const skipped: ReferenceDataResult['skipped'] = [];
  const guard = async <T>(part: 'plants' | 'materials' | 'products', run: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await run();
    } catch (err) {
      const code = permissionCode(err);
      if (code === null) throw err;
      skipped.push({ part, errCode: code });
      return [];
    }
  };
  const o = { signal };
  const [plants, materials, products] = await Promise.all([
    guard('plants', async () => {
      const all = await collect(client.plants.walk({}, o));
      return all
        .filter((p): p is typeof p & { external_id: string } => typeof p.external_id === 'string' && p.external_id !== '')
        .map((p): SheetRows['plants'] => ({ plant_code: p.external_id, plant_id: p.id }));
    }),
    guard('materials', async () => {
      const [elementaries, composites] = await Promise.all([collect(client.elementaries.walk({}, o)), collect(client.composites.walk({}, o))]);
      const rows: SheetRows['materials'][] = [];
      for (const e of elementaries) if (e.external_id) rows.push({ material_code: e.external_id, category: 'elementary', material_type_id: e.id });
      for (const c of composites) if (c.external_id) rows.push({ material_code: c.external_id, category: 'composite', material_type_id: c.id });
      return rows;
    }),
    guard('products', async () => {
      const all = await collect(client.products.walk({}, o));
      return all
        .filter((p) => (UNITS as readonly string[]).includes(p.unit))
        .map((p): ProductsReferenceRow => ({ external_id: p.external_id, name: p.name, unit: p.unit as Unit, description: p.description || null, id: p.id }));
    }),
  ]);
  const byCode = <T>(key: (r: T) => string) => (a: T, b: T) => key(a).localeCompare(key(b));
  plants.sort(byCode((r) => r.plant_code));
  materials.sort(byCode((r) => r.material_code));
  products.sort(byCode((r) => r.external_id ?? r.name));
  return {
    data: { plants, materials, products },
    counts: { plants: plants.length, materials: materials.length, products: products.length },
    skipped,
  };
}

export interface GeneratedTemplate {
  fileName: string;
  mimeType: string;
  bytes: Buffer;
  referenceData: ReferenceDataResult | null;
}

export async function generateTemplate(
  sheet: DataSheetName | 'all',
  reference: Connection | null,
  o: { signal?: AbortSignal } = {},
): Promise<GeneratedTemplate> {
  let referenceData: ReferenceDataResult | null = null;
  if (reference) {
    const client = createApiClient({ baseUrl: reference.baseUrl, apiKey: reference.apiKey, timeoutMs: 30_000 });
    try {
      referenceData = await fetchTemplateReferenceData(client, o.signal);
    } finally {
      await client.close();
    }
  }
  const bytes = await buildTemplate({ sheets: sheet === 'all' ? undefined : [sheet], referenceData: referenceData?.data });
  const base = templateFileName(sheet === 'all' ? undefined : sheet);
  const fileName = reference ? base.replace(/\.xlsx$/, '-prefilled.xlsx') : base;
  return { fileName, mimeType: XLSX_MIME, bytes, referenceData };
}
