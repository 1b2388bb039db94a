/**
 * API keys in a real keychain: a private Secret Service (a D-Bus session bus of its own and gnome-keyring,
 * unlocked with a test password, in a temporary home, so a developer's own keyring is never touched) is started;
 * `supply-loader profile add` saves the key, which is then found in the keychain (`secret-tool lookup`), not in
 * the fallback file, and read back by the key store the app opens. Needs dbus-daemon, dbus-send,
 * gnome-keyring-daemon and secret-tool (Debian: dbus, gnome-keyring, libsecret-tools) and the optional
 * @napi-rs/keyring; without them the test is skipped and says why — except with CI=true, where it fails.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYCHAIN_SERVICE, osKeychain } from '../../core/settings/keychain.js';
import { ROOT, sandbox, spawnCli, tmpDir, type Sandbox } from './helpers.js';

const TOOLS = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool'];

/** Why no Secret Service can be started here, or null when it can. */
function missing(): string | null {
  const absent = TOOLS.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
  if (absent.length)
    return `not installed: ${absent.join(', ')} (Debian: apt-get install dbus gnome-keyring libsecret-tools)`;
  if (!osKeychain()) return 'the optional package @napi-rs/keyring (or its binary) is not installed';
  return null;
}

interface SecretService {
  env: NodeJS.ProcessEnv;
  stop(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The first line a child writes to stdout. */
function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl).trim());
    });
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready: ${err.trim()}`)));
  });
}

/** A session bus and an unlocked gnome-keyring on it, for this test only (home: `home`). */
async function startSecretService(home: string): Promise<SecretService> {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: path.join(home, 'data') };
  const started: ChildProcess[] = [];
  const stop = () => {
    for (const c of started.reverse()) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  };
  try {
    const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
      env: base,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(bus);
    const address = await firstLine(bus, 'dbus-daemon');
    const env = { ...base, DBUS_SESSION_BUS_ADDRESS: address };
    const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      env,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    started.push(keyring);
    let keyringErr = '';
    keyring.stderr?.on('data', (d: Buffer) => (keyringErr += d.toString()));
    keyring.stdin?.end('test-password'); // the login keyring is created unlocked with it
    // Ready once it owns the Secret Service's name on the bus (asking does not start one through activation).
    for (let i = 0; ; i++) {
      const r = spawnSync(
        'dbus-send',
        [
          '--session',
          '--print-reply',
          '--dest=org.freedesktop.DBus',
          '/org/freedesktop/DBus',
          'org.freedesktop.DBus.NameHasOwner',
          'string:org.freedesktop.secrets',
        ],
        { env, encoding: 'utf8' },
      );
      if (/boolean true/.test(r.stdout)) break;
      if (keyring.exitCode !== null || i >= 500)
        throw new Error(
          `gnome-keyring-daemon did not come up on the test bus: ${keyringErr.trim() || r.stderr.trim()}`,
        );
      await sleep(20);
    }
    return { env, stop };
  } catch (e) {
    stop();
    throw e;
  }
}

const why = missing();
const mustRun = process.env.CI === 'true';

describe('API keys in a real keychain (Secret Service)', () => {
  let sb: Sandbox;
  let home: string;
  let service: SecretService | null = null;

  beforeAll(async () => {
    if (why && !mustRun) return;
    sb = await sandbox('demo');
    home = tmpDir('sl-keyring-home-');
    if (!why) service = await startSecretService(home);
  });
  afterAll(async () => {
    service?.stop();
    await sb?.close();
  });

  it('a key saved by `supply-loader profile add` is in the keychain, not in the fallback file, and read back by the app key store', async (ctx) => {
    if (why) {
      if (mustRun) throw new Error(`CI=true: the keychain test must run, but no Secret Service can be started: ${why}`);
      const note = `no Secret Service can be started on this machine: ${why}`;
      console.warn(`skipped: API keys in a real keychain: ${note}`);
      ctx.skip(note);
      return;
    }
    const env = service!.env;
    const configDir = path.join(home, 'config');
    const add = spawnCli(['profile', 'add', 'erp', '--base-url', sb.baseUrl], {
      configDir,
      key: sb.ownerKey,
      env: { ...env, SUPPLY_LOADER_KEYCHAIN: 'on' },
    });
    const added = await add.exit;
    expect(added.code, add.stderr()).toBe(0);
    expect(add.stderr()).not.toMatch(/no OS keychain could be used/);
    expect(add.stdout()).toMatch(/Saved profile "erp"/);

    // The profile is in the settings; its key in no file of the config dir.
    const settings = JSON.parse(fs.readFileSync(path.join(configDir, 'settings.json'), 'utf8')) as {
      profiles: { id: string; name: string }[];
    };
    const profile = settings.profiles.find((p) => p.name === 'erp');
    expect(profile).toBeDefined();
    const secretsFile = path.join(configDir, 'secrets.json');
    if (fs.existsSync(secretsFile)) expect(fs.readFileSync(secretsFile, 'utf8')).not.toContain(sb.ownerKey);
    for (const f of fs.readdirSync(configDir, { recursive: true, encoding: 'utf8' })) {
      const file = path.join(configDir, f);
      if (fs.statSync(file).isFile()) expect(fs.readFileSync(file, 'utf8'), f).not.toContain(sb.ownerKey);
    }

    // In the keychain: one entry, service supply-loader, account = the profile id.
    const lookup = spawnSync('secret-tool', ['lookup', 'service', KEYCHAIN_SERVICE, 'username', profile!.id], {
      env,
      encoding: 'utf8',
    });
    expect(lookup.status, lookup.stderr).toBe(0);
    expect(lookup.stdout).toBe(sb.ownerKey);

    // Read back by the key store the app opens (its own process, this Secret Service).
    const read = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'test/fixtures/key-store-read.ts', configDir, profile!.id],
      {
        cwd: ROOT,
        env: { ...env, SUPPLY_LOADER_KEYCHAIN: 'on' },
        encoding: 'utf8',
      },
    );
    expect(read.status, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toEqual({ backend: 'keychain:os', key: sb.ownerKey });

    // And used: a command with --profile reaches the service with the key from the keychain.
    const me = spawnCli(['me', '--profile', 'erp'], { configDir, env: { ...env, SUPPLY_LOADER_KEYCHAIN: 'on' } });
    expect((await me.exit).code, me.stderr()).toBe(0);
  });
});
