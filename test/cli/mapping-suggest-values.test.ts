/**
 * `mapping suggest` with a connection configured: the service's codes name a column by its values (a column of
 * the service's plant codes is plant_code); without one it suggests from the files alone, and a connection that
 * cannot be reached is said once and the draft is still written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, sandbox, tmpDir, type Sandbox } from './helpers.js';

const dir = tmpDir('sl-suggest-values-');
let sb: Sandbox;

beforeAll(async () => {
  sb = await sandbox('demo');
  // "Kennung" says nothing; its values are the demo service's plant codes.
  fs.writeFileSync(
    path.join(dir, 'Einkauf.csv'),
    'Materialnummer;Materialkurztext;Kennung;Materialart;ME\n' +
      'E-1;Sand;PL-MUC;MAT-SAND;KG\nE-2;Kies;PL-HEID;MAT-SAND;KG\nE-3;Splitt;PL-OSTR;MAT-SAND;KG\n',
  );
});
afterAll(async () => {
  await sb?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const draft = () => JSON.parse(fs.readFileSync(path.join(dir, 'draft.json'), 'utf8'));

describe('mapping suggest by values', () => {
  it('connected: a column of the service plant codes is plant_code (values); offline it is not mapped', async () => {
    const on = await cli(['mapping', 'suggest', 'Einkauf.csv', '-o', 'draft.json'], {
      cwd: dir,
      key: sb.ownerKey,
      baseUrl: sb.baseUrl,
    });
    expect(on.stderr).toBe('');
    expect(on.stdout).toMatch(/Kennung → plant_code {2}\(values, \d+ %\)/);
    expect(draft().sheets['supplier-products'].columns).toMatchObject({ Kennung: 'plant_code' });

    const off = await cli(['mapping', 'suggest', 'Einkauf.csv', '-o', 'draft.json'], { cwd: dir });
    expect(off.stderr).not.toMatch(/codes could not be read/);
    expect(draft().sheets['supplier-products'].columns.Kennung).toBeUndefined();
  });

  it('a configured service that cannot be reached: said once, the draft is written from the files alone', async () => {
    const r = await cli(['mapping', 'suggest', 'Einkauf.csv', '-o', 'draft.json'], {
      cwd: dir,
      key: 'svc-unreachable-0123456789abcdef',
      baseUrl: 'http://127.0.0.1:9',
    });
    expect(r.stderr).toMatch(/The service's codes could not be read .*: suggesting from the files alone\./);
    expect([0, 2]).toContain(r.code);
    expect(draft().sheets['supplier-products'].columns.Materialnummer).toBe('external_id');
  });
});
