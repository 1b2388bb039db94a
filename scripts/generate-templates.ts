/**
 * `npm run templates`: write templates/*.xlsx from the sheet registry (the combined onboarding workbook and
 * one per sheet). Deterministic: running it twice gives byte-identical files. `--out DIR` writes elsewhere.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { allTemplates, writeTemplate } from '../electron/core/workbook/template.js';

const args = process.argv.slice(2);
const outIdx = args.indexOf('--out');
const outDir = resolve(outIdx >= 0 && args[outIdx + 1] ? args[outIdx + 1] : 'templates');

await mkdir(outDir, { recursive: true });
for (const t of allTemplates()) {
  const buf = await writeTemplate(join(outDir, t.file), t.options);
  console.log(`${join(outDir, t.file)}  ${buf.length} bytes`);
}
