/**
 * How right `mapping suggest` is on the corpus of ERP-shaped exports (test/fixtures/erp-exports/: SAP and other
 * German and English ERPs, each column with its true field): precision of the confident suggestions (≥ 0.8, the
 * ones applied without asking), coverage (columns that are a field and got a right confident suggestion) and the
 * sources whose sheet was found, for the development part, the held-out part and the whole corpus. Every
 * confident suggestion it got wrong is listed. test/workbook/suggest-corpus.test.ts holds the held-out part to
 * a precision of 1.
 *
 *   npx tsx bench/suggest-accuracy.bench.ts
 */
import { ERP_CORPUS } from '../test/fixtures/erp-exports/corpus.js';
import { scoreCorpus, type CorpusScore } from '../test/fixtures/erp-exports/score.js';
import { isMain, table, writeResult } from './lib/common.js';

const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)} %`;

export function runSuggestAccuracy(): Record<string, unknown> {
  const parts: [string, CorpusScore][] = [
    ['development', scoreCorpus(ERP_CORPUS.filter((e) => e.split === 'dev'))],
    ['held out', scoreCorpus(ERP_CORPUS.filter((e) => e.split === 'heldout'))],
    ['whole corpus', scoreCorpus(ERP_CORPUS)],
  ];
  table('mapping suggest on the ERP export corpus (confident: ≥ 0.8)', [
    ['part', 'exports', 'sources', 'sheet right', 'field columns', 'confident', 'right', 'precision', 'coverage'],
    ...parts.map(([name, s]) => [
      name,
      s.exports,
      s.sources,
      `${s.sheetsRight}/${s.sources}`,
      s.fieldColumns,
      s.confident,
      s.confidentRight,
      pct(s.precision),
      pct(s.coverage),
    ]),
  ]);
  const misses = parts[2][1].misses;
  if (misses.length)
    table('confident suggestions that are wrong', [
      ['export', 'file', 'column', 'suggested', 'truth', 'confidence'],
      ...misses.map((m) => [m.export, m.file, m.column, m.suggested, m.truth ?? '(no field)', m.confidence]),
    ]);
  return Object.fromEntries(parts.map(([name, s]) => [name.replace(/ /g, '_'), s]));
}

if (isMain(import.meta.url)) writeResult('suggest-accuracy', runSuggestAccuracy());
