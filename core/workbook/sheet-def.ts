/**
 * A sheet definition: name, columns (one description each), the fields that identify a row, and the spec
 * rules that apply to one row. The zod row schema is built from the columns, so it cannot drift from them.
 */
import { z } from 'zod';
import type { RuleViolation } from '../spec/rules.js';
import { quickAccept, type Column, type Columns, type RowOf } from './columns.js';
import type { SheetName } from './types.js';
import type { ValidationContext } from './validation-context.js';

export interface SheetDef<C extends Columns = Columns> {
  name: SheetName;
  /** Position in the onboarding / dependency order (1 = first). */
  step: number;
  /** What the sheet does, for the Instructions sheet and the docs. */
  purpose: string;
  columns: C;
  /** Fields that identify a row within the sheet: a second row with the same values is an error. */
  key?: readonly (keyof C & string)[];
  /** Export-only reference sheet: written by templates, ignored on import. */
  referenceOnly?: boolean;
  /** Spec rules (core/spec/rules.ts) and mapping rules that apply to one valid row. */
  rowRules?: (row: RowOf<C>) => RuleViolation[];
  /** The fields rowRules reads: a row with none of them set cannot break a rule, so the call is skipped. */
  ruleFields?: readonly (keyof C & string)[];
  /**
   * Checks across rows and sheets that need no service (the BOM's components once per instance, silo items at
   * the silo's plant): run once per workbook after every row is checked, whether or not the sheet is in it.
   * Work for a Slicer (core/throttle.ts): a generator that may pause at each `yield` (at least once per row).
   */
  workbookRules?: (ctx: ValidationContext) => Generator<void>;
  /** Row schema: required fields present, optional ones absent or null (#CLEAR); no other fields. */
  schema: z.ZodType<RowOf<C>>;
  /** Conservative fast check derived from the columns: true ⇒ `schema` accepts the row unchanged. */
  quickAccept: (values: Record<string, unknown>) => boolean;
}

export function defineSheet<const C extends Columns>(def: Omit<SheetDef<C>, 'schema' | 'quickAccept'>): SheetDef<C> {
  const shape: Record<string, z.ZodType> = {};
  const checks: { field: string; required: boolean; accept: (v: unknown) => boolean }[] = [];
  for (const [field, col] of Object.entries(def.columns) as [string, Column][]) {
    shape[field] = col.required ? col.schema : col.schema.nullable().optional();
    checks.push({ field, required: col.required, accept: quickAccept(col) });
  }
  const known = new Set(checks.map((c) => c.field));
  const accept = (values: Record<string, unknown>): boolean => {
    for (const k in values) if (!known.has(k)) return false;
    for (const c of checks) {
      const v = values[c.field];
      if (v === undefined || v === null) {
        if (c.required) return false;
      } else if (!c.accept(v)) return false;
    }
    return true;
  };
  return { ...def, schema: z.object(shape).strict() as unknown as z.ZodType<RowOf<C>>, quickAccept: accept };
}

/** The field a rule violation's path names (`bom[0].mass_kg` → `mass_kg`). */
export function fieldOfRulePath(path: string): string {
  const m = /([a-z_]+)$/i.exec(path);
  return m ? m[1] : path;
}
