/**
 * One row's checks: the row's action (a delete row needs its external_id only, an ignored row nothing), the
 * zod row schema of its sheet, then the spec rules of one row (core/spec/rules.ts through the sheet's
 * rowRules). Each finding is an issue at the row's cell, in words and with params for the UI's own wording.
 */
import type { z } from 'zod';
import { expectation, expectationParams, type Column } from './columns.js';
import { show } from './coerce.js';
import { fieldOfRulePath, type SheetDef } from './sheet-def.js';
import {
  DELETE_ROW_FIELDS,
  type IssueCode,
  type IssueParams,
  type ParsedRow,
  type ParsedSheet,
  type RowAction,
} from './types.js';
import type { ValidationContext } from './validation-context.js';

/** The row's `action` cell (blank = upsert); an unknown value is reported by the column's schema. */
export function rowActionOf(row: { values: Record<string, unknown> }): RowAction {
  const v = row.values.action;
  return v === 'create' || v === 'update' || v === 'delete' || v === 'ignore' ? v : 'upsert';
}

/** A delete row needs its external_id only; an ignored row is skipped: neither is checked beyond that. */
function validateActionRow(
  ctx: ValidationContext,
  def: SheetDef,
  sheet: ParsedSheet,
  row: ParsedRow,
  action: RowAction,
): void {
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

export function validateRow(ctx: ValidationContext, def: SheetDef, sheet: ParsedSheet, row: ParsedRow): void {
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
