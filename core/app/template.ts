/**
 * The template operation, once for the CLI (`template [--with-reference-data]`) and the app (`templates.generate`):
 * the combined onboarding workbook or one sheet, optionally pre-filled with reference data from a connection
 * (plants and material codes in the mapping sheets, the products reference sheet).
 *
 * One behaviour for both: a part the key may not read (403) is left out with a note saying which; a product whose
 * unit is not one of the template's units is left out with a note (never cast into the sheet).
 */
import type { ApiClient } from '../api/index.js';
import { UNITS } from '../spec/constants.js';
import type { Unit } from '../spec/constants.js';
import type { ProductsReferenceRow, SheetRows } from '../workbook/registry.js';
import { buildTemplate, templateFileName } from '../workbook/template.js';
import type { TemplateReferenceData } from '../workbook/template.js';
import type { TemplateLang } from '../workbook/template-words.js';
import type { DataSheetName } from '../workbook/types.js';
import { XLSX_MIME } from './sessions/downloads.js';

export { XLSX_MIME };

export type ReferencePart = 'plants' | 'materials' | 'products';

export interface ReferenceDataResult {
  data: TemplateReferenceData;
  counts: { plants: number; materials: number; products: number };
  /** parts the key may not read (403): left out, with the err_code */
  skipped: { part: ReferencePart; errCode: string }[];
  /** products left out because their unit is not one of the template's units */
  unknownUnits: { name: string; externalId: string | null; unit: string }[];
  /** what was left out, in words (one line each) */
  notes: string[];
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

const PART_WORDS: Record<ReferencePart, string> = {
  plants: 'the plants mapping sheet',
  materials: 'the materials mapping sheet',
  products: 'the products reference sheet',
};

/** One walk per collection (limit 200), never one request per row. */
export async function fetchTemplateReferenceData(
  client: ApiClient,
  signal?: AbortSignal,
): Promise<ReferenceDataResult> {
  const skipped: ReferenceDataResult['skipped'] = [];
  const guard = async <T>(part: ReferencePart, run: () => Promise<T[]>): Promise<T[]> => {
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
  const unknownUnits: ReferenceDataResult['unknownUnits'] = [];
  const [plants, materials, products] = await Promise.all([
    guard('plants', async () => {
      const all = await collect(client.plants.walk({}, o));
      return all
        .filter(
          (p): p is typeof p & { external_id: string } => typeof p.external_id === 'string' && p.external_id !== '',
        )
        .map((p): SheetRows['plants'] => ({ plant_code: p.external_id, plant_id: p.id }));
    }),
    guard('materials', async () => {
      const [elementaries, composites] = await Promise.all([
        collect(client.elementaries.walk({}, o)),
        collect(client.composites.walk({}, o)),
      ]);
      const rows: SheetRows['materials'][] = [];
      for (const e of elementaries)
        if (e.external_id) rows.push({ material_code: e.external_id, category: 'elementary', material_type_id: e.id });
      for (const c of composites)
        if (c.external_id) rows.push({ material_code: c.external_id, category: 'composite', material_type_id: c.id });
      return rows;
    }),
    guard('products', async () => {
      const all = await collect(client.products.walk({}, o));
      const rows: ProductsReferenceRow[] = [];
      for (const p of all) {
        if (!(UNITS as readonly string[]).includes(p.unit)) {
          unknownUnits.push({ name: p.name, externalId: p.external_id ?? null, unit: String(p.unit) });
          continue;
        }
        rows.push({
          external_id: p.external_id,
          name: p.name,
          unit: p.unit as Unit,
          description: p.description || null,
          id: p.id,
        });
      }
      return rows;
    }),
  ]);
  const byCode =
    <T>(key: (r: T) => string) =>
    (a: T, b: T) =>
      key(a).localeCompare(key(b));
  plants.sort(byCode((r) => r.plant_code));
  materials.sort(byCode((r) => r.material_code));
  products.sort(byCode((r) => r.external_id ?? r.name));
  const notes = [
    ...skipped.map((s) => `left out ${PART_WORDS[s.part]}: the key may not read ${s.part} (${s.errCode})`),
    ...(unknownUnits.length
      ? [
          `left out ${unknownUnits.length} product(s) whose unit is not one of ${UNITS.join(', ')}: ` +
            unknownUnits
              .slice(0, 10)
              .map((u) => `${u.externalId ?? u.name} (${u.unit})`)
              .join(', ') +
            (unknownUnits.length > 10 ? ', …' : ''),
        ]
      : []),
  ];
  return {
    data: { plants, materials, products },
    counts: { plants: plants.length, materials: materials.length, products: products.length },
    skipped,
    unknownUnits,
    notes,
  };
}

export interface GeneratedTemplate {
  fileName: string;
  mimeType: string;
  bytes: Buffer;
  referenceData: ReferenceDataResult | null;
}

/**
 * The template of `sheet` (or the combined workbook), pre-filled from `reference` when given. The caller owns the
 * client (the CLI's connected one, the app's for the active profile).
 */
export async function generateTemplate(
  sheet: DataSheetName | 'all',
  o: { reference?: ApiClient | null; signal?: AbortSignal; lang?: TemplateLang } = {},
): Promise<GeneratedTemplate> {
  const referenceData = o.reference ? await fetchTemplateReferenceData(o.reference, o.signal) : null;
  const bytes = await buildTemplate({
    sheets: sheet === 'all' ? undefined : [sheet],
    referenceData: referenceData?.data,
    lang: o.lang,
  });
  const base = templateFileName(sheet === 'all' ? undefined : sheet);
  const fileName = o.reference ? base.replace(/\.xlsx$/, '-prefilled.xlsx') : base;
  return { fileName, mimeType: XLSX_MIME, bytes, referenceData };
}
