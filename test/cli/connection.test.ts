/**
 * The CLI's command line and connection: --api-key refused, usage errors (exit 2), key from the environment,
 * from --api-key-file and from a saved profile, a refused key and an unreachable service (exit 3), and the key
 * never printed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../core/spec/scopes.js';
import { cli, control, requests, clearRequests, sandbox, tmpDir, type Sandbox } from './helpers.js';

let sb: Sandbox;
let secret: string;

beforeAll(async () => {
  sb = await sandbox('demo');
  secret = sb.ownerKey.split('-').slice(2).join('-');
});
afterAll(async () => {
  await sb.close();
});

const noKey = (r: { stdout: string; stderr: string }) => {
  expect(r.stdout).not.toContain(secret);
  expect(r.stderr).not.toContain(secret);
};

describe('command line', () => {
  it('refuses --api-key as a flag, in either form, with the reason, exit 2, nothing sent', async () => {
    await clearRequests(sb);
    for (const args of [
      ['me', '--api-key', sb.ownerKey],
      ['me', `--api-key=${sb.ownerKey}`],
      ['--api-key', sb.ownerKey, 'import', 'x.xlsx'],
    ]) {
      const r = await cli(args, { baseUrl: sb.baseUrl });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--api-key/);
      expect(r.stderr).toMatch(/shell history/);
      expect(r.stderr).toMatch(/SUPPLY_LOADER_API_KEY/);
      noKey(r);
    }
    expect(await requests(sb)).toEqual([]);
  });

  it('usage errors are one clear line and exit 2: unknown command, unknown option, missing argument', async () => {
    const unknownCmd = await cli(['frobnicate']);
    expect(unknownCmd.code).toBe(2);
    expect(unknownCmd.stderr).toMatch(/unknown command "frobnicate"/);
    const unknownOpt = await cli(['jobs', '--frob']);
    expect(unknownOpt.code).toBe(2);
    expect(unknownOpt.stderr).toMatch(/unknown option --frob/);
    const missing = await cli(['export']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing COLLECTION/);
    for (const r of [unknownCmd, unknownOpt, missing]) {
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    }
    const none = await cli([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toMatch(/usage: supply-loader <command>/);
  });

  it('--help for every command prints its usage and exits 0; --json errors are JSON on stdout', async () => {
    for (const c of [
      'template',
      'validate',
      'plan',
      'import',
      'resume',
      'jobs',
      'export',
      'me',
      'sandbox',
      'profile',
      'lca',
    ]) {
      const r = await cli([c, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`usage: supply-loader ${c}`);
    }
    const list = await cli(['--help']);
    expect(list.code).toBe(0);
    for (const c of [
      'template',
      'validate',
      'plan',
      'import',
      'resume',
      'jobs',
      'export',
      'me',
      'sandbox',
      'lca',
      'profile',
    ]) {
      expect(list.stdout).toMatch(new RegExp(`\\n  ${c}\\s`));
    }
    const bad = await cli(['export', 'nothing', '-o', 'x.xlsx', '--json']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, exit_code: 2 });
  });

  it('a command that needs the service without one says what to give, exit 2', async () => {
    const noUrl = await cli(['me'], { key: sb.ownerKey });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/--base-url/);
    const noKeyGiven = await cli(['me'], { baseUrl: sb.baseUrl });
    expect(noKeyGiven.code).toBe(2);
    expect(noKeyGiven.stderr).toMatch(/SUPPLY_LOADER_API_KEY.*--api-key-file/);
    const malformed = await cli(['me'], { baseUrl: sb.baseUrl, key: 'not-a-key' });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/svc-<key_id>-<secret>/);
    expect(malformed.stderr).not.toContain('not-a-key');
  });
});

describe('connection', () => {
  it('me: key from SUPPLY_LOADER_API_KEY, shown masked, with scopes and plant codes', async () => {
    const r = await cli(['me', '--json'], { baseUrl: sb.baseUrl, key: sb.ownerKey });
    expect(r.code).toBe(0);
    const me = JSON.parse(r.stdout);
    expect(me.manufacturer_id).toBe(sb.manufacturerId);
    expect(me.key).toMatch(/^svc-[A-Za-z0-9]+-\*\*\*\*$/);
    expect(me.key_source).toBe('SUPPLY_LOADER_API_KEY');
    expect(me.scopes).toEqual(expect.arrayContaining(['edit:materials', 'edit:recipes']));
    expect(me.plants.map((p: { code: string }) => p.code).sort()).toEqual(['PL-HEID', 'PL-MUC', 'PL-OSTR']);
    noKey(r);
    const human = await cli(['me'], { baseUrl: sb.baseUrl, key: sb.ownerKey });
    expect(human.stdout).toMatch(/plants: +PL-/);
    noKey(human);
  });

  it('--api-key-file: one key line (comments allowed); a missing or malformed file is exit 2', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'key.txt');
    fs.writeFileSync(file, `# service key\n${sb.ownerKey}\n`, { mode: 0o600 });
    const r = await cli(['me', '--json', '--api-key-file', 'key.txt'], { baseUrl: sb.baseUrl, cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).key_source).toBe('--api-key-file');
    const missing = await cli(['me', '--api-key-file', 'nope.txt'], { baseUrl: sb.baseUrl, cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/there is no file .*nope\.txt/);
    fs.writeFileSync(path.join(dir, 'two.txt'), `${sb.ownerKey}\n${sb.ownerKey}\n`);
    const two = await cli(['me', '--api-key-file', 'two.txt'], { baseUrl: sb.baseUrl, cwd: dir });
    expect(two.code).toBe(2);
    noKey(two);
  });

  it('a saved profile: profile add checks and stores base URL + key; --profile NAME connects; remove', async () => {
    const configDir = tmpDir('sl-cli-config-');
    const add = await cli(['profile', 'add', 'Werk Süd', '--base-url', sb.baseUrl], { key: sb.ownerKey, configDir });
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/Saved profile "Werk Süd"/);
    noKey(add);
    const secrets = fs.readFileSync(path.join(configDir, 'secrets.json'), 'utf8');
    expect(secrets).toContain(sb.ownerKey); // the file store is documented as plain (owner-only) …
    expect(fs.statSync(path.join(configDir, 'secrets.json')).mode & 0o077).toBe(0); // … and readable by the owner only
    expect(fs.readFileSync(path.join(configDir, 'settings.json'), 'utf8')).not.toContain(secret);

    const me = await cli(['me', '--json', '--profile', 'werk süd'], { configDir });
    expect(me.code).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ base_url: sb.baseUrl, key_source: 'profile "Werk Süd"' });
    noKey(me);

    const list = await cli(['profile', 'list', '--json'], { configDir });
    expect(JSON.parse(list.stdout).profiles).toEqual([
      { name: 'Werk Süd', base_url: sb.baseUrl, key: expect.stringMatching(/\*\*\*\*$/) },
    ]);
    noKey(list);

    const unknown = await cli(['me', '--profile', 'Nord'], { configDir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no saved profile "Nord".*Werk Süd/);

    const badKey = await cli(['profile', 'add', 'Bad', '--base-url', sb.baseUrl], {
      key: 'svc-0000-abcdefabcdef',
      configDir,
    });
    expect(badKey.code).toBe(3); // checked against the service before saving
    expect((await cli(['profile', 'list', '--json'], { configDir })).stdout).not.toContain('"Bad"');

    expect((await cli(['profile', 'remove', 'Werk Süd'], { configDir })).code).toBe(0);
    expect(fs.readFileSync(path.join(configDir, 'secrets.json'), 'utf8')).not.toContain(secret);
  });

  it('a revoked key is refused by the service: exit 3 with the reason and err_code, never the key', async () => {
    const k = await control<{ key: string; api_key_id: string }>(sb, 'POST', '/keys', {
      scopes: [...SCOPES],
      plant_ids: null,
    });
    const ok = await cli(['me'], { baseUrl: sb.baseUrl, key: k.key });
    expect(ok.code).toBe(0);
    await control(sb, 'DELETE', `/keys/${k.api_key_id}`);
    const r = await cli(['me'], { baseUrl: sb.baseUrl, key: k.key });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/refused the API key.*err_not_authenticated/);
    expect(r.stderr).not.toContain(k.key.split('-').slice(2).join('-'));
  });

  it('an unreachable service: exit 3 with what to check', async () => {
    const r = await cli(['me'], { baseUrl: 'http://127.0.0.1:1', key: sb.ownerKey });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Could not reach the service/);
    expect(r.stderr).toMatch(/--base-url/);
    noKey(r);
  });
});
