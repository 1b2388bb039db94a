/**
 * Shapes shared by the workbook registry, reader, validation and writers. Everything a caller gets back
 * (ParsedWorkbook, ValidationReport) is plain JSON-serialisable data.
 */

/** Names of the data sheets, exactly as users see them in the workbook (row 1 of each holds the field names). */
export const DATA_SHEET_NAMES = [
  'supplier-companies',
  'supplier-plants',
  'supplier-products',
  'hazardous-substances',
  'silos',
  'silo-items',
  'product-instances',
  'prechain-products',
  'bom',
  'plants',
  'materials',
  'production',
] as const;
export type DataSheetName = (typeof DATA_SHEET_NAMES)[number];
/** The code-mapping sheets: their rows map plant / material codes to service ids (no entities of their own). */
export const CODE_MAPPING_SHEETS = ['plants', 'materials'] as const satisfies readonly DataSheetName[];

/** Reference sheet written by templates/exports only; ignored on import. */
export const PRODUCTS_SHEET = 'products' as const;
export type SheetName = DataSheetName | typeof PRODUCTS_SHEET;

export const INSTRUCTIONS_SHEET = 'Instructions';
/** Hidden sheet holding the dropdown lists (ISO countries, units, …). */
export const LISTS_SHEET = 'lists';

/** Header of the hidden column an export writes: a hash of the service entity per row (see docs/cli.md). */
export const SNAPSHOT_COLUMN = '_snapshot';

/** The value a user writes to clear an optional field on the service explicitly (blank never clears). */
export const CLEAR_MARKER = '#CLEAR';

/** How a cell is read and what a user may type into it. */
export type FieldType =
  | 'text' // free text (names, city)
  | 'code' // one of your own codes (external_id, plant_code, …): text, kept exactly (trimmed)
  | 'uuid' // a service id
  | 'integer'
  | 'decimal'
  | 'enum' // one of `allowed`
  | 'year'; // a whole year 1900–2200 (an Excel date is read as its year, with a warning)

/** Entities a code may refer to. `plant` and `material` are resolved by the mapping sheets or the service. */
export type EntityType =
  | 'supplier_company'
  | 'supplier_plant'
  | 'supplier_product'
  | 'silo'
  | 'product_instance'
  | 'prechain_product'
  | 'product'
  | 'plant'
  | 'material';

/** Names of the dropdown lists on the hidden `lists` sheet. */
export type ListName = 'country' | 'unit' | 'component_type' | 'category' | 'row_action' | 'child_row_action';

/**
 * What a row asks for: the optional `action` column of every import sheet. Blank = `upsert` (create or update).
 * `create` only if absent, `update` only if present, `delete` the entity with that external_id, `ignore` skip.
 */
export const ROW_ACTIONS = ['upsert', 'create', 'update', 'delete', 'ignore'] as const;
export type RowAction = (typeof ROW_ACTIONS)[number];
/** Rows of child sheets (hazardous substances, silo items, BOM rows) belong to their owner: kept or ignored. */
export const CHILD_ROW_ACTIONS = ['upsert', 'ignore'] as const satisfies readonly RowAction[];
/** The entity sheets: rows are entities with an external_id; they take every row action and can be mirrored. */
export { ENTITY_SHEET_NAMES, type EntitySheetName } from '../names.js';
/** Fields a delete row uses: the rest of its cells are not used (and need not be filled). */
export const DELETE_ROW_FIELDS: readonly string[] = ['external_id', 'action'];

export type Severity = 'error' | 'warning';

/**
 * Every machine-readable kind of issue the reader and validation emit (the message says it in words). The
 * renderer keeps an English and a German template per code (test/renderer/issue-text.test.ts checks it).
 */
export const ISSUE_CODES = [
  // file level
  'file_not_found',
  'file_empty',
  'file_too_large',
  'not_a_zip',
  'csv_renamed',
  'legacy_xls',
  'password_protected',
  'other_format',
  'corrupt_zip',
  'not_a_workbook',
  'zip_bomb',
  'xml_entity',
  'too_many_rows',
  'no_known_sheet',
  'no_data_rows',
  'source_without_sheet',
  'sheet_unreadable',
  'unreadable',
  // sheet level
  'unknown_sheet',
  'sheet_name_normalised',
  'duplicate_sheet',
  'hidden_sheet',
  'missing_header',
  'duplicate_header',
  'unknown_column',
  'misnamed_column',
  'header_normalised',
  'data_without_header',
  'merged_cell',
  // cell level
  'formula_error',
  'formula_without_result',
  'wrong_type',
  'number_as_text_ambiguous',
  'number_as_text_imprecise',
  'date_as_year',
  'date_in_text_column',
  'percent_format',
  'required',
  'not_allowed',
  'out_of_range',
  'too_long',
  'control_characters',
  'clear_required',
  'rule',
  /** a row that is not marked delete or ignore, of a sheet whose header lacks a required column: {headerCell}, {rowAction} */
  'missing_column',
  /** a delete row has other cells filled: they are not used (warning): {fields} */
  'delete_cells_unused',
  // cross-sheet
  'duplicate_key',
  'duplicate_bom_component',
  'silo_item_plant',
  'silo_item_material',
  'silo_item_no_supplier_plant',
  /** a code neither the workbook nor the service knows (checked when connected): {value}, {variant} = the kind of code, {hint} */
  'code_unknown',
  'too_many_issues',
] as const;
/** Machine-readable kind of an issue (the message says it in words). */
export type IssueCode = (typeof ISSUE_CODES)[number];

/** One finding, at a cell when it has one. `cell` is an A1 address without the sheet ('C7'). */
export interface Issue {
  severity: Severity;
  code: IssueCode;
  /** Sheet name as it is in the file; null for file-level issues. */
  sheet: string | null;
  cell: string | null;
  row: number | null;
  field: string | null;
  /** Says what is wrong and what was expected, in words (English). Never contains a stack trace or a key. */
  message: string;
  /**
   * The values the message is built from (field, expected type, value shown, limit …), so that a UI can say
   * it in another language from `code` + `params`. Absent when the message needs none.
   */
  params?: IssueParams;
}

/** Parameters of an issue's message: plain strings and numbers only. */
export type IssueParams = Record<string, string | number>;

/** What a field's cell holds after reading. Absent key = blank (not set); null = `#CLEAR` (clear it). */
export type CellScalar = string | number;
export type RowValues = Record<string, CellScalar | null>;

export interface ParsedRow {
  /** 1-based worksheet row number. */
  row: number;
  values: RowValues;
  /** Fields whose cell could not be read; an error was already recorded at the cell. */
  invalid?: string[];
  /** The hidden `_snapshot` cell of an exported row (a hash of the service entity at export), when present. */
  snapshot?: string;
}

export interface ParsedSheet {
  /** Registry name of the sheet. */
  name: DataSheetName;
  /** Name of the sheet as it is in the file (usually the same). */
  sheetName: string;
  hidden: boolean;
  /** field → column letter where the field was found in the header row. */
  columns: Record<string, string>;
  rows: ParsedRow[];
  /**
   * Filled rows that were not read because the header has an error (a missing required column, a column
   * twice): present (possibly 0) only then, so "0 rows" is never shown for a sheet whose rows were skipped.
   */
  unreadRows?: number;
  /** Columns of the source that are not read (unknown headers, or ignored by the column mapping). */
  ignoredColumns?: IgnoredColumn[];
  /** The source file this sheet came from when it is not the workbook itself (a CSV file). */
  source?: string;
  /** How a CSV source was read (results are written back in its own encoding and delimiter). */
  csv?: CsvFormat;
  /**
   * Present when several sources feed this sheet (workbook/sheet-parts.ts): each source with its name, columns
   * and the offset of its row numbers; `sheetName`, `source`, `csv` and `columns` above are the first one's.
   */
  parts?: SheetPart[];
}

export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** One source of a sheet fed by several (see ParsedSheet.parts). */
export interface SheetPart {
  sheetName: string;
  source?: string;
  csv?: CsvFormat;
  columns: Record<string, string>;
  offset: number;
}

export interface CsvFormat {
  encoding: CsvEncoding;
  /** The file starts with a byte-order mark. */
  bom: boolean;
  delimiter: string;
}

export interface IgnoredColumn {
  header: string;
  /** Header cell (A1 address without the sheet). */
  cell: string;
  /** `unknown`: not a field (a warning says so); `mapping`: listed under `ignore` of the column mapping. */
  reason: 'unknown' | 'mapping';
}

export interface ReadLimits {
  /** Largest file accepted, bytes. */
  maxFileBytes: number;
  /** Largest total uncompressed size of all zip entries, bytes (zip-bomb guard). */
  maxUncompressedBytes: number;
  /** Largest compression ratio of an entry whose uncompressed size exceeds `ratioCheckFromBytes`. */
  maxCompressionRatio: number;
  ratioCheckFromBytes: number;
  /** Most zip entries. */
  maxEntries: number;
  /** Most data rows (below the header row) in one sheet. */
  maxRowsPerSheet: number;
  /** Most issues kept; beyond it one `too_many_issues` error says how many were left off. */
  maxIssues: number;
}

export interface ReadProgress {
  phase: 'checking' | 'reading' | 'validating';
  sheet: string | null;
  /** Data rows handled so far (all sheets). */
  rows: number;
  /** Estimated data rows in total (from the sheets' dimensions), when known. */
  totalRows: number | null;
  /** 0..1 */
  fraction: number;
}

export interface ParsedWorkbook {
  /** Base name of the file (never the full path: results may be shown or saved elsewhere). */
  file: string;
  bytes: number;
  /** false when the file could not be read at all (a file-level error is among `issues`). */
  readable: boolean;
  sheets: ParsedSheet[];
  /** Sheets present in the file but not read, with why. */
  ignoredSheets: { sheet: string; reason: string }[];
  issues: Issue[];
  stats: { rows: number; ms: number };
}

/** A code one row refers to, and where it is expected to resolve. */
export interface WorkbookReference {
  sheet: DataSheetName;
  row: number;
  field: string;
  cell: string;
  entityType: EntityType;
  code: string;
  /**
   * `workbook`: the code is defined in this workbook (a row of `target`, or a mapping sheet row with its id);
   * `service`: the planner must resolve it on the service (or the profile's saved mappings).
   */
  resolution: 'workbook' | 'service';
  target: { sheet: DataSheetName; row: number } | null;
}

export interface SheetValidation {
  name: DataSheetName;
  rows: number;
  /** Rows with at least one error: the planner marks them `blocked`. */
  blockedRows: number[];
  /** Filled rows not read because of a header error (see ParsedSheet.unreadRows). */
  unreadRows?: number;
  /** Name of the sheet (or CSV file) as in the source. */
  sheetName?: string;
  /** Columns not read (unknown headers, or ignored by the column mapping). */
  ignoredColumns?: IgnoredColumn[];
}

/** A distinct code the workbook refers to, for one entity type. */
export interface ReferencedCode {
  code: string;
  resolution: 'workbook' | 'service';
  /** The defining row when `resolution` is `workbook`. */
  target: { sheet: DataSheetName; row: number } | null;
  /** How many cells refer to it, and the first of them. */
  uses: number;
  first: { sheet: DataSheetName; row: number; field: string; cell: string };
}

export type ReferencedCodes = Partial<Record<EntityType, ReferencedCode[]>>;

export interface ValidationReport {
  /** No errors at all (warnings allowed). */
  ok: boolean;
  errors: number;
  warnings: number;
  /** Reader issues followed by validation issues, ordered by sheet, row, column. */
  issues: Issue[];
  sheets: SheetValidation[];
  /**
   * Every distinct code referred to, per entity type, with where it resolves: the planner resolves the
   * `service` ones with bulk walks. The references of each row ({sheet,row,field,cell,entityType,code}) are
   * listed by listReferences(parsed) (computed on demand: 100,000 rows make 300,000 references).
   */
  references: ReferencedCodes;
}
