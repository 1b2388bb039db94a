/**
 * `supply-loader profile mappings save FILE | show | clear [--profile NAME]`: the mapping memory of a saved
 * profile (plant and material codes → service ids), and the saved mappings plan/import pass to the planner.
 */
import { savedMappings } from '../../app/import.js';
import {
  MappingsError,
  SANDBOX_PROFILE_ID,
  clearProfileMappings,
  countMappings,
  getProfileMappings,
  mappingsFromWorkbook,
  mergeProfileMappings,
  type SettingsStore,
  type StoredProfile,
} from '../../settings/index.js';
import { str } from './args.js';
import { findProfile, profileStores } from './connection.js';
import type { RunContext } from './context.js';
import { CliUsageError } from './errors.js';
import { checkInputFile } from './files.js';
import { EXIT, type ExitCode } from './types.js';
import { loadWorkbook, printIssues } from './workbook.js';

const USAGE_NAME = 'profile';

/**
 * The profile whose mappings a `profile mappings` action works on: --profile NAME, else the active profile of
 * the settings (chosen in the app) when it is a saved one, else the only saved profile.
 */
export function mappingsProfile(settings: SettingsStore, wanted: string | undefined): StoredProfile {
  const doc = settings.snapshot();
  if (wanted !== undefined) {
    if (wanted.trim().toLowerCase() === SANDBOX_PROFILE_ID)
      throw new CliUsageError('the built-in Sandbox profile exists only inside the desktop app', USAGE_NAME);
    const p = findProfile(settings, wanted);
    if (!p) throw new CliUsageError(`there is no saved profile "${wanted}"`, USAGE_NAME);
    return p;
  }
  const active = doc.profiles.find((p) => p.id === doc.activeProfileId);
  if (active) return active;
  if (doc.profiles.length === 1) return doc.profiles[0];
  throw new CliUsageError(
    doc.profiles.length === 0
      ? 'there is no saved profile: add one with "supply-loader profile add NAME --base-url URL"'
      : `say which profile with --profile NAME (saved: ${doc.profiles.map((p) => p.name).join(', ')})`,
    USAGE_NAME,
  );
}

/** The saved mappings of the profile a plan/import connects with (--profile), or undefined without one. */
export function savedMappingsFor(rc: RunContext): ReturnType<typeof savedMappings> {
  const p = connectedProfile(rc);
  return p ? savedMappings(p.settings, p.profile.id) : undefined;
}

/** The saved profile a plan/import connects with (--profile) and its settings, or undefined without one. */
export function connectedProfile(rc: RunContext): { settings: SettingsStore; profile: StoredProfile } | undefined {
  const name = rc.globals.profile;
  if (name === undefined) return undefined;
  const { settings } = profileStores(rc.env);
  const profile = findProfile(settings, name);
  return profile ? { settings, profile } : undefined;
}

export async function mappingsAction(
  rc: RunContext,
  values: Record<string, unknown>,
  args: string[],
): Promise<ExitCode> {
  const [sub, file, ...extra] = args;
  if (extra.length) throw new CliUsageError(`unexpected arguments: ${extra.join(' ')}`, USAGE_NAME);
  const { settings } = profileStores(rc.env);
  const profile = mappingsProfile(settings, str(values, 'profile'));
  switch (sub) {
    case 'show':
    case undefined: {
      if (file !== undefined) throw new CliUsageError(`unexpected argument: ${file}`, USAGE_NAME);
      const m = getProfileMappings(settings, profile.id);
      if (rc.json) {
        rc.printJson({ profile: profile.name, plants: m.plants, materials: m.materials });
        return EXIT.ok;
      }
      const n = countMappings(m);
      if (n.plants + n.materials === 0) {
        rc.stdout(`Profile "${profile.name}" has no saved mappings.\n`);
        return EXIT.ok;
      }
      const lines = [`Mappings of profile "${profile.name}" (${n.plants} plant(s), ${n.materials} material(s)):`];
      for (const [code, id] of Object.entries(m.plants).sort(([a], [b]) => a.localeCompare(b)))
        lines.push(`plant\t${code}\t${id}`);
      for (const [code, x] of Object.entries(m.materials).sort(([a], [b]) => a.localeCompare(b)))
        lines.push(`material\t${code}\t${x.category}\t${x.id}`);
      rc.stdout(`${lines.join('\n')}\n`);
      return EXIT.ok;
    }
    case 'save': {
      if (!file) throw new CliUsageError('profile mappings save needs a workbook FILE', USAGE_NAME);
      const w = await loadWorkbook(checkInputFile(file, rc.cwd, USAGE_NAME), rc);
      if (!w.parsed.readable) {
        const first = w.report.issues.find((i) => i.severity === 'error');
        throw new CliUsageError(`the workbook cannot be read${first ? `: ${first.message}` : ''}`, USAGE_NAME);
      }
      const found = mappingsFromWorkbook(w.parsed, w.report);
      const mappingSheets = new Set(
        w.parsed.sheets.filter((s) => s.name === 'plants' || s.name === 'materials').map((s) => s.sheetName),
      );
      const mappingIssues = w.report.issues.filter(
        (i) => i.severity === 'error' && (i.sheet === null || mappingSheets.has(i.sheet)),
      );
      if (found.blocked.length > 0 || mappingIssues.length > 0) {
        // Nothing is saved from a mapping sheet with errors: the user fixes the cells first.
        if (rc.json) rc.printJson({ ok: false, exit_code: EXIT.usage, profile: profile.name, errors: mappingIssues });
        else {
          printIssues(rc, { ...w, report: { ...w.report, issues: mappingIssues } });
          rc.stderr(
            `The mapping sheets have ${mappingIssues.length} error(s) (above). Nothing was saved: fix them and save again.\n`,
          );
        }
        return EXIT.usage;
      }
      const n = countMappings(found.mappings);
      if (n.plants + n.materials === 0)
        throw new CliUsageError(
          'the workbook has no mapping to save: fill the plants sheet (plant_code, plant_id) or the materials sheet (material_code, category, material_type_id)',
          USAGE_NAME,
        );
      let r;
      try {
        r = mergeProfileMappings(settings, profile.id, found.mappings);
      } catch (e) {
        if (e instanceof MappingsError) throw new CliUsageError(e.message, USAGE_NAME);
        throw e;
      }
      const total = countMappings(r.mappings);
      if (rc.json)
        rc.printJson({
          ok: true,
          profile: profile.name,
          added: r.added,
          changed: r.changed,
          unchanged: r.unchanged,
          without_id: found.withoutId,
          plants: total.plants,
          materials: total.materials,
        });
      else
        rc.stdout(
          `Saved the mappings of ${w.parsed.file} in profile "${profile.name}": ${r.added} new, ${r.changed} changed, ${r.unchanged} unchanged` +
            `${found.withoutId ? ` (${found.withoutId} row(s) without an id left out)` : ''}; ` +
            `the profile now maps ${total.plants} plant(s) and ${total.materials} material(s).\n`,
        );
      return EXIT.ok;
    }
    case 'clear': {
      if (file !== undefined) throw new CliUsageError(`unexpected argument: ${file}`, USAGE_NAME);
      const had = clearProfileMappings(settings, profile.id);
      if (rc.json) rc.printJson({ ok: true, profile: profile.name, removed: had });
      else
        rc.stdout(
          `Cleared the mappings of profile "${profile.name}" (${had.plants} plant(s), ${had.materials} material(s)).\n`,
        );
      return EXIT.ok;
    }
    default:
      throw new CliUsageError(`unknown mappings action "${sub}" (save, show, clear)`, USAGE_NAME);
  }
}
