/**
 * Workbook-local validation: the zod row schema of each sheet, the spec rules of one row
 * (electron/core/spec/rules.ts through each sheet's rowRules), then checks across sheets that need no
 * service: duplicate keys in a sheet, a (component_type, component) twice in one instance's BOM, silo items
 * at the silo's plant and of one material type; and the codes the workbook refers to (defined in the
 * workbook or to be resolved on the service, see references.ts). Cancellable, with progress.
 */
import type { z } from 'zod';
import { checkSiloItems, findDuplicateBomComponents, type SiloItemFacts } from '../spec/rules.js';
import { expectation, expectationParams, type Column } from './columns.js';
import { show } from './coerce.js';
import { IssueList } from './issues.js';
import { referencedCodes } from './references.js';
import { closestCodes } from './similar.js';
import { DATA_SHEETS, getSheet } from './registry.js';
import { fieldOfRulePath, type SheetDef } from './sheet-def.js';
import { partsOf, sourceCellOf, sourceRowOf } from './sheet-parts.js';
import {
  type DataSheetName,
  type Issue,
  type IssueCode,
  type IssueParams,
  type ParsedRow,
  type ParsedSheet,
  type ParsedWorkbook,
  type ReadProgress,
  type Severity,
  type SheetValidation,
  type ValidationReport,
  DELETE_ROW_FIELDS,
  type RowAction,
} from './types.js';
import { Throttle } from '../throttle.js';

export interface ValidateOptions {
  signal?: AbortSignal;
  onProgress?: (p: ReadProgress) => void;
  maxIssues?: number;
}

const YIELD_EVERY = 2000;

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

class Context {
  readonly issues: IssueList;
  readonly blocked = new Map<DataSheetName, Set<number>>();
  readonly sheets = new Map<DataSheetName, ParsedSheet>();

  constructor(parsed: ParsedWorkbook, maxIssues: number) {
    this.issues = new IssueList(maxIssues);
    for (const s of parsed.sheets) this.sheets.set(s.name, s);
  }

  block(sheet: DataSheetName, row: number): void {
    let set = this.blocked.get(sheet);
    if (!set) this.blocked.set(sheet, (set = new Set()));
    set.add(row);
  }

  /** Adds an issue at a row (and its field's cell); an error also blocks the row. */
  add(
    severity: Severity,
    sheet: ParsedSheet,
    row: number,
    field: string | null,
    code: IssueCode,
    message: string,
    params?: IssueParams,
  ): void {
    // At the source's own address (a sheet fed by several sources: the file the row came from).
    const at = sourceCellOf(sheet, field, row);
    this.issues.add({
      severity,
      code,
      sheet: at.sheet,
      cell: at.cell,
      row: at.row,
      field,
      message,
      ...(params && { params }),
    });
    if (severity === 'error') this.block(sheet.name, row);
  }

  error(
    sheet: ParsedSheet,
    row: number,
    field: string | null,
    code: IssueCode,
    message: string,
    params?: IssueParams,
  ): void {
    this.add('error', sheet, row, field, code, message, params);
  }

  warning(
    sheet: ParsedSheet,
    row: number,
    field: string | null,
    code: IssueCode,
    message: string,
    params?: IssueParams,
  ): void {
    this.add('warning', sheet, row, field, code, message, params);
  }
}

/** Validate a parsed workbook. Throws only when aborted. */
export async function validateWorkbook(
  parsed: ParsedWorkbook,
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const ctx = new Context(parsed, options.maxIssues ?? 10_000);
  const total = parsed.sheets.reduce((n, s) => n + s.rows.length, 0);
  let done = 0;
  const throttle = new Throttle();
  const tick = async (sheet: string) => {
    await new Promise<void>((r) => setImmediate(r));
    if (signal?.aborted) throw abortError(signal);
    if (onProgress && throttle.pass()) {
      onProgress({
        phase: 'validating',
        sheet,
        rows: done,
        totalRows: total,
        fraction: total ? Math.min(0.99, done / total) : 0,
      });
    }
  };

  if (parsed.readable) {
    // 1. rows: schema, then the spec rules of one row
    for (const sheet of orderedSheets(parsed)) {
      const def = getSheet(sheet.name);
      for (const row of sheet.rows) {
        validateRow(ctx, def, sheet, row);
        if (++done % YIELD_EVERY === 0) await tick(sheet.sheetName);
      }
    }
    await tick('');
    // 2. across rows and sheets
    for (const sheet of orderedSheets(parsed)) checkDuplicateKeys(ctx, getSheet(sheet.name), sheet);
    checkBomDuplicates(ctx);
    checkSilos(ctx);
  }
  // An empty or unfilled workbook is never "no problems": nothing would be imported.
  const unread = parsed.sheets.some((s) => s.unreadRows !== undefined);
  if (parsed.readable && total === 0 && !unread && !parsed.issues.some((i) => i.code === 'no_known_sheet'))
    ctx.issues.add({
      severity: 'error',
      code: 'no_data_rows',
      sheet: null,
      cell: null,
      row: null,
      field: null,
      message: `No data rows: ${parsed.file} has no filled row below the header of any sheet. Nothing would be imported.`,
      params: { file: parsed.file },
    });
  const references = parsed.readable ? referencedCodes(parsed) : {};
  signal?.throwIfAborted();
  onProgress?.({ phase: 'validating', sheet: null, rows: total, totalRows: total, fraction: 1 });

  const issues = sortIssues(parsed, [...readerIssues(parsed), ...ctx.issues.done()]);
  const errors = issues.filter((i) => i.severity === 'error').length;
  const sheets: SheetValidation[] = orderedSheets(parsed).map((s) => ({
    name: s.name,
    rows: s.rows.length,
    blockedRows: [...(ctx.blocked.get(s.name) ?? [])].sort((a, b) => a - b),
    sheetName: partsOf(s)
      .map((p) => p.sheetName)
      .join(' + '),
    ...(s.unreadRows !== undefined && { unreadRows: s.unreadRows }),
    ...(s.ignoredColumns && { ignoredColumns: s.ignoredColumns }),
  }));
  return { ok: errors === 0 && parsed.readable, errors, warnings: issues.length - errors, issues, sheets, references };
}

/** The reader's issues, without those at cells a delete row does not use or of ignored rows. */
function readerIssues(parsed: ParsedWorkbook): Issue[] {
  const special = new Map<string, RowAction>();
  for (const s of parsed.sheets)
    for (const r of s.rows) {
      const a = rowActionOf(r);
      if (a === 'delete' || a === 'ignore') {
        const at = sourceRowOf(s, r.row);
        special.set(`${at.part.sheetName}\u0000${at.row}`, a);
      }
    }
  if (special.size === 0) return parsed.issues;
  return parsed.issues.filter((i) => {
    if (i.sheet === null || i.row === null) return true;
    const a = special.get(`${i.sheet}\u0000${i.row}`);
    if (!a) return true;
    return a === 'delete' && (i.field === null || DELETE_ROW_FIELDS.includes(i.field));
  });
}

function orderedSheets(parsed: ParsedWorkbook): ParsedSheet[] {
  const order = new Map(DATA_SHEETS.map((d, i) => [d.name, i]));
  return [...parsed.sheets].sort((a, b) => (order.get(a.name) ?? 99) - (order.get(b.name) ?? 99));
}

// ---------------------------------------------------------------- one row

/** The row's `action` cell (blank = upsert); an unknown value is reported by the column's schema. */
export function rowActionOf(row: { values: Record<string, unknown> }): RowAction {
  const v = row.values.action;
  return v === 'create' || v === 'update' || v === 'delete' || v === 'ignore' ? v : 'upsert';
}

/** A delete row needs its external_id only; an ignored row is skipped: neither is checked beyond that. */
function validateActionRow(ctx: Context, def: SheetDef, sheet: ParsedSheet, row: ParsedRow, action: RowAction): void {
  if (action === 'ignore') return;
  const invalid = row.invalid ?? [];
  for (const field of DELETE_ROW_FIELDS) {
    const col = def.columns[field];
    if (!col || invalid.includes(field)) {
      if (invalid.includes(field)) ctx.block(sheet.name, row.row);
      continue;
    }
    const value = row.values[field];
    const res = col.schema.safeParse(value);
    if (value === undefined || value === null || !res.success) {
      const zi = res.success ? undefined : res.error.issues[0];
      const d = zi
        ? describeSchemaIssue(zi, field, col, value)
        : { code: 'required' as const, message: `${field} is required but the cell is blank` };
      ctx.error(sheet, row.row, field, d.code, d.message, d.params);
    }
  }
  const unused = Object.keys(row.values).filter(
    (f) => def.columns[f] && !DELETE_ROW_FIELDS.includes(f) && row.values[f] !== undefined && row.values[f] !== null,
  );
  if (unused.length)
    ctx.warning(
      sheet,
      row.row,
      null,
      'delete_cells_unused',
      `a delete row uses only its external_id; not used: ${unused.join(', ')}`,
      { fields: unused.join(', ') },
    );
}

function validateRow(ctx: Context, def: SheetDef, sheet: ParsedSheet, row: ParsedRow): void {
  const action = rowActionOf(row);
  // An action the sheet does not allow (delete on a BOM row) is reported by the column's schema below.
  const allowed = def.columns.action?.allowed?.includes(action) === true;
  if (allowed && (action === 'delete' || action === 'ignore')) return validateActionRow(ctx, def, sheet, row, action);
  const invalid = row.invalid;
  if (invalid?.length) ctx.block(sheet.name, row.row);
  // The zod schema decides; the quick check (never looser) only spares it the rows that are plainly fine.
  const res = def.quickAccept(row.values)
    ? { success: true as const, data: row.values }
    : def.schema.safeParse(row.values);
  if (!res.success) {
    const reported = new Set<string>();
    for (const zi of res.error.issues) {
      const field = typeof zi.path[0] === 'string' ? zi.path[0] : null;
      if (!field || reported.has(field) || invalid?.includes(field)) continue;
      reported.add(field);
      const col = def.columns[field];
      if (!col) continue;
      const { code, message, params } = describeSchemaIssue(zi, field, col, row.values[field]);
      ctx.error(sheet, row.row, field, code, message, params);
    }
    return;
  }
  if (invalid?.length || !def.rowRules) return;
  if (def.ruleFields && !def.ruleFields.some((f) => row.values[f] !== undefined && row.values[f] !== null)) return;
  for (const v of def.rowRules(res.data as never)) {
    const field = fieldOfRulePath(v.path);
    const value = row.values[field];
    const got = value !== undefined && value !== null ? show(value) : undefined;
    ctx.error(
      sheet,
      row.row,
      def.columns[field] ? field : null,
      'rule',
      `${v.msg}${got !== undefined ? ` (got ${got})` : ''}`,
      {
        rule: v.msg,
        errCode: v.err_code,
        ruleField: field,
        ...(got !== undefined && { got }),
      },
    );
  }
}

function describeSchemaIssue(
  zi: z.core.$ZodIssue,
  field: string,
  col: Column,
  value: unknown,
): { code: IssueCode; message: string; params?: IssueParams } {
  if (value === undefined) return { code: 'required', message: `${field} is required but the cell is blank` };
  if (value === null)
    return { code: 'clear_required', message: `${field} is required: it cannot be cleared with #CLEAR` };
  const expected = (code: IssueCode) => ({
    code,
    message: `${field}: expected ${expectation(col)}, got ${show(value)}`,
    params: { ...expectationParams(col), got: show(value) },
  });
  switch (zi.code) {
    case 'too_big':
      if (typeof value === 'string')
        return {
          code: 'too_long',
          message: `${field} is ${value.length.toLocaleString('en')} characters long; at most ${String(zi.maximum)} are allowed`,
          params: { length: value.length, max: Number(zi.maximum) },
        };
      return expected('out_of_range');
    case 'too_small':
      return expected('out_of_range');
    case 'invalid_format':
      if (zi.format === 'regex')
        return {
          code: 'control_characters',
          message: `${field} contains control characters (line breaks, tabs or invisible characters); remove them`,
        };
      return expected('not_allowed');
    case 'invalid_value':
      return expected('not_allowed');
    case 'not_multiple_of':
      return expected('out_of_range');
    case 'invalid_type':
      if (col.type === 'year' || col.type === 'integer') return expected('out_of_range');
      return expected('wrong_type');
    default:
      return expected('wrong_type');
  }
}

// ---------------------------------------------------------------- across rows

function keyLabel(def: SheetDef, values: readonly unknown[]): string {
  const key = def.key ?? [];
  return key.length === 1 ? `${key[0]} ${show(values[0])}` : key.map((k, i) => `${k} ${show(values[i])}`).join(', ');
}

function checkDuplicateKeys(ctx: Context, def: SheetDef, sheet: ParsedSheet): void {
  const key = def.key;
  if (!key?.length) return;
  // First row per key; a list only once a key repeats (most keys do not).
  const groups = new Map<string, ParsedRow | ParsedRow[]>();
  const single = key.length === 1 ? key[0] : null;
  for (const row of sheet.rows) {
    if (rowActionOf(row) === 'ignore') continue;
    let k: string;
    if (single !== null) {
      const v = row.values[single];
      if (v === undefined || v === null) continue;
      k = String(v);
    } else {
      const parts = key.map((f) => row.values[f]);
      if (parts.some((p) => p === undefined || p === null)) continue;
      k = parts.join('\u0000');
    }
    const g = groups.get(k);
    if (g === undefined) groups.set(k, row);
    else if (Array.isArray(g)) g.push(row);
    else groups.set(k, [g, row]);
  }
  for (const rows of groups.values()) {
    if (!Array.isArray(rows)) continue;
    const label = keyLabel(
      def,
      key.map((k) => rows[0].values[k]),
    );
    // Rows of one source by number; of several sources with their file (`MAT_2025-10.csv!3, MAT_2025-11.csv!3`).
    const where = rows
      .map((r) => {
        const at = sourceRowOf(sheet, r.row);
        return sheet.parts ? `${at.part.sheetName}!${at.row}` : String(at.row);
      })
      .join(', ');
    for (const r of rows)
      ctx.error(
        sheet,
        r.row,
        key[0],
        'duplicate_key',
        `${label} appears ${rows.length} times in ${def.name} (rows ${where}); each must be unique`,
        {
          key: label,
          count: rows.length,
          sheetName: def.name,
          rows: where,
        },
      );
  }
}

/** The spec's BOM rule per instance: each (component_type, component) at most once. */
function checkBomDuplicates(ctx: Context): void {
  const sheet = ctx.sheets.get('bom');
  if (!sheet) return;
  const byInstance = new Map<string, ParsedRow[]>();
  for (const row of sheet.rows) {
    if (rowActionOf(row) === 'ignore') continue;
    const inst = row.values.product_instance_external_id;
    if (
      typeof inst !== 'string' ||
      typeof row.values.component_type !== 'string' ||
      typeof row.values.component_external_id !== 'string'
    )
      continue;
    const g = byInstance.get(inst);
    if (g) g.push(row);
    else byInstance.set(inst, [row]);
  }
  // Codes are compared exactly: each distinct code gets its own token (the rule's key folds case for uuids).
  const tokens = new Map<string, string>();
  const token = (code: string) => {
    let t = tokens.get(code);
    if (!t) tokens.set(code, (t = String(tokens.size)));
    return t;
  };
  for (const [inst, rows] of byInstance) {
    const comps = rows.map((r) => ({
      type: r.values.component_type as 'supplier_product',
      ref: token(r.values.component_external_id as string),
    }));
    for (const v of findDuplicateBomComponents(comps)) {
      const i = Number(/\[(\d+)\]/.exec(v.path)?.[1] ?? -1);
      const r = rows[i];
      if (!r) continue;
      const first = rows.find(
        (x) =>
          x.values.component_type === r.values.component_type &&
          x.values.component_external_id === r.values.component_external_id,
      )!;
      ctx.error(
        sheet,
        r.row,
        'component_external_id',
        'duplicate_bom_component',
        `${String(r.values.component_type)} ${show(r.values.component_external_id)} appears twice in the BOM of ${show(inst)} (first in row ${first.row}); a BOM holds each component once — add the masses into one row`,
        {
          componentType: String(r.values.component_type),
          component: show(r.values.component_external_id),
          instance: show(inst),
          firstRow: first.row,
        },
      );
      ctx.block(sheet.name, first.row);
    }
  }
}

/** Silo items against the silo's plant and one material type, for silos and products defined in the workbook. */
function checkSilos(ctx: Context): void {
  const silos = ctx.sheets.get('silos');
  const items = ctx.sheets.get('silo-items');
  const products = ctx.sheets.get('supplier-products');
  if (!silos || !items) return;
  const plantIds = mappingIndex(ctx, 'plants', 'plant_code', 'plant_id');
  const materialIds = mappingIndex(ctx, 'materials', 'material_code', 'material_type_id');
  const plantKey = (code: unknown) => (typeof code === 'string' ? (plantIds.get(code) ?? `code:${code}`) : undefined);
  const productByCode = new Map<string, ParsedRow>();
  for (const r of products?.rows ?? [])
    if (typeof r.values.external_id === 'string') productByCode.set(r.values.external_id, r);
  const siloByCode = new Map<string, ParsedRow>();
  for (const r of silos.rows) if (typeof r.values.external_id === 'string') siloByCode.set(r.values.external_id, r);

  const itemsBySilo = new Map<string, Map<string, ParsedRow[]>>();
  for (const r of items.rows) {
    const silo = r.values.silo_external_id;
    const sp = r.values.supplier_product_external_id;
    if (typeof silo !== 'string' || typeof sp !== 'string') continue;
    let m = itemsBySilo.get(silo);
    if (!m) itemsBySilo.set(silo, (m = new Map()));
    const list = m.get(sp);
    if (list) list.push(r);
    else m.set(sp, [r]);
  }
  for (const [siloCode, byProduct] of itemsBySilo) {
    const silo = siloByCode.get(siloCode);
    const siloPlant = plantKey(silo?.values.plant_code);
    if (!silo || !siloPlant) continue;
    const codes = [...byProduct.keys()];
    const facts: SiloItemFacts[] = codes.map((code) => {
      const p = productByCode.get(code);
      const material = p?.values.material_code;
      return {
        supplier_product_id: code,
        product:
          p && typeof p.values.plant_code === 'string' && typeof material === 'string'
            ? {
                plant_id: plantKey(p.values.plant_code)!,
                material_key: materialIds.get(material) ?? `code:${material}`,
                supplier_plant_id:
                  typeof p.values.supplier_plant_external_id === 'string' ? p.values.supplier_plant_external_id : null,
              }
            : undefined,
      };
    });
    for (const v of checkSiloItems(siloPlant, facts)) {
      if (v.err_code === 'err_not_found') continue; // not in the workbook: the service checks it
      const i = Number(/\[(\d+)\]/.exec(v.path)?.[1] ?? -1);
      const code = codes[i];
      const row = code !== undefined ? byProduct.get(code)?.[0] : undefined;
      if (!row) continue;
      const p = productByCode.get(code)!;
      if (v.err_code === 'err_supplier_product_missing_supplier_plant')
        ctx.error(
          items,
          row.row,
          'supplier_product_external_id',
          'silo_item_no_supplier_plant',
          `Supplier product ${show(code)} (supplier-products row ${p.row}) has no supplier_plant_external_id: the service refuses a silo item without a supplier plant; fill it in`,
          { product: show(code), productRow: p.row },
        );
      else if (/plant/.test(v.msg))
        ctx.error(
          items,
          row.row,
          'supplier_product_external_id',
          'silo_item_plant',
          `Supplier product ${show(code)} is at plant ${show(p.values.plant_code)}, silo ${show(siloCode)} at plant ${show(silo.values.plant_code)}: a silo holds supplier products of its own plant only`,
          {
            product: show(code),
            productPlant: show(p.values.plant_code),
            silo: show(siloCode),
            siloPlant: show(silo.values.plant_code),
          },
        );
      else if (/material/.test(v.msg) && typoOfSiblingMaterial(code, byProduct, productByCode, materialIds)) {
        // Most likely a typo of the material code: said at its cause (the supplier product's material_code).
        const [typo, meant] = typoOfSiblingMaterial(code, byProduct, productByCode, materialIds)!;
        const cause = [...productByCode.values()].find((r) => r.values.material_code === typo) ?? p;
        const prodSheet = ctx.sheets.get('supplier-products')!;
        ctx.error(
          prodSheet,
          cause.row,
          'material_code',
          'silo_item_material',
          `material_code ${show(typo)} differs from the other supplier products of silo ${show(siloCode)} (${show(meant)}): did you mean ${meant}?`,
          { product: show(code), material: show(typo), hint: meant, variant: 'hint' },
        );
        ctx.block(items.name, row.row);
      } else if (/material/.test(v.msg))
        ctx.error(
          items,
          row.row,
          'supplier_product_external_id',
          'silo_item_material',
          `Supplier product ${show(code)} has material ${show(p.values.material_code)}, unlike the silo's other items: all supplier products of a silo must have the same material type`,
          { product: show(code), material: show(p.values.material_code) },
        );
      else
        ctx.error(items, row.row, 'supplier_product_external_id', 'rule', `silo ${show(siloCode)}: ${v.msg}`, {
          rule: v.msg,
          errCode: v.err_code,
          ruleField: 'items',
          silo: show(siloCode),
        });
    }
  }
}

/**
 * When the odd material code of a silo's items is a near miss of the code its other items share (`MAT-SNAD`
 * next to `MAT-SAND`, neither mapped to an id in the workbook): [typo, meant].
 */
function typoOfSiblingMaterial(
  code: string,
  byProduct: Map<string, ParsedRow[]>,
  productByCode: Map<string, ParsedRow>,
  materialIds: Map<string, string>,
): [string, string] | undefined {
  const mine = productByCode.get(code)?.values.material_code;
  if (typeof mine !== 'string' || materialIds.has(mine)) return undefined;
  const others = new Set<string>();
  for (const c of byProduct.keys()) {
    const m = productByCode.get(c)?.values.material_code;
    if (c !== code && typeof m === 'string' && m !== mine) others.add(m);
  }
  // The odd one out is the one the others do not share; check both directions.
  for (const o of others) {
    if (closestCodes(mine, [o]).length) {
      const countMine = [...byProduct.keys()].filter((c) => productByCode.get(c)?.values.material_code === mine).length;
      const countOther = [...byProduct.keys()].filter((c) => productByCode.get(c)?.values.material_code === o).length;
      return countMine <= countOther ? [mine, o] : [o, mine];
    }
  }
  return undefined;
}

function mappingIndex(ctx: Context, sheet: DataSheetName, codeField: string, idField: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of ctx.sheets.get(sheet)?.rows ?? []) {
    const code = r.values[codeField];
    const id = r.values[idField];
    if (typeof code === 'string' && typeof id === 'string') out.set(code, id.toLowerCase());
  }
  return out;
}

// ---------------------------------------------------------------- order

function colNumber(cell: string | null): number {
  if (!cell) return 0;
  let n = 0;
  for (const ch of cell) {
    const c = ch.charCodeAt(0);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n;
}

function sortIssues(parsed: ParsedWorkbook, issues: Issue[]): Issue[] {
  const order = new Map<string, number>();
  for (const s of orderedSheets(parsed)) for (const p of partsOf(s)) order.set(p.sheetName, order.size);
  const rank = (i: Issue) => (i.sheet === null ? -1 : (order.get(i.sheet) ?? 1000));
  return issues
    .map((issue, idx) => ({ issue, idx }))
    .sort(
      (a, b) =>
        rank(a.issue) - rank(b.issue) ||
        (a.issue.row ?? 0) - (b.issue.row ?? 0) ||
        colNumber(a.issue.cell) - colNumber(b.issue.cell) ||
        a.idx - b.idx,
    )
    .map((x) => x.issue);
}
