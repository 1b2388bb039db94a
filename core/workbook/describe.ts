/** The registry as Markdown tables, for docs/workbook-format.md (kept in sync by `npm run templates`). */
import { expectation, type Column } from './columns.js';
import { DATA_SHEETS, PRODUCTS_REFERENCE_SHEET, columnsOf } from './registry.js';

export const DOC_BEGIN = '<!-- BEGIN GENERATED: sheets (npm run templates) -->';
export const DOC_END = '<!-- END GENERATED: sheets -->';

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function typeWords(c: Column): string {
  switch (c.type) {
    case 'code':
      return c.refersTo ? `code → ${c.refersTo === 'by_component_type' ? 'per component_type' : c.refersTo}` : 'code';
    case 'enum':
      return c.list === 'country' ? 'enum (ISO 3166 alpha-2)' : 'enum';
    default:
      return c.type;
  }
}

function allowedWords(c: Column): string {
  if (c.type === 'enum') return c.list === 'country' ? 'DE, AT, FR … (249 codes)' : (c.allowed ?? []).join(', ');
  if (c.type === 'year' || c.type === 'decimal' || c.type === 'integer') {
    const e = expectation(c).replace(/^a (year|number|whole number) ?/, '');
    return `${e.replace(/ in [^ ]+$/, '') || 'any'}${c.rangeFromRule ? ' (spec rule)' : ''}`;
  }
  if (c.maxLength) return `≤ ${c.maxLength} characters`;
  return '';
}

export function sheetsMarkdown(): string {
  const out: string[] = [DOC_BEGIN, '', '| Step | Sheet | What it does |', '|---|---|---|'];
  for (const d of DATA_SHEETS) out.push(`| ${d.step} | \`${d.name}\` | ${cell(d.purpose)} |`);
  out.push(`| – | \`${PRODUCTS_REFERENCE_SHEET.name}\` | ${cell(PRODUCTS_REFERENCE_SHEET.purpose)} |`, '');
  for (const d of [...DATA_SHEETS, PRODUCTS_REFERENCE_SHEET]) {
    out.push(`### \`${d.name}\``, '', cell(d.purpose), '');
    if (d.key?.length) out.push(`Unique per row: ${d.key.map((k) => `\`${k}\``).join(' + ')}.`, '');
    out.push('| Column | Type | Required | Unit | Allowed | Meaning |', '|---|---|---|---|---|---|');
    for (const [field, c] of columnsOf(d))
      out.push(
        `| \`${field}\` | ${typeWords(c)} | ${c.required ? 'yes' : ''} | ${c.unit ?? ''} | ${cell(allowedWords(c))} | ${cell(c.description)} |`,
      );
    out.push('');
  }
  out.push(DOC_END);
  return out.join('\n');
}
