/**
 * Reading a workbook while the service is walked, once for the CLI's `plan` and the app's dry run: the service
 * reads of the plan (/v2/me and the walks of the collections the fed sheets ask codes of: jobs/service-walks.ts)
 * start before the rows are read, from the sheet list alone, and run while the sources are read and validated.
 * The plan then uses them (PlanServices.walks). A source that cannot be read stops the walks; sources whose
 * sheets are not known before reading (CSV, legacy formats) are read first, as without a walk ahead.
 */
import { extname } from 'node:path';
import type { ApiClient } from '../api/index.js';
import { kindsToWalk, startServiceWalks, type ServiceWalks } from '../jobs/service-walks.js';
import type { ColumnMapping } from '../workbook/column-mapping/schema.js';
import { targetOf } from '../workbook/column-mapping/match.js';
import { DEFAULT_LIMITS } from '../workbook/guards.js';
import { WorkbookInspections } from '../workbook/reader.js';
import type { DataSheetName } from '../workbook/types.js';
import { readAndValidate, type CheckedSources } from './validate.js';

/**
 * The data sheets the .xlsx sources feed, each with its declared data rows (null: not declared), from their
 * sheet lists; null when a source is not an .xlsx or its sheet list cannot be read (the reader will say why).
 * The files' inspections are made through `inspections`, for the read that follows to use.
 */
export async function fedSheets(
  paths: readonly string[],
  mapping?: ColumnMapping,
  inspections = new WorkbookInspections(),
): Promise<Map<DataSheetName, number | null> | null> {
  const fed = new Map<DataSheetName, number | null>();
  for (const path of paths) {
    if (extname(path).toLowerCase() !== '.xlsx') return null;
    let sheets;
    try {
      ({ sheets } = await inspections.inspect(path, DEFAULT_LIMITS));
    } catch {
      return null;
    }
    for (const s of sheets) {
      const sheet = targetOf(s.name, mapping, false)?.sheet;
      if (!sheet) continue;
      const rows = s.dimensionRows === null ? null : Math.max(0, s.dimensionRows - 1);
      const before = fed.get(sheet);
      fed.set(sheet, before === undefined ? rows : before === null || rows === null ? null : before + rows);
    }
  }
  return fed;
}

/**
 * The plan's service reads for the sources, started now on `client`, from their sheet lists alone (fedSheets,
 * kindsToWalk); undefined when the sheets are not known before reading (a source that is not an .xlsx).
 */
export async function walksFor(
  paths: readonly string[],
  client: ApiClient,
  mapping?: ColumnMapping,
  signal?: AbortSignal,
  inspections?: WorkbookInspections,
): Promise<ServiceWalks | undefined> {
  const fed = await fedSheets(paths, mapping, inspections);
  return fed ? startServiceWalks(client, kindsToWalk(fed), signal) : undefined;
}

/**
 * Read and validate the sources (readAndValidate) with the plan's service reads under way beside them, when a
 * client is given; `walks` is for the plan (PlanServices.walks), absent when none were started or the sources
 * could not be read. Reads already started for the same sources and mapping (`started`, walksFor) are used
 * instead of starting new ones. A caller that does not plan after all calls `walks.cancel()`. The reader uses the
 * inspection of each file the walks were chosen from (WorkbookInspections): each file is inspected once.
 */
export async function readWhileWalking(
  paths: readonly string[],
  client: ApiClient | undefined,
  o: Parameters<typeof readAndValidate>[1] & {} = {},
  started?: ServiceWalks,
): Promise<CheckedSources & { walks?: ServiceWalks }> {
  const inspections = o.inspections ?? new WorkbookInspections();
  const walks = started ?? (client ? await walksFor(paths, client, o.mapping, o.signal, inspections) : undefined);
  let checked: CheckedSources;
  try {
    checked = await readAndValidate(paths, { ...o, inspections });
  } catch (e) {
    walks?.cancel();
    throw e;
  }
  if (!walks) return checked;
  if (!checked.parsed.readable) {
    walks.cancel();
    return checked;
  }
  return { ...checked, walks };
}
