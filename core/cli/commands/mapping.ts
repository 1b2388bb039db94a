/**
 * `supply-loader mapping suggest SOURCE... -o FILE.json | save FILE.json [--name NAME] | list | show NAME |
 * remove NAME [--profile NAME]`: column mappings — a draft suggested from the sources' headers,
 * and named mappings saved with the profile for `--mapping NAME`.
 */
import path from 'node:path';
import { suggestMapping, HIGH_CONFIDENCE } from '../../workbook/column-mapping/suggest.js';
import { listColumnMappings, saveColumnMapping } from '../../app/column-mappings.js';
import { peekSource, textSourceProblem, type PeekedSource } from '../../workbook/sources/peek.js';
import { str } from '../shared/args.js';
import { readMappingFile } from '../shared/column-mapping.js';
import { ENV_BASE_URL, profileStores } from '../shared/connection.js';
import { runContext } from '../shared/context.js';
import { CliUsageError } from '../shared/errors.js';
import { checkInputFile } from '../shared/files.js';
import { mappingsProfile } from '../shared/code-mappings.js';
import { EXIT, type CliCommand } from '../shared/types.js';
import { writeTextAtomicSync } from '../../fs/atomic.js';
import type { KnownCodes } from '../../workbook/column-mapping/suggest.js';

const NAME = 'mapping';

/** A header as the terminal shows it: control characters as spaces, a long one cut (the draft keeps it whole). */
function shortName(h: string): string {
  const one = h.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return one.length > 60 ? `${one.slice(0, 59)}…` : one;
}

export const mappingCommand: CliCommand = {
  name: NAME,
  summary: 'Column mappings for ERP exports: suggest a draft from the headers, save, list, show, remove',
  usage: `supply-loader mapping suggest SOURCE... -o FILE.json [--name NAME]
       supply-loader mapping save FILE.json [--name NAME] [--profile NAME]
       supply-loader mapping list [--profile NAME]
       supply-loader mapping show NAME [--profile NAME]
       supply-loader mapping remove NAME [--profile NAME]
  suggest   finds which sheet each source (.xlsx sheet or .csv file) feeds and its header row (title lines above
            are skipped), and suggests a field per column: exact, lenient (case, spaces, *, units), synonym
            (EN/DE/SAP), similarity, or values (codes the other files define, or the service's when a
            connection is configured), each with its confidence. Suggestions of confidence ≥ ${HIGH_CONFIDENCE} go into "columns";
            the others are listed under "suggestions" only. Exit 2 while a required field is unmapped.
  save      checks the mapping and stores it with the profile under its "name" (or --name); then
            validate / plan / import SOURCE... --mapping NAME use it.`,
  options: { output: { type: 'string', short: 'o' }, name: { type: 'string' } },
  needsConnection: false,
  async run(values, positionals, ctx) {
    const rc = runContext(ctx);
    const [action, ...args] = positionals;
    switch (action) {
      case 'suggest': {
        if (args.length === 0) throw new CliUsageError('mapping suggest needs at least one SOURCE file', NAME);
        const out = str(values, 'output');
        if (!out) throw new CliUsageError('mapping suggest needs -o FILE.json (where the draft is written)', NAME);
        const outPath = path.resolve(rc.cwd, out);
        if (!/\.json$/i.test(outPath)) throw new CliUsageError(`the draft file must end in .json (got ${out})`, NAME);
        const sources: PeekedSource[] = [];
        // SIGINT / SIGTERM stop it between sources and rows (exit 3, "Cancelled."): no draft is written.
        const signal = ctx.signal;
        for (const a of args) {
          const p = checkInputFile(a, rc.cwd, NAME);
          try {
            const problem = await textSourceProblem(p);
            if (problem) throw new Error(problem);
            sources.push(...(await peekSource(p, { signal })));
          } catch (e) {
            if (signal.aborted) throw signal.reason;
            throw new CliUsageError(e instanceof Error ? e.message : String(e), NAME);
          }
        }
        // Connected when a connection is configured (--profile, --base-url or SUPPLY_LOADER_BASE_URL): the service's
        // codes let a column's values name its field. Without one, or when it fails, only the drop's own files do.
        let known: KnownCodes = {};
        if (rc.globals.profile !== undefined || rc.globals['base-url'] !== undefined || rc.env[ENV_BASE_URL]) {
          try {
            await rc.connect({ checkKey: false });
            const { serviceCodes } = await import('../../app/known-codes.js');
            const got = await serviceCodes(rc.client, { signal });
            known = got.codes;
            // Nothing read at all: the service is not there (a collection the key may not read is no news).
            if (Object.keys(known).length === 0 && got.unread.length > 0) throw new Error(got.unread[0].message);
          } catch (e) {
            if (signal.aborted) throw signal.reason;
            ctx.stderr(
              `The service's codes could not be read (${e instanceof Error ? e.message : String(e)}): suggesting from the files alone.\n`,
            );
          }
        }
        const { mapping, perSource } = suggestMapping(sources, str(values, 'name'), known);
        signal.throwIfAborted();
        writeTextAtomicSync(outPath, `${JSON.stringify(mapping, null, 2)}\n`);
        const unmapped = Object.entries(mapping.unmapped_required ?? {});
        if (ctx.json) rc.printJson({ ok: unmapped.length === 0, file: outPath, mapping, sources: perSource });
        else {
          const list = (names: string[]) => names.map(shortName).join(', ');
          for (const s of perSource) {
            if (!s.sheet) {
              ctx.stdout(`${s.source}: no sheet found for its headers (${list(s.unmatched)})\n`);
              continue;
            }
            ctx.stdout(`${s.source} → ${s.sheet} (header in row ${s.headerRow})\n`);
            for (const c of s.columns)
              ctx.stdout(
                `  ${shortName(c.column)} → ${c.field}  (${c.method}, ${Math.round(c.confidence * 100)} %${c.confidence < HIGH_CONFIDENCE ? ', not applied: confirm it' : ''})\n`,
              );
            if (s.unmatched.length) ctx.stdout(`  not mapped: ${list(s.unmatched)}\n`);
            if (s.unmappedRequired.length)
              ctx.stdout(`  required fields without a column: ${s.unmappedRequired.join(', ')}\n`);
          }
          ctx.stdout(`draft written to ${outPath}\n`);
          if (unmapped.length)
            ctx.stderr(
              `A required field is unmapped: edit "columns" in the draft (or add "constants"), then "mapping save".\n`,
            );
        }
        return unmapped.length ? EXIT.usage : EXIT.ok;
      }
      case 'save': {
        const [file, ...extra] = args;
        if (!file) throw new CliUsageError('mapping save needs a FILE.json', NAME);
        if (extra.length) throw new CliUsageError(`unexpected arguments: ${extra.join(' ')}`, NAME);
        const mapping = readMappingFile(checkInputFile(file, rc.cwd, NAME), NAME);
        const name = str(values, 'name') ?? mapping.name;
        if (!name) throw new CliUsageError('give the mapping a name: "name" in the file or --name NAME', NAME);
        const { settings } = profileStores(rc.env);
        const profile = mappingsProfile(settings, rc.globals.profile);
        saveColumnMapping(settings, profile.id, name, mapping);
        if (ctx.json) rc.printJson({ ok: true, profile: profile.name, name });
        else ctx.stdout(`Saved mapping "${name}" in profile "${profile.name}" (use it with --mapping "${name}").\n`);
        return EXIT.ok;
      }
      case 'list':
      case undefined: {
        const { settings } = profileStores(rc.env);
        const profile = mappingsProfile(settings, rc.globals.profile);
        const rows = listColumnMappings(settings, profile.id);
        if (ctx.json) rc.printJson({ profile: profile.name, mappings: rows });
        else if (rows.length === 0) ctx.stdout(`Profile "${profile.name}" has no saved column mappings.\n`);
        else
          ctx.stdout(
            rows.map((r) => `${r.name}\t${r.sheets.join(', ')}${r.ok ? '' : '\t(has errors)'}`).join('\n') + '\n',
          );
        return EXIT.ok;
      }
      case 'show':
      case 'remove': {
        const [name, ...extra] = args;
        if (!name) throw new CliUsageError(`mapping ${action} needs a NAME`, NAME);
        if (extra.length) throw new CliUsageError(`unexpected arguments: ${extra.join(' ')}`, NAME);
        const { settings } = profileStores(rc.env);
        const profile = mappingsProfile(settings, rc.globals.profile);
        const saved = settings.columnMappingsOf(profile.id);
        const key = Object.keys(saved).find((k) => k.toLowerCase() === name.trim().toLowerCase());
        if (key === undefined) throw new CliUsageError(`profile "${profile.name}" has no mapping "${name}"`, NAME);
        if (action === 'show') {
          ctx.stdout(`${JSON.stringify(saved[key], null, 2)}\n`);
          return EXIT.ok;
        }
        settings.setColumnMapping(profile.id, key, undefined);
        if (ctx.json) rc.printJson({ ok: true, profile: profile.name, removed: key });
        else ctx.stdout(`Removed mapping "${key}" from profile "${profile.name}".\n`);
        return EXIT.ok;
      }
      default:
        throw new CliUsageError(`unknown mapping action "${action}" (suggest, save, list, show, remove)`, NAME);
    }
  },
};
