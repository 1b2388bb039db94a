/**
 * `hotspots`: the per-source breakdown resolved to names (hotspotRows), with each source's share of the
 * year's total. Written whenever the breakdown is readable; otherwise a note says why not.
 */
import { declaredUnitLabel, hotspotRows } from '../analysis.js';
import type { ExportContext } from './context.js';
import {
  INSTANCE_COLUMNS,
  QUANTITY_FORMAT,
  RESULT_YEAR_COLUMNS,
  SHARE_FORMAT,
  VALUE_COLUMNS,
  VALUE_FORMAT,
  col,
  instanceCells,
  text,
  yesNo,
} from './columns.js';
import { SheetBuilder } from './sheet.js';

/** The sheet (also when it is not written: its row count and extra columns are in the stats). */
export function hotspotsSheet(ctx: ExportContext): SheetBuilder {
  const hotspots = new SheetBuilder(
    'hotspots',
    [
      ...INSTANCE_COLUMNS,
      ...RESULT_YEAR_COLUMNS.slice(0, 2),
      text('component_type', 18),
      text('component_external_id', 20),
      text('component_name', 30),
      text('supplier_company', 26),
      text('supplier_plant', 26),
      col('mass_kg', 12, QUANTITY_FORMAT),
      ...VALUE_COLUMNS,
      text('declared_unit', 13),
      col('value_per_declared_unit', 16, VALUE_FORMAT),
      col('share_of_year_total', 12, SHARE_FORMAT),
      col('year_total', 14, VALUE_FORMAT),
      text('component_ref', 38),
    ],
    ctx.maxExtra,
  );
  const bc = ctx.report.breakdown_context;
  if (bc?.readable) {
    for (const r of hotspotRows(ctx.report)) {
      const i = ctx.byId.get(r.instanceId)!;
      hotspots.add({
        ...instanceCells(i),
        year: r.year,
        partial_year: yesNo(r.partial),
        component_type: r.component.componentType,
        component_external_id: r.component.externalId,
        component_name: r.component.name,
        supplier_company: r.component.supplierCompany,
        supplier_plant: r.component.supplierPlant,
        mass_kg: r.component.massKg,
        indicator: r.indicator,
        module: r.module,
        value: r.value,
        unit: r.unit,
        declared_unit: declaredUnitLabel(i.instance.product_unit),
        value_per_declared_unit: r.perDeclaredUnit.value,
        share_of_year_total: r.share,
        year_total: r.yearTotal,
        component_ref: r.component.ref,
      });
    }
    for (const p of bc.problems) ctx.notes.push(`Hotspots: ${p}`);
  } else if (bc?.reason) {
    ctx.notes.push(`No hotspots sheet: ${bc.reason}`);
  }
  return hotspots;
}
