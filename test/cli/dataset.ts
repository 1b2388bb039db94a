/**
 * A valid workbook for the CLI tests, over every data sheet, for the demo seed of the sandbox: supplier
 * companies → plants → products (+ hazardous substances) → silos (+ items) → product instances → prechain
 * products → BOMs, plus the plants/materials mapping sheets. Filled into the template the CLI wrote, by
 * header name, the way a user fills it in Excel.
 */
import ExcelJS from 'exceljs';
import type { ApiClient } from '../../core/api/index.js';
import type { DataSheetName } from '../../core/workbook/types.js';

export type Cell = string | number | null;
export type Row = Record<string, Cell>;
export type SheetData = Partial<Record<DataSheetName, Row[]>>;

const PLANTS = ['PL-HEID', 'PL-MUC'] as const;
const MATERIALS = ['MAT-CEM1', 'MAT-SAND'] as const;
const ARTICLES = [
  'ART-10011',
  'ART-10021',
  'ART-20025',
  'ART-20030',
  'ART-30101',
  'ART-30201',
  'ART-10012',
  'ART-10022',
  'ART-10031',
  'ART-10032',
];
const pad = (n: number) => String(n).padStart(3, '0');

export interface DatasetOptions {
  prefix: string;
  /** Supplier products (≥ 4). Companies: one per 4 products, each with one supplier plant. */
  products: number;
  /** Product instances (2–20). */
  instances: number;
  /** Ids for the mapping sheets (a plant and a material mapped by id; the rest looked up by code). */
  mapping?: { plantId: string; materialId: string };
}

export function buildDataset(o: DatasetOptions): SheetData {
  const p = o.prefix;
  const companies: Row[] = [];
  const supplierPlants: Row[] = [];
  const nCompanies = Math.max(1, Math.ceil(o.products / 4));
  for (let i = 0; i < nCompanies; i++) {
    companies.push({
      external_id: `${p}-SC-${pad(i)}`,
      name: `${p} Lieferant ${i} GmbH`,
      country: i % 2 ? 'AT' : 'DE',
    });
    supplierPlants.push({
      external_id: `${p}-SPL-${pad(i)}`,
      name: `${p} Werk ${i}`,
      supplier_company_external_id: `${p}-SC-${pad(i)}`,
      country: i % 2 ? 'AT' : 'DE',
      city: i % 2 ? 'Linz' : 'Mannheim',
    });
  }
  const products: Row[] = [];
  const hazardous: Row[] = [];
  const groups = new Map<string, string[]>();
  for (let i = 0; i < o.products; i++) {
    const plant = PLANTS[i % 2];
    const material = MATERIALS[Math.floor(i / 2) % 2];
    const code = `${p}-SP-${pad(i)}`;
    products.push({
      external_id: code,
      name: `${p} ${material === 'MAT-CEM1' ? 'Zement' : 'Sand'} ${i}`,
      plant_code: plant,
      material_code: material,
      supplier_plant_external_id: `${p}-SPL-${pad(Math.floor(i / 4))}`,
      unit: 'T',
      truck_km: 10 + i,
      train_km: i % 3 === 0 ? 120 : null,
      ship_km: null,
      barge_km: null,
      epd_id: null,
      lifetime_years: null,
      secondary_percentage: i % 5 === 0 ? 20 : null,
      moisture_content_percentage: null,
    });
    if (i % 7 === 0) hazardous.push({ supplier_product_external_id: code, cas_number: '7440-43-9', mass_share: 0.001 });
    const g = `${plant}|${material}`;
    groups.set(g, [...(groups.get(g) ?? []), code]);
  }
  const silos: Row[] = [];
  const siloItems: Row[] = [];
  const siloOfPlant = new Map<string, string>();
  let s = 0;
  for (const [g, codes] of groups) {
    if (codes.length < 2) continue;
    const [plant] = g.split('|');
    const code = `${p}-SI-${pad(s++)}`;
    silos.push({ external_id: code, name: `${p} Silo ${s}`, plant_code: plant });
    if (!siloOfPlant.has(plant)) siloOfPlant.set(plant, code);
    codes.slice(0, 2).forEach((sp, k) => {
      siloItems.push({ silo_external_id: code, supplier_product_external_id: sp, year: 2024, amount: 100 + 10 * k });
      siloItems.push({ silo_external_id: code, supplier_product_external_id: sp, year: 2025, amount: 110 + 10 * k });
    });
  }
  const instances: Row[] = [];
  for (let i = 0; i < o.instances; i++) {
    instances.push({
      external_id: `${p}-PI-${pad(i)}`,
      product_external_id: ARTICLES[Math.floor(i / 2) % ARTICLES.length],
      plant_code: PLANTS[i % 2],
      produced_from: 2023,
      produced_to: i % 3 === 0 ? null : 2026,
      name: `${p} Instanz ${i}`,
    });
  }
  // Instance 0 is a prechain input at the plant of instance 1 (no cycle: instance 0's BOM has no prechain).
  const prechain: Row[] = [
    {
      external_id: `${p}-PC-000`,
      product_instance_external_id: `${p}-PI-000`,
      plant_code: PLANTS[1],
      truck_km: 35,
      train_km: null,
      ship_km: null,
      barge_km: null,
    },
  ];
  const bom: Row[] = [];
  for (let i = 0; i < o.instances; i++) {
    const plant = PLANTS[i % 2];
    const own = products.filter((r) => r.plant_code === plant).map((r) => r.external_id as string);
    const inst = `${p}-PI-${pad(i)}`;
    bom.push({
      product_instance_external_id: inst,
      component_type: 'supplier_product',
      component_external_id: own[(i >> 1) % own.length],
      mass_kg: 300 + i,
    });
    bom.push({
      product_instance_external_id: inst,
      component_type: 'supplier_product',
      component_external_id: own[((i >> 1) + 1) % own.length],
      mass_kg: 150.5,
    });
    const silo = siloOfPlant.get(plant);
    if (silo)
      bom.push({
        product_instance_external_id: inst,
        component_type: 'silo',
        component_external_id: silo,
        mass_kg: 80,
      });
    if (i === 1)
      bom.push({
        product_instance_external_id: inst,
        component_type: 'prechain_product',
        component_external_id: `${p}-PC-000`,
        mass_kg: 25,
      });
  }
  const data: SheetData = {
    'supplier-companies': companies,
    'supplier-plants': supplierPlants,
    'supplier-products': products,
    'hazardous-substances': hazardous,
    silos,
    'silo-items': siloItems,
    'product-instances': instances,
    'prechain-products': prechain,
    bom,
  };
  if (o.mapping) {
    data.plants = [
      { plant_code: PLANTS[0], plant_id: o.mapping.plantId },
      { plant_code: PLANTS[1], plant_id: null },
    ];
    data.materials = [{ material_code: MATERIALS[0], category: 'elementary', material_type_id: o.mapping.materialId }];
  }
  return data;
}

export function rowCount(data: SheetData): number {
  return Object.values(data).reduce((n, rows) => n + (rows?.length ?? 0), 0);
}

/** Fill a workbook the CLI wrote (template or export) with rows by header name (`lean`: without validations). */
export { fillWorkbook } from '../fixtures/fill-template.js';

/** Change one cell (by sheet, field and the row whose first column equals `key`, or a predicate). */
export async function editCell(
  file: string,
  sheet: string,
  match: (get: (field: string) => unknown) => boolean,
  field: string,
  value: Cell,
  outPath = file,
): Promise<void> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.getWorksheet(sheet);
  if (!ws) throw new Error(`no sheet ${sheet}`);
  const cols = new Map<string, number>();
  ws.getRow(1).eachCell((c, col) => cols.set(String(c.value), col));
  let hit = 0;
  ws.eachRow((row, n) => {
    if (n === 1) return;
    const get = (f: string) => {
      const c = cols.get(f);
      return c === undefined ? undefined : row.getCell(c).value;
    };
    if (match(get)) {
      row.getCell(cols.get(field) as number).value = value;
      hit++;
    }
  });
  if (hit !== 1) throw new Error(`editCell: ${hit} rows matched in ${sheet}`);
  await wb.xlsx.writeFile(outPath);
}

/** Read a sheet of a workbook as objects by header. */
export async function readSheet(file: string, sheet: string): Promise<Record<string, unknown>[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.getWorksheet(sheet);
  if (!ws) return [];
  const header: string[] = [];
  ws.getRow(1).eachCell((c, col) => (header[col] = String(c.value)));
  const out: Record<string, unknown>[] = [];
  ws.eachRow((row, n) => {
    if (n === 1) return;
    const o: Record<string, unknown> = {};
    header.forEach((h, col) => {
      if (h) o[h] = row.getCell(col).value ?? null;
    });
    out.push(o);
  });
  return out;
}

/** Every cell text of a workbook (for key scans). */
export async function workbookText(file: string): Promise<string> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const parts: string[] = [];
  for (const ws of wb.worksheets) ws.eachRow((row) => row.eachCell((c) => parts.push(String(c.text ?? c.value))));
  return parts.join('\n');
}

/**
 * The state of the service for a dataset prefix, in workbook terms (codes, not ids), to compare with the rows
 * that were imported: exactly these entities, no duplicates.
 */
export async function serviceState(client: ApiClient, prefix: string): Promise<SheetData> {
  const mine = <T extends { external_id?: string | null }>(xs: T[]) =>
    xs
      .filter((x) => (x.external_id ?? '').startsWith(`${prefix}-`))
      .sort((a, b) => ((a.external_id ?? '') < (b.external_id ?? '') ? -1 : 1));
  const walk = async <T>(it: AsyncIterable<T>) => {
    const out: T[] = [];
    for await (const x of it) out.push(x);
    return out;
  };
  const [companies, splants, sproducts, silos, instances, prechain, plants, elementaries, productsList] =
    await Promise.all([
      walk(client.supplierCompanies.walk()),
      walk(client.supplierPlants.walk()),
      walk(client.supplierProducts.walk()),
      walk(client.silos.walk()),
      walk(client.productInstances.walk()),
      walk(client.prechainProducts.walk()),
      walk(client.plants.walk()),
      walk(client.elementaries.walk()),
      walk(client.products.walk()),
    ]);
  const code = new Map<string, string>();
  for (const x of [
    ...companies,
    ...splants,
    ...sproducts,
    ...silos,
    ...instances,
    ...prechain,
    ...plants,
    ...elementaries,
    ...productsList,
  ]) {
    if (x.external_id) code.set(x.id, x.external_id);
  }
  const c = (id: unknown) => (typeof id === 'string' ? (code.get(id) ?? `?${id}`) : null);
  const route = (r: unknown) => {
    const o = (r ?? {}) as Record<string, unknown>;
    return {
      truck_km: (o.truck_km as number) ?? null,
      train_km: (o.train_km as number) ?? null,
      ship_km: (o.ship_km as number) ?? null,
      barge_km: (o.barge_km as number) ?? null,
    };
  };
  const out: SheetData = {
    'supplier-companies': mine(companies).map((x) => ({
      external_id: x.external_id ?? null,
      name: x.name ?? null,
      country: x.country ?? null,
    })),
    'supplier-plants': mine(splants).map((x) => ({
      external_id: x.external_id ?? null,
      name: x.name ?? null,
      supplier_company_external_id: c(x.supplier_company_id),
      country: x.country ?? null,
      city: x.city ?? null,
    })),
    'supplier-products': mine(sproducts).map((x) => ({
      external_id: x.external_id ?? null,
      name: x.name ?? null,
      plant_code: c(x.plant_id),
      material_code: c((x.material_type as { elementary_id?: string }).elementary_id),
      supplier_plant_external_id: c(x.supplier_plant_id),
      unit: x.unit ?? null,
      ...route(x.transport_route),
      epd_id: x.epd_id ?? null,
      lifetime_years: x.lifetime_years ?? null,
      secondary_percentage: x.secondary_percentage ?? null,
      moisture_content_percentage: x.moisture_content_percentage ?? null,
    })),
    'hazardous-substances': mine(sproducts).flatMap((x) =>
      (x.hazardous_substances ?? []).map((h) => ({
        supplier_product_external_id: x.external_id ?? null,
        cas_number: h.cas_number as string,
        mass_share: h.mass_share as number,
      })),
    ),
    silos: mine(silos).map((x) => ({ external_id: x.external_id ?? null, name: x.name, plant_code: c(x.plant_id) })),
    'silo-items': mine(silos).flatMap((x) =>
      x.items
        .flatMap((it) =>
          it.annual_items.map((a) => ({
            silo_external_id: x.external_id ?? null,
            supplier_product_external_id: c(it.supplier_product_id),
            year: a.year,
            amount: a.amount,
          })),
        )
        .sort((a, b) =>
          `${a.supplier_product_external_id}|${a.year}`.localeCompare(`${b.supplier_product_external_id}|${b.year}`),
        ),
    ),
    'product-instances': mine(instances).map((x) => ({
      external_id: x.external_id ?? null,
      product_external_id: c(x.product_id),
      plant_code: c(x.plant_id),
      produced_from: x.produced_from ?? null,
      produced_to: x.produced_to ?? null,
      name: x.name ?? null,
    })),
    'prechain-products': mine(prechain).map((x) => ({
      external_id: x.external_id ?? null,
      product_instance_external_id: c(x.product_instance_id),
      plant_code: c(x.plant_id),
      ...route(x.transport_route),
    })),
  };
  const bom: Row[] = [];
  for (const inst of mine(instances)) {
    const comps = await client.bom.get(inst.id);
    for (const b of comps
      .map((b) => ({
        product_instance_external_id: inst.external_id ?? null,
        component_type: b.type,
        component_external_id: c(b.ref),
        mass_kg: b.mass_kg,
      }))
      .sort((a, b) =>
        `${a.component_type}|${a.component_external_id}`.localeCompare(
          `${b.component_type}|${b.component_external_id}`,
        ),
      ))
      bom.push(b);
  }
  out.bom = bom;
  return out;
}

/** The dataset in the same normal form as serviceState (sorted, blanks as null, silo items and BOM sorted). */
export function normalised(data: SheetData): SheetData {
  const byExt = (a: Row, b: Row) => String(a.external_id).localeCompare(String(b.external_id));
  const full = (rows: Row[] | undefined, fields: string[]) =>
    (rows ?? []).map((r) => Object.fromEntries(fields.map((f) => [f, r[f] ?? null])) as Row);
  return {
    'supplier-companies': full(data['supplier-companies'], ['external_id', 'name', 'country']).sort(byExt),
    'supplier-plants': full(data['supplier-plants'], [
      'external_id',
      'name',
      'supplier_company_external_id',
      'country',
      'city',
    ]).sort(byExt),
    'supplier-products': full(data['supplier-products'], [
      'external_id',
      'name',
      'plant_code',
      'material_code',
      'supplier_plant_external_id',
      'unit',
      'truck_km',
      'train_km',
      'ship_km',
      'barge_km',
      'epd_id',
      'lifetime_years',
      'secondary_percentage',
      'moisture_content_percentage',
    ]).sort(byExt),
    'hazardous-substances': full(data['hazardous-substances'], [
      'supplier_product_external_id',
      'cas_number',
      'mass_share',
    ]).sort((a, b) => String(a.supplier_product_external_id).localeCompare(String(b.supplier_product_external_id))),
    silos: full(data.silos, ['external_id', 'name', 'plant_code']).sort(byExt),
    'silo-items': full(data['silo-items'], ['silo_external_id', 'supplier_product_external_id', 'year', 'amount']).sort(
      (a, b) =>
        `${a.silo_external_id}|${a.supplier_product_external_id}|${a.year}`.localeCompare(
          `${b.silo_external_id}|${b.supplier_product_external_id}|${b.year}`,
        ),
    ),
    'product-instances': full(data['product-instances'], [
      'external_id',
      'product_external_id',
      'plant_code',
      'produced_from',
      'produced_to',
      'name',
    ]).sort(byExt),
    'prechain-products': full(data['prechain-products'], [
      'external_id',
      'product_instance_external_id',
      'plant_code',
      'truck_km',
      'train_km',
      'ship_km',
      'barge_km',
    ]).sort(byExt),
    bom: full(data.bom, ['product_instance_external_id', 'component_type', 'component_external_id', 'mass_kg']).sort(
      (a, b) =>
        `${a.product_instance_external_id}|${a.component_type}|${a.component_external_id}`.localeCompare(
          `${b.product_instance_external_id}|${b.component_type}|${b.component_external_id}`,
        ),
    ),
  };
}

/** A copy of the data with one cell changed (the row found by `match`). */
export function withCell(
  data: SheetData,
  sheet: DataSheetName,
  match: (r: Row) => boolean,
  field: string,
  value: Cell,
): SheetData {
  const rows = data[sheet] ?? [];
  const hits = rows.filter(match).length;
  if (hits !== 1) throw new Error(`withCell: ${hits} rows matched in ${sheet}`);
  return { ...data, [sheet]: rows.map((r) => (match(r) ? { ...r, [field]: value } : r)) };
}
