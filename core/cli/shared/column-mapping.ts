/**
 * `--mapping FILE.json|NAME` of validate / plan / import: a column mapping from a file, or one saved with the
 * profile (`supply-loader mapping save`). A mapping with an error is refused with every problem and its path.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  parseColumnMapping,
  parseColumnMappingText,
  type ColumnMapping,
} from '../../workbook/column-mapping/schema.js';
import { str } from './args.js';
import { profileStores } from './connection.js';
import type { RunContext } from './context.js';
import { CliUsageError } from './errors.js';
import { mappingsProfile } from './code-mappings.js';

export const MAPPING_OPTION = { mapping: { type: 'string' } } as const;

export function readMappingFile(file: string, command: string): ColumnMapping {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new CliUsageError(`there is no mapping file ${file}`, command);
  }
  const r = parseColumnMappingText(text);
  if (!r.ok)
    throw new CliUsageError(`the mapping ${path.basename(file)} has errors:\n  ${r.errors.join('\n  ')}`, command);
  return r.mapping;
}

/** The --mapping option: a file (a path that exists, or ends in .json), else a saved mapping's name. */
export function mappingOption(
  rc: RunContext,
  values: Record<string, unknown>,
  command: string,
): ColumnMapping | undefined {
  const v = str(values, 'mapping');
  if (v === undefined) return undefined;
  const p = path.resolve(rc.cwd, v);
  if (fs.existsSync(p) || /\.json$/i.test(v)) return readMappingFile(p, command);
  const { settings } = profileStores(rc.env);
  const profile = mappingsProfile(settings, rc.globals.profile);
  const saved = settings.columnMappingsOf(profile.id);
  const key = Object.keys(saved).find((k) => k.toLowerCase() === v.trim().toLowerCase());
  if (key === undefined)
    throw new CliUsageError(
      `there is no mapping file or saved mapping "${v}" (saved in profile "${profile.name}": ${Object.keys(saved).join(', ') || 'none'})`,
      command,
    );
  const r = parseColumnMapping(saved[key]);
  if (!r.ok) throw new CliUsageError(`the saved mapping "${key}" has errors:\n  ${r.errors.join('\n  ')}`, command);
  return r.mapping;
}
