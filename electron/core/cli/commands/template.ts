/** `supply-loader template [sheet|all] -o FILE [--with-reference-data]`: an empty workbook of the format. */
import { writeFile } from 'node:fs/promises';
import type { ApiClient } from '../../api/index.js';
import { DATA_SHEETS } from '../../workbook/registry.js';
import { buildTemplate, type TemplateReferenceData } from '../../workbook/template.js';
import { DATA_SHEET_NAMES, type DataSheetName } from '../../workbook/types.js';
import { expectPositionals, flag, str } from '../args.js';
import { connectContext, runContext } from '../context.js';
import { CliUsageError } from '../errors.js';
import { checkOutputPath } from '../files.js';
import { EXIT, type CliCommand } from '../types.js';
import { writeAtomic } from '../../fs/atomic.js';

const SHEETS = DATA_SHEETS.map((d) => d.name as DataSheetName);

/** Mapping sheets and the products reference sheet from the service: one walk per collection. */
export async function referenceData(client: ApiClient, signal: AbortSignal): Promise<Required<TemplateReferenceData>> {
  const plants: NonNullable<TemplateReferenceData['plants']>[number][] = [];
  const materials: NonNullable<TemplateReferenceData['materials']>[number][] = [];
  const products: NonNullable<TemplateReferenceData['products']>[number][] = [];
  const byCode = <T extends { external_id?: string | null }>(a: T, b: T) =>
    (a.external_id ?? '') < (b.external_id ?? '') ? -1 : 1;
  const collect = async <T>(it: AsyncIterable<T>) => {
    const out: T[] = [];
    for await (const x of it) out.push(x);
    return out;
  };
  const [pl, el, co, pr] = await Promise.all([
    collect(client.plants.walk({}, { signal })),
    collect(client.elementaries.walk({}, { signal })),
    collect(client.composites.walk({}, { signal })),
    collect(client.products.walk({}, { signal })),
  ]);
  for (const p of pl.sort(byCode)) if (p.external_id) plants.push({ plant_code: p.external_id, plant_id: p.id });
  for (const e of el.sort(byCode))
    if (e.external_id) materials.push({ material_code: e.external_id, category: 'elementary', material_type_id: e.id });
  for (const c of co.sort(byCode))
    if (c.external_id) materials.push({ material_code: c.external_id, category: 'composite', material_type_id: c.id });
  for (const p of pr.sort(byCode)) {
    products.push({
      ...(p.external_id ? { external_id: p.external_id } : {}),
      name: p.name,
      unit: p.unit as NonNullable<TemplateReferenceData['products']>[number]['unit'],
      ...(p.description ? { description: p.description } : {}),
      id: p.id,
    });
  }
  return { plants, materials, products };
}

export const templateCommand: CliCommand = {
  name: 'template',
  summary: 'Write an empty workbook of the format (all sheets, or one), optionally with reference data',
  usage: `supply-loader template [SHEET|all] -o FILE.xlsx [--with-reference-data]
  SHEET                  one of: ${SHEETS.join(', ')}; default all (the combined onboarding workbook)
  -o FILE                the workbook to write
  --with-reference-data  pre-fill the plants and materials mapping sheets and a products reference sheet
                         from the service (needs a connection)`,
  options: { output: { type: 'string', short: 'o' }, 'with-reference-data': { type: 'boolean' } },
  needsConnection: false,
  async run(values, positionals, ctx) {
    const [which = 'all'] = expectPositionals(positionals, ['SHEET'], 'template', 1);
    if (which !== 'all' && !(DATA_SHEET_NAMES as readonly string[]).includes(which)) {
      throw new CliUsageError(`unknown sheet "${which}" (one of: ${SHEETS.join(', ')}, all)`, 'template');
    }
    const out = str(values, 'output');
    if (!out) throw new CliUsageError('missing -o FILE (the workbook to write)', 'template');
    const rc = runContext(ctx);
    const file = checkOutputPath(out, rc.cwd, 'template');
    let ref: TemplateReferenceData | undefined;
    if (flag(values, 'with-reference-data')) {
      await connectContext(ctx);
      ref = await referenceData(ctx.client, ctx.signal);
    }
    const buf = await buildTemplate({
      ...(which === 'all' ? {} : { sheets: [which as DataSheetName] }),
      ...(ref ? { referenceData: ref } : {}),
    });
    await writeAtomic(file, (tmp) => writeFile(tmp, buf));
    const summary = {
      file,
      sheets: which === 'all' ? SHEETS : [which],
      reference_data: ref
        ? {
            plants: ref.plants?.length ?? 0,
            materials: ref.materials?.length ?? 0,
            products: ref.products?.length ?? 0,
          }
        : null,
    };
    if (ctx.json) rc.printJson(summary);
    else {
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
