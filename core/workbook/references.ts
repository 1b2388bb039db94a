/**
 * The references rows make to codes: a supplier plant → its supplier company, a supplier product → plant,
 * material and supplier plant, a silo item → silo and supplier product, a BOM row → instance and component,
 * and so on (the registry's `refersTo`). Each resolves in the workbook (a row defines the code, or a mapping
 * sheet gives its service id) or must be resolved on the service by the planner.
 */
import { ENTITIES, IDENTIFIED_KINDS } from '../jobs/entities.js';
import { BOM_COMPONENT_TYPES } from '../spec/constants.js';
import { runAtOnce, STEP_ROWS } from '../throttle.js';
import { getSheet } from './registry.js';
import { sourceCellOf } from './sheet-parts.js';
import {
  DATA_SHEET_NAMES,
  type DataSheetName,
  type EntityType,
  type ParsedSheet,
  type ParsedWorkbook,
  type ReferencedCode,
  type ReferencedCodes,
  type WorkbookReference,
} from './types.js';

/** Sheet where rows of an entity type are defined, and the field holding their code. */
export const DEFINED_IN: Partial<Record<EntityType, { sheet: DataSheetName; field: string; idField?: string }>> = {
  // The identified kinds: by external_id in their sheet (the entity table, jobs/entities.ts).
  ...Object.fromEntries(IDENTIFIED_KINDS.map((k) => [k, { sheet: ENTITIES[k].sheet, field: 'external_id' }])),
  // Mapping sheets resolve a code in the workbook only when they give the service id.
  plant: { sheet: 'plants', field: 'plant_code', idField: 'plant_id' },
  material: { sheet: 'materials', field: 'material_code', idField: 'material_type_id' },
};

/** The entity type a BOM row's component_type names (the spec's component types are entity types). */
const COMPONENT_ENTITY: Record<string, EntityType> = Object.fromEntries(
  BOM_COMPONENT_TYPES.map((t) => [t, t satisfies EntityType]),
);

/** entity type → code → first defining row, for the entity types asked for. Work for a Slicer (per row). */
function* definedCodes(
  parsed: ParsedWorkbook,
  entities: Iterable<EntityType>,
): Generator<void, Map<EntityType, Map<string, number>>> {
  let step = 0;
  const sheets = new Map(parsed.sheets.map((s) => [s.name, s]));
  const defined = new Map<EntityType, Map<string, number>>();
  for (const entity of entities) {
    const where = DEFINED_IN[entity];
    const m = new Map<string, number>();
    for (const r of (where && sheets.get(where.sheet)?.rows) || []) {
      if (++step % STEP_ROWS === 0) yield;
      const code = r.values[where!.field];
      if (typeof code !== 'string') continue;
      if (where!.idField && typeof r.values[where!.idField] !== 'string') continue;
      if (!m.has(code)) m.set(code, r.row);
    }
    defined.set(entity, m);
  }
  return defined;
}

/** Call `visit` for every reference, without building an object per reference. Work for a Slicer (per row). */
function* eachReference(
  parsed: ParsedWorkbook,
  visit: (sheet: ParsedSheet, row: number, field: string, entityType: EntityType, code: string) => void,
): Generator<void> {
  let step = 0;
  const byName = new Map(parsed.sheets.map((s) => [s.name, s]));
  for (const name of DATA_SHEET_NAMES) {
    const sheet = byName.get(name);
    if (!sheet) continue;
    const refCols = Object.entries(getSheet(name).columns).filter(([, c]) => c.refersTo);
    const fields = refCols.map(([field]) => field);
    const targets = refCols.map(([, col]) => col.refersTo!);
    const rows = sheet.rows;
    for (let i = 0; i < rows.length; i++) {
      if (++step % STEP_ROWS === 0) yield;
      const row = rows[i];
      for (let j = 0; j < fields.length; j++) {
        const field = fields[j];
        const code = row.values[field];
        if (typeof code !== 'string') continue;
        const target = targets[j];
        const entityType =
          target === 'by_component_type' ? COMPONENT_ENTITY[String(row.values.component_type)] : target;
        if (entityType) visit(sheet, row.row, field, entityType, code);
      }
    }
  }
}

/** Every distinct code referred to, per entity type, with where it resolves. */
export function referencedCodes(parsed: ParsedWorkbook): ReferencedCodes {
  return runAtOnce(referencedCodesWork(parsed));
}

/** referencedCodes as work for a Slicer (core/throttle.ts): it may pause at each row. */
export function* referencedCodesWork(parsed: ParsedWorkbook): Generator<void, ReferencedCodes> {
  let step = 0;
  const out = new Map<EntityType, Map<string, ReferencedCode>>();
  yield* eachReference(parsed, (sheet, row, field, entityType, code) => {
    let m = out.get(entityType);
    if (!m) out.set(entityType, (m = new Map()));
    const known = m.get(code);
    if (known) known.uses++;
    else
      m.set(code, {
        code,
        resolution: 'service',
        target: null,
        uses: 1,
        first: { sheet: sheet.name, row, field, cell: sourceCellOf(sheet, field, row).cell ?? '' },
      });
  });
  // Where each referenced code is defined in the workbook (only the entity types referred to are indexed).
  const defined = yield* definedCodes(parsed, out.keys());
  const result: ReferencedCodes = {};
  for (const [entity, m] of out) {
    const where = DEFINED_IN[entity];
    const d = defined.get(entity);
    for (const ref of m.values()) {
      if (++step % STEP_ROWS === 0) yield;
      const targetRow = d?.get(ref.code);
      if (targetRow !== undefined && where) {
        ref.resolution = 'workbook';
        ref.target = { sheet: where.sheet, row: targetRow };
      }
    }
    result[entity] = [...m.values()];
  }
  return result;
}

/** The references each row makes, one object per (row, field), in sheet order. */
export function* listReferences(parsed: ParsedWorkbook): Generator<WorkbookReference> {
  const defined = runAtOnce(definedCodes(parsed, Object.keys(DEFINED_IN) as EntityType[]));
  const batch: WorkbookReference[] = [];
  // eachReference is a callback walk; collect per sheet row batch to yield lazily.
  const byName = new Map(parsed.sheets.map((s) => [s.name, s]));
  for (const name of DATA_SHEET_NAMES) {
    const sheet = byName.get(name);
    if (!sheet) continue;
    const one: ParsedWorkbook = { ...parsed, sheets: [sheet] };
    runAtOnce(
      eachReference(one, (s, row, field, entityType, code) => {
        const targetRow = defined.get(entityType)?.get(code);
        const where = DEFINED_IN[entityType];
        batch.push({
          sheet: s.name,
          row,
          field,
          cell: sourceCellOf(s, field, row).cell ?? '',
          entityType,
          code,
          resolution: targetRow !== undefined ? 'workbook' : 'service',
          target: targetRow !== undefined && where ? { sheet: where.sheet, row: targetRow } : null,
        });
      }),
    );
    yield* batch.splice(0);
  }
}
