/**
 * `npm run templates`: write templates/*.xlsx from the sheet registry (the combined onboarding workbook and
 * one per sheet), and the generated sheet tables of docs/workbook-format.md. Deterministic: running it twice
 * gives byte-identical files. `--out DIR` writes the templates elsewhere (and leaves the docs alone).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DOC_BEGIN, DOC_END, sheetsMarkdown } from '../core/workbook/describe.js';
import { allTemplates, writeTemplate } from '../core/workbook/template.js';

const args = process.argv.slice(2);
const outIdx = args.indexOf('--out');
const outDir = resolve(outIdx >= 0 && args[outIdx + 1] ? args[outIdx + 1] : 'templates');

await mkdir(outDir, { recursive: true });
for (const t of allTemplates()) {
  const buf = await writeTemplate(join(outDir, t.file), t.options);
  console.log(`${join(outDir, t.file)}  ${buf.length} bytes`);
}

if (outIdx < 0) {
  const doc = 'docs/workbook-format.md';
  const text = await readFile(doc, 'utf8');
  const a = text.indexOf(DOC_BEGIN);
  const b = text.indexOf(DOC_END);
  if (a < 0 || b < a) throw new Error(`${doc}: generated-section markers not found`);
  await writeFile(doc, text.slice(0, a) + sheetsMarkdown() + text.slice(b + DOC_END.length));
  console.log(`${doc}  sheet tables updated`);
}
