/**
 * `supply-loader template [sheet|all] -o FILE [--with-reference-data] [--lang de|en]`: an empty workbook of the
 * format, its Instructions sheet and header notes in the language asked for.
 */
import { writeFile } from 'node:fs/promises';
import { generateTemplate } from '../../app/template.js';
import { TEMPLATE_LANGS, type TemplateLang } from '../../workbook/template-words.js';
import { DATA_SHEETS } from '../../workbook/registry.js';
import { DATA_SHEET_NAMES, type DataSheetName } from '../../workbook/types.js';
import { expectPositionals, flag, str } from '../shared/args.js';
import { connectContext, runContext } from '../shared/context.js';
import { CliUsageError } from '../shared/errors.js';
import { checkOutputPath } from '../shared/files.js';
import { EXIT, type CliCommand } from '../shared/types.js';
import { writeAtomic } from '../../fs/atomic.js';

const SHEETS = DATA_SHEETS.map((d) => d.name as DataSheetName);

export const templateCommand: CliCommand = {
  name: 'template',
  summary: 'Write an empty workbook of the format (all sheets, or one), optionally with reference data',
  usage: `supply-loader template [SHEET|all] -o FILE.xlsx [--with-reference-data] [--lang de|en]
  SHEET                  one of: ${SHEETS.join(', ')}; default all (the combined onboarding workbook)
  -o FILE                the workbook to write
  --with-reference-data  pre-fill the plants and materials mapping sheets and a products reference sheet
                         from the service (needs a connection)
  --lang de|en           the language of the Instructions sheet and the header notes (default en); the
                         column names are the same in every language`,
  options: {
    output: { type: 'string', short: 'o' },
    'with-reference-data': { type: 'boolean' },
    lang: { type: 'string' },
  },
  needsConnection: false,
  async run(values, positionals, ctx) {
    const [which = 'all'] = expectPositionals(positionals, ['SHEET'], 'template', 1);
    if (which !== 'all' && !(DATA_SHEET_NAMES as readonly string[]).includes(which)) {
      throw new CliUsageError(`unknown sheet "${which}" (one of: ${SHEETS.join(', ')}, all)`, 'template');
    }
    const lang = str(values, 'lang') ?? 'en';
    if (!(TEMPLATE_LANGS as readonly string[]).includes(lang)) {
      throw new CliUsageError(
        `unknown language "${lang}" for --lang (one of: ${TEMPLATE_LANGS.join(', ')})`,
        'template',
      );
    }
    const out = str(values, 'output');
    if (!out) throw new CliUsageError('missing -o FILE (the workbook to write)', 'template');
    const rc = runContext(ctx);
    const file = checkOutputPath(out, rc.cwd, 'template');
    if (flag(values, 'with-reference-data')) await connectContext(ctx);
    const t = await generateTemplate(which as DataSheetName | 'all', {
      reference: flag(values, 'with-reference-data') ? ctx.client : null,
      signal: ctx.signal,
      lang: lang as TemplateLang,
    });
    await writeAtomic(file, (tmp) => writeFile(tmp, t.bytes));
    const ref = t.referenceData;
    const summary = {
      file,
      sheets: which === 'all' ? SHEETS : [which],
      reference_data: ref ? { ...ref.counts, skipped: ref.skipped, notes: ref.notes } : null,
    };
    if (ctx.json) rc.printJson(summary);
    else {
      for (const note of ref?.notes ?? []) ctx.stderr(`note: ${note}\n`);
      ctx.stdout(`Wrote ${which === 'all' ? 'the combined template' : `the ${which} template`} to ${file}\n`);
      if (summary.reference_data) {
        const r = summary.reference_data;
        ctx.stdout(
          `  with ${r.plants} plants, ${r.materials} material types and ${r.products} products from ${ctx.baseUrl}\n`,
        );
      }
    }
    return EXIT.ok;
  },
};
