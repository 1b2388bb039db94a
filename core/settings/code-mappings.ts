/**
 * Mapping memory: per connection profile, the plant and material codes the user mapped to service ids (the
 * workbook's `plants` / `materials` mapping sheets, remembered). The planner looks a code up in the workbook's
 * mapping sheets first, then here, then on the service (jobs/resolve.ts). Stored in the settings document
 * (SettingsStore: a file for the CLI and browser mode, electron-store in the desktop app). No electron import.
 */
import { rowsOf } from '../workbook/helpers.js';
import type { ParsedWorkbook, ValidationReport } from '../workbook/types.js';
import type { SettingsStore } from './settings.js';
import { StoredMappings } from './stored-code-mappings.js';

/** Input of save/merge: either part may be left out. */
export interface MappingsInput {
  plants?: Record<string, string>;
  materials?: Record<string, { category: string; id: string }>;
}

export function emptyMappings(): StoredMappings {
  return { plants: {}, materials: {} };
}

/** A mapping that does not pass validation, in words (which code, what is wrong). */
export class MappingsError extends Error {
  override readonly name = 'MappingsError';
}

/** Validate mappings; the message names the code and what is wrong with it. */
export function parseMappings(input: MappingsInput): StoredMappings {
  const parsed = StoredMappings.safeParse({ plants: input.plants ?? {}, materials: input.materials ?? {} });
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 10).map((i) => {
    const [part, code, field] = i.path.map(String);
    const what = part === 'plants' ? 'plant' : 'material';
    return code === undefined ? i.message : `${what} code "${code}"${field ? ` (${field})` : ''}: ${i.message}`;
  });
  const more = parsed.error.issues.length > 10 ? ` (and ${parsed.error.issues.length - 10} more)` : '';
  throw new MappingsError(`Mappings not valid: ${problems.join('; ')}${more}`);
}

export function countMappings(m: StoredMappings): { plants: number; materials: number } {
  return { plants: Object.keys(m.plants).length, materials: Object.keys(m.materials).length };
}

/** The saved mappings of a profile (empty when none). */
export function getProfileMappings(store: SettingsStore, profileId: string): StoredMappings {
  return store.mappingsOf(profileId) ?? emptyMappings();
}

export interface MergeResult {
  mappings: StoredMappings;
  /** Codes new to the profile, codes whose id (or category) changed, codes already saved the same. */
  added: number;
  changed: number;
  unchanged: number;
}

/** Merge mappings into a profile's: a code given here replaces the saved one; other saved codes stay. */
export function mergeProfileMappings(store: SettingsStore, profileId: string, input: MappingsInput): MergeResult {
  const add = parseMappings(input);
  const before = getProfileMappings(store, profileId);
  let added = 0;
  let changed = 0;
  let unchanged = 0;
  const tally = (had: boolean, same: boolean) => {
    if (!had) added++;
    else if (same) unchanged++;
    else changed++;
  };
  for (const [code, id] of Object.entries(add.plants))
    tally(Object.hasOwn(before.plants, code), before.plants[code] === id);
  for (const [code, m] of Object.entries(add.materials)) {
    const old = Object.hasOwn(before.materials, code) ? before.materials[code] : undefined;
    tally(old !== undefined, old?.id === m.id && old.category === m.category);
  }
  const mappings: StoredMappings = {
    plants: { ...before.plants, ...add.plants },
    materials: { ...before.materials, ...add.materials },
  };
  if (added + changed > 0) store.setMappings(profileId, mappings);
  return { mappings, added, changed, unchanged };
}

/** Forget a profile's mappings; returns how many there were. */
export function clearProfileMappings(store: SettingsStore, profileId: string): { plants: number; materials: number } {
  const had = countMappings(getProfileMappings(store, profileId));
  store.setMappings(profileId, undefined);
  return had;
}

export interface WorkbookMappingRows {
  mappings: StoredMappings;
  /** Mapping rows left out because they have an error (reported by validation at their cell). */
  blocked: { sheet: 'plants' | 'materials'; row: number }[];
  /** Mapping rows without an id (the code is looked up on the service): nothing to remember. */
  withoutId: number;
}

/**
 * The mappings a validated workbook gives: `plants` rows with a plant_id, `materials` rows with a category and
 * a material_type_id. Rows with an error (bad uuid, missing category …) are left out and listed.
 */
export function mappingsFromWorkbook(parsed: ParsedWorkbook, report: ValidationReport): WorkbookMappingRows {
  const out: WorkbookMappingRows = { mappings: emptyMappings(), blocked: [], withoutId: 0 };
  for (const r of rowsOf(parsed, report, 'plants')) {
    if (r.blocked) out.blocked.push({ sheet: 'plants', row: r.row });
    else if (r.data.plant_id) out.mappings.plants[r.data.plant_code] = r.data.plant_id.toLowerCase();
    else out.withoutId++;
  }
  for (const r of rowsOf(parsed, report, 'materials')) {
    if (r.blocked) out.blocked.push({ sheet: 'materials', row: r.row });
    else if (r.data.material_type_id && r.data.category)
      out.mappings.materials[r.data.material_code] = {
        category: r.data.category,
        id: r.data.material_type_id.toLowerCase(),
      };
    else out.withoutId++;
  }
  return out;
}
