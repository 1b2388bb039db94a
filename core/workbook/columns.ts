/**
 * Column builders: each column of a sheet is described once (type, required, description, unit, allowed
 * values, range) and carries its zod schema, so the row schema, the template notes, the dropdowns and
 * docs/workbook-format.md all come from the same definition.
 */
import { z } from 'zod';
import { ExternalId, Uuid, Year } from '../spec/schemas.js';
import { ISO_COUNTRY_CODES } from './countries.js';
import { CHILD_ROW_ACTIONS, ROW_ACTIONS, type EntityType, type FieldType, type ListName } from './types.js';

export interface ColumnSpec {
  type: FieldType;
  required: boolean;
  description: string;
  unit?: string;
  /** Allowed values of an `enum` column. */
  allowed?: readonly string[];
  /** Dropdown list on the hidden `lists` sheet. */
  list?: ListName;
  /** Numeric range shown in the note and enforced as template data validation. */
  min?: number;
  max?: number;
  /** `min` itself is not allowed (e.g. mass_kg > 0). */
  minExclusive?: boolean;
  /** The range is a spec rule checked by core/spec/rules.ts, not by the column schema. */
  rangeFromRule?: boolean;
  maxLength?: number;
  /** The code in this column names an entity (`by_component_type`: the row's component_type says which). */
  refersTo?: EntityType | 'by_component_type';
  /** Column width in the template, characters. */
  width: number;
}

export interface Column<S extends z.ZodType = z.ZodType, R extends boolean = boolean> extends ColumnSpec {
  required: R;
  schema: S;
}

export type Columns = Record<string, Column>;

/** The row type a set of columns describes: required fields present, optional ones absent or null (#CLEAR). */
export type RowOf<C extends Columns> = {
  [K in keyof C as C[K]['required'] extends true ? K : never]: z.output<C[K]['schema']>;
} & {
  [K in keyof C as C[K]['required'] extends true ? never : K]?: z.output<C[K]['schema']> | null;
};

interface Common<R extends boolean> {
  required: R;
  description: string;
  width?: number;
}

const NO_CONTROL_CHARS = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
const NO_CONTROL_OR_BREAKS = /^[^\u0000-\u001f\u007f]*$/;

/** One of your own codes: external_id or a reference to one. Same limits as the spec's ExternalId. */
export function code<const R extends boolean>(o: Common<R> & { refersTo?: ColumnSpec['refersTo'] }) {
  return {
    type: 'code' as const,
    required: o.required,
    description: o.description,
    refersTo: o.refersTo,
    maxLength: 255,
    width: o.width ?? 24,
    schema: ExternalId.regex(NO_CONTROL_OR_BREAKS),
  };
}

export function text<const R extends boolean>(o: Common<R> & { maxLength?: number }) {
  const maxLength = o.maxLength ?? 1000;
  return {
    type: 'text' as const,
    required: o.required,
    description: o.description,
    maxLength,
    width: o.width ?? 32,
    schema: z.string().min(1).max(maxLength).regex(NO_CONTROL_CHARS),
  };
}

export function uuid<const R extends boolean>(o: Common<R> & { refersTo?: EntityType }) {
  return {
    type: 'uuid' as const,
    required: o.required,
    description: o.description,
    refersTo: o.refersTo,
    width: o.width ?? 38,
    schema: Uuid,
  };
}

export function enumeration<const R extends boolean, const V extends readonly [string, ...string[]]>(
  o: Common<R> & { allowed: V; list: ListName },
) {
  return {
    type: 'enum' as const,
    required: o.required,
    description: o.description,
    allowed: o.allowed,
    list: o.list,
    width: o.width ?? 18,
    schema: z.enum(o.allowed),
  };
}

/** A whole year. Bounds come from the spec's Year schema. */
export function year<const R extends boolean>(o: Common<R>) {
  return {
    type: 'year' as const,
    required: o.required,
    description: o.description,
    min: Year.minValue ?? undefined,
    max: Year.maxValue ?? undefined,
    width: o.width ?? 14,
    schema: Year,
  };
}

/**
 * A decimal number. `min`/`max` are enforced by the schema unless `rangeFromRule` says a spec rule checks
 * them (then they only feed the template's data validation and the note).
 */
export function decimal<const R extends boolean>(
  o: Common<R> & { unit?: string; min?: number; max?: number; minExclusive?: boolean; rangeFromRule?: boolean },
) {
  let schema = z.number().finite();
  if (!o.rangeFromRule) {
    if (o.min !== undefined) schema = o.minExclusive ? schema.gt(o.min) : schema.min(o.min);
    if (o.max !== undefined) schema = schema.max(o.max);
  }
  return {
    type: 'decimal' as const,
    required: o.required,
    description: o.description,
    unit: o.unit,
    min: o.min,
    max: o.max,
    minExclusive: o.minExclusive,
    rangeFromRule: o.rangeFromRule,
    width: o.width ?? 14,
    schema,
  };
}

/** A transport distance, km ≥ 0 (one per modality, as the spec's TransportRoute). */
export function km<const R extends boolean>(o: Common<R>) {
  return decimal({ ...o, unit: 'km', min: 0 });
}

/** Words for what a column expects, used in error messages, header notes and the docs. */
export function expectation(c: ColumnSpec): string {
  switch (c.type) {
    case 'code':
      return `a code (text, up to ${c.maxLength ?? 255} characters, no line breaks)`;
    case 'text':
      return `text (up to ${c.maxLength ?? 1000} characters)`;
    case 'uuid':
      return 'a service id (UUID like 123e4567-e89b-12d3-a456-426614174000)';
    case 'enum':
      if (c.list === 'country') return 'an ISO 3166 alpha-2 country code (DE, AT, FR …)';
      return `one of ${(c.allowed ?? []).join(', ')}`;
    case 'year':
      return `a year (whole number ${c.min ?? 1900}–${c.max ?? 2200})`;
    case 'integer':
      return `a whole number${rangeWords(c)}`;
    case 'decimal':
      return `a number${rangeWords(c)}${c.unit ? ` in ${c.unit}` : ''}`;
  }
}

/**
 * What expectation(c) says, as data for an issue's params (the UI words it in its own language): `expType`
 * (the FieldType, or `country` for the country list), and where they apply `expMin`, `expMax`,
 * `expMinExclusive` (1), `expUnit`, `expAllowed` (comma-separated), `expMaxLength`.
 */
export function expectationParams(c: ColumnSpec): Record<string, string | number> {
  const out: Record<string, string | number> = {
    expType: c.type === 'enum' && c.list === 'country' ? 'country' : c.type,
  };
  switch (c.type) {
    case 'code':
      out.expMaxLength = c.maxLength ?? 255;
      break;
    case 'text':
      out.expMaxLength = c.maxLength ?? 1000;
      break;
    case 'enum':
      if (c.list !== 'country') out.expAllowed = (c.allowed ?? []).join(', ');
      break;
    case 'year':
      out.expMin = c.min ?? 1900;
      out.expMax = c.max ?? 2200;
      break;
    case 'integer':
    case 'decimal':
      if (c.min !== undefined) out.expMin = c.min;
      if (c.max !== undefined) out.expMax = c.max;
      if (c.minExclusive) out.expMinExclusive = 1;
      if (c.type === 'decimal' && c.unit) out.expUnit = c.unit;
      break;
    case 'uuid':
      break;
  }
  return out;
}

function rangeWords(c: ColumnSpec): string {
  const lower = c.minExclusive ? `greater than ${c.min}` : `≥ ${c.min}`;
  if (c.min !== undefined && c.max !== undefined)
    return c.minExclusive ? ` greater than ${c.min} and ≤ ${c.max}` : ` from ${c.min} to ${c.max}`;
  if (c.min !== undefined) return ` ${lower}`;
  if (c.max !== undefined) return ` ≤ ${c.max}`;
  return '';
}

const UUID_SHAPE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A quick, conservative acceptance test for one present (non-null) value, derived from the column spec: when
 * it says yes the column schema accepts the value too (it is never looser; a test checks this). Validation
 * runs the zod schema only for rows that fail it — the schema stays the authority and gives the messages.
 */
export function quickAccept(c: ColumnSpec): (v: unknown) => boolean {
  switch (c.type) {
    case 'code':
    case 'text': {
      const max = c.maxLength ?? 255;
      return (v) => typeof v === 'string' && v.length > 0 && v.length <= max && !ANY_CONTROL.test(v) && v.trim() === v;
    }
    case 'uuid':
      return (v) => typeof v === 'string' && UUID_SHAPE.test(v);
    case 'enum': {
      const allowed = new Set(c.allowed ?? []);
      return (v) => typeof v === 'string' && allowed.has(v);
    }
    case 'year':
    case 'integer': {
      const min = c.min ?? -Infinity;
      const max = c.max ?? Infinity;
      return (v) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
    }
    case 'decimal': {
      if (c.rangeFromRule) return (v) => typeof v === 'number' && Number.isFinite(v);
      const min = c.min ?? -Infinity;
      const max = c.max ?? Infinity;
      const exclusive = c.minExclusive ?? false;
      return (v) => typeof v === 'number' && Number.isFinite(v) && (exclusive ? v > min : v >= min) && v <= max;
    }
  }
}

/** The optional `action` column of an entity sheet (ROW_ACTIONS): what the row asks for. */
export function actionColumn() {
  return enumeration({
    required: false,
    allowed: ROW_ACTIONS,
    list: 'row_action',
    width: 10,
    description:
      'What to do with the row: blank or upsert = create or update; create = only if absent; update = only if present; delete = delete the entity with this external_id (the other cells are not used); ignore = skip the row.',
  });
}

/** The optional `action` column of a child sheet: its rows belong to their owner, so only upsert or ignore. */
export function childActionColumn() {
  return enumeration({
    required: false,
    allowed: CHILD_ROW_ACTIONS,
    list: 'child_row_action',
    width: 10,
    description: 'blank or upsert = the row is part of its owner; ignore = skip the row.',
  });
}

/** The external_id column of an entity sheet: your code of the entity, unique in the sheet. */
export function externalIdColumn(noun: string) {
  return code({ required: true, description: `Your code for the ${noun} (unique in this sheet).` });
}

/** The name column of an entity sheet. */
export function nameColumn(noun: string) {
  return text({ required: true, maxLength: 255, description: `Name of the ${noun}.` });
}

/** A required code naming another entity (in its sheet, a mapping sheet or on the service). */
export function reference(refersTo: NonNullable<ColumnSpec['refersTo']>, description: string, width?: number) {
  return code({ required: true, refersTo, description, width });
}

/** The optional country of a company or plant: an ISO 3166 alpha-2 code from the `country` list. */
export function countryColumn(description: string) {
  return enumeration({ required: false, allowed: ISO_COUNTRY_CODES, list: 'country', width: 10, description });
}

/** The four transport distances (truck, train, ship, barge) of a material, each optional; `route` says where. */
export function transportColumns(route: string) {
  const by = (mode: string) => km({ required: false, description: `Transport distance by ${mode} ${route}.` });
  return { truck_km: by('truck'), train_km: by('train'), ship_km: by('ship'), barge_km: by('barge') };
}
