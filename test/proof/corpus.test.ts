/**
 * The bad-workbook corpus: every file of test/fixtures/corpus goes through the path the CLI's
 * `import` takes (read → validate → refuse with exit 2), against a running sandbox. Each must give a clear error
 * in words — file-level, or at its sheet/cell — or, for odd but valid files, read clean with the value the user
 * meant; never a crash or a stack trace, never a hang, memory bounded, and nothing written to the service
 * (checked in the sandbox's request log: only reads, the walks beside the read and the codes pass).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../core/workbook/reader.js';
import type { Issue } from '../../core/workbook/types.js';
import { describeCase, type CorpusCase } from '../fixtures/corpus/corpus.js';
import { allCases, generateCorpus } from '../fixtures/corpus/generate.js';
import { bounded, cli, jsonOut, requestMark, requestsSince, sandbox, tmp, type Sandbox } from './helpers.js';

const MB = 1024 * 1024;
/** Bounds per file: generous for a slow 2-core machine; a zip bomb or an endless loop breaks them. */
const TIME_BOUND_MS = 90_000;
const RSS_BOUND = 600 * MB;

let sb: Sandbox;
let dir: string;
let files: Map<string, string>;
const cases = allCases({ large: false });
const largeCases = allCases({ large: true }).filter((c) => c.large);

beforeAll(async () => {
  sb = await sandbox({ seed: 'demo' });
  dir = tmp('sl-corpus-');
  files = await generateCorpus(dir, cases);
});
afterAll(async () => {
  await sb?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const inList = (cell: string | null, want: string | string[] | undefined) =>
  want === undefined || (Array.isArray(want) ? want.includes(cell ?? '') : cell === want);
const show = (issues: Issue[]) =>
  issues.map((i) => `${i.severity} ${i.code} ${i.sheet ?? '-'}!${i.cell ?? '-'}: ${i.message}`).join('\n  ');

/** The corpus expectation met by a list of issues (what the CLI printed as JSON). */
function checkIssues(c: CorpusCase, issues: Issue[]): void {
  const e = c.expect;
  const errors = issues.filter((i) => i.severity === 'error');
  const atPlace = (i: Issue) =>
    e.kind === 'file'
      ? i.sheet === null && i.cell === null
      : (e.sheet === undefined || i.sheet === e.sheet) && inList(i.cell, e.cell);
  if (e.kind === 'valid') {
    expect(errors, `${describeCase(c)} must read without errors; got:\n  ${show(issues)}`).toEqual([]);
    for (const code of e.codes) {
      const w = issues.find((i) => i.code === code && atPlace(i));
      expect(
        w,
        `${describeCase(c)}: warning ${code} expected at ${e.sheet}!${String(e.cell ?? '')}; got:\n  ${show(issues)}`,
      ).toBeDefined();
      if (e.words) expect(w!.message).toMatch(e.words);
    }
  } else {
    const hit = errors.find((i) => e.codes.includes(i.code) && atPlace(i));
    expect(
      hit,
      `${describeCase(c)}: expected ${e.codes.join('|')} at ${e.sheet ?? '(file)'}!${String(e.cell ?? '')}; got:\n  ${show(issues)}`,
    ).toBeDefined();
    if (e.words) expect(hit!.message, `${describeCase(c)}: the message should say what is wrong`).toMatch(e.words);
    if (e.kind === 'file')
      expect(errors, `${describeCase(c)}: a file-level error stops reading; nothing else is reported`).toHaveLength(1);
  }
  for (const i of issues) {
    // words for people: no stack trace, no raw exception text
    expect(i.message, `${describeCase(c)}`).not.toMatch(
      /\n\s+at |\bat [\w.]+ \(|TypeError|ReferenceError|RangeError|Cannot read properties|\bundefined\b|\[object Object\]/,
    );
    expect(i.message.length).toBeGreaterThan(15);
  }
}

/** Through the CLI `import`, as a user runs it: exit 2 and nothing sent, or (valid files) `validate` exit 0. */
async function throughCli(c: CorpusCase, path: string): Promise<Issue[]> {
  const jobsDir = join(dir, 'jobs');
  if (c.expect.kind === 'valid') {
    const run = await cli(['validate', path, '--json']);
    expect(run.code, `${describeCase(c)}: validate should pass; stderr: ${run.stderr}`).toBe(0);
    return jsonOut<{ issues: Issue[] }>(run).issues;
  }
  const mark = await requestMark(sb.baseUrl);
  const run = await cli(['import', path, '--json'], { key: sb.ownerKey, baseUrl: sb.baseUrl, jobsDir });
  expect(
    run.code,
    `${describeCase(c)}: import must refuse with exit 2; stdout: ${run.stdout.slice(0, 400)} stderr: ${run.stderr.slice(0, 400)}`,
  ).toBe(2);
  expect(run.stderr).not.toMatch(/\n\s+at |TypeError/);
  // Connected, the import reads the service to check every code in the same pass; it writes nothing.
  expect(
    (await requestsSince(sb.baseUrl, mark)).filter((r) => r.method !== 'GET'),
    `${describeCase(c)}: nothing may be written for an invalid workbook`,
  ).toEqual([]);
  const out = jsonOut<{ ok: boolean; stage: string; issues: Issue[] }>(run);
  expect(out.ok).toBe(false);
  expect(out.stage).toBe('validation');
  return out.issues;
}

describe('bad-workbook corpus through the import path', () => {
  it('has at least 30 files, covering every kind the issue lists', () => {
    expect(cases.length + largeCases.length).toBeGreaterThanOrEqual(30);
    const kinds = new Set(cases.flatMap((c) => c.expect.codes));
    for (const k of [
      'corrupt_zip',
      'legacy_xls',
      'csv_renamed',
      'password_protected',
      'file_empty',
      'no_known_sheet',
      'missing_header',
      'duplicate_header',
      'formula_error',
      'merged_cell',
      'date_as_year',
      'too_long',
      'control_characters',
      'zip_bomb',
      'xml_entity',
      'hidden_sheet',
    ] as const)
      expect(kinds, k).toContain(k);
  });

  for (const c of cases) {
    it(`${c.file}: ${c.what}`, async () => {
      const path = files.get(c.file)!;
      const { value: issues } = await bounded(TIME_BOUND_MS, RSS_BOUND, () => throughCli(c, path));
      checkIssues(c, issues);
      if (c.expect.value) {
        const v = c.expect.value;
        const parsed = await readWorkbook(path);
        const row = parsed.sheets.find((s) => s.name === v.sheet)?.rows.find((r) => r.row === v.row);
        expect(row?.values[v.field], `${describeCase(c)}: ${v.sheet} row ${v.row} ${v.field}`).toBe(v.equals);
      }
    });
  }

  for (const c of largeCases) {
    it(`${c.file}: ${c.what} (generated at test time)`, async () => {
      const path = join(dir, c.file);
      await c.make(path);
      try {
        const { value: issues } = await bounded(TIME_BOUND_MS, RSS_BOUND, () => throughCli(c, path));
        checkIssues(c, issues);
      } finally {
        await rm(path, { force: true });
      }
    });
  }
});
