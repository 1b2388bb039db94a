/**
 * Column mappings saved with a profile, once for the CLI (`mapping save | list`) and the app
 * (`mappings.save`, `mappings.list`).
 */
import type { SettingsStore } from '../settings/settings.js';
import { mappingToStore } from '../workbook/column-mapping/columns.js';
import { parseColumnMapping, type ColumnMapping } from '../workbook/column-mapping/schema.js';

export interface SavedColumnMapping {
  name: string;
  /** the sheets it feeds; none when the stored document no longer parses */
  sheets: string[];
  ok: boolean;
}

/** The column mappings saved with a profile, each checked against the mapping contract. */
export function listColumnMappings(settings: SettingsStore, profileId: string): SavedColumnMapping[] {
  return Object.entries(settings.columnMappingsOf(profileId)).map(([name, doc]) => {
    const r = parseColumnMapping(doc);
    return { name, sheets: r.ok ? Object.keys(r.mapping.sheets) : [], ok: r.ok };
  });
}

/** Store a checked column mapping with a profile under `name` (replacing one of that name). */
export function saveColumnMapping(
  settings: SettingsStore,
  profileId: string,
  name: string,
  mapping: ColumnMapping,
): void {
  settings.setColumnMapping(profileId, name, mappingToStore(mapping, name));
}
