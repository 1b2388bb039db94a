/**
 * Browser mode's loopback transport: the token, Host and Origin guards (a page on another origin, a
 * DNS-rebinding page or a request without the token cannot drive it), the cookie hand-off, static files,
 * server-sent events, and the profile/key handling against the real in-process sandbox.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import { startBrowserMode } from '../../core/ipc/browser-mode.js';
import type { Logger } from '../../core/app/services.js';
import { startSandbox } from '../../sandbox/index.js';

const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Raw request (node:http, so Host and Origin can be set freely — fetch would not allow it). */
function request(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: { host: `127.0.0.1:${port}`, ...opts.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

let mode: BrowserMode;
let dir: string;
let staticDir: string;

function rpc(name: string, input: unknown, headers: Record<string, string> = {}) {
  return request(mode.port, {
    method: 'POST',
    path: `/rpc/${name}`,
    headers: { 'content-type': 'application/json', 'x-supply-loader-token': mode.token, ...headers },
    body: JSON.stringify(input),
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-browser-'));
  staticDir = path.join(dir, 'ui');
  fs.mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>UI</title>');
  fs.writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'outside.txt'), 'must not be served');
  mode = await startBrowserMode({
    port: 0,
    staticDir,
    configDir: path.join(dir, 'config'),
    startSandbox,
    log: quiet,
    appVersion: '1.2.3',
  });
});

afterAll(async () => {
  await mode?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('browser mode guards', () => {
  it('listens on loopback and prints a URL with a long random token', () => {
    expect(mode.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${mode.port}/\\?token=[A-Za-z0-9_-]{40,}$`));
  });

  it('refuses a request without the token or with a wrong one', async () => {
    const none = await request(mode.port, {
      method: 'POST',
      path: '/rpc/app.info',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const wrong = await rpc('app.info', {}, { 'x-supply-loader-token': 'x'.repeat(mode.token.length) });
    expect(wrong.status).toBe(401);
    expect((await request(mode.port, { path: '/' })).status).toBe(401);
    expect((await request(mode.port, { path: '/events' })).status).toBe(401);
    expect((await request(mode.port, { path: '/?token=wrong' })).status).toBe(401);
  });

  it('tells a person who opens the app without the token what to do, in words on a page', async () => {
    const r = await request(mode.port, { path: '/', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(r.status).toBe(401);
    expect(r.headers['content-type']).toContain('text/html');
    expect(r.body).toContain('Open the URL that Supply Loader printed');
    expect(r.body).not.toContain('{"ok"');
    expect(r.body).not.toContain(mode.token);
  });

  it('refuses a foreign Origin even with the token', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1:1', 'null']) {
      const r = await rpc('profiles.list', {}, { origin });
      expect(r.status).toBe(403);
      expect(r.body).not.toContain('profiles');
    }
    const site = await rpc('profiles.list', {}, { 'sec-fetch-site': 'cross-site' });
    expect(site.status).toBe(403);
    const own = await rpc('profiles.list', {}, { origin: mode.origin });
    expect(own.status).toBe(200);
  });

  it('refuses a rebinding Host even with the token', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${mode.port}`,
      `127.0.0.1:${mode.port + 1}`,
      `localhost.evil.example:${mode.port}`,
    ]) {
      const r = await rpc('app.info', {}, { host });
      expect(r.status).toBe(403);
    }
    expect((await rpc('app.info', {}, { host: `localhost:${mode.port}` })).status).toBe(200);
  });

  it('refuses a request without any Host header', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const sock = net.connect(mode.port, '127.0.0.1', () => {
        sock.write(
          `POST /rpc/app.info HTTP/1.0\r\ncontent-type: application/json\r\nx-supply-loader-token: ${mode.token}\r\ncontent-length: 2\r\n\r\n{}`,
        );
      });
      let data = '';
      sock.on('data', (c) => (data += c.toString('utf8')));
      sock.on('end', () => resolve(data));
      sock.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.[01] 403/);
  });

  it('trades ?token= for an HttpOnly SameSite=Strict cookie and drops it from the address', async () => {
    const r = await request(mode.port, { path: `/?token=${mode.token}` });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/');
    const cookie = String(r.headers['set-cookie']);
    expect(cookie).toContain(`${mode.cookieName}=${mode.token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const page = await request(mode.port, { path: '/', headers: { cookie: `${mode.cookieName}=${mode.token}` } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>UI</title>');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    const viaCookie = await request(mode.port, {
      method: 'POST',
      path: '/rpc/app.info',
      headers: { cookie: `${mode.cookieName}=${mode.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(JSON.parse(viaCookie.body)).toMatchObject({ ok: true, data: { mode: 'browser', version: '1.2.3' } });
  });

  it('serves the UI but nothing outside it', async () => {
    const h = { 'x-supply-loader-token': mode.token };
    const js = await request(mode.port, { path: '/assets/app.js', headers: h });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toContain('text/javascript');
    for (const p of ['/../outside.txt', '/%2e%2e/outside.txt', '/assets/..%2f..%2foutside.txt']) {
      const r = await request(mode.port, { path: p, headers: h });
      expect(r.body).not.toContain('must not be served');
    }
  });

  it('asks for JSON bodies (no simple cross-site form posts) and answers in words', async () => {
    const form = await request(mode.port, {
      method: 'POST',
      path: '/rpc/settings.update',
      headers: { 'x-supply-loader-token': mode.token, 'content-type': 'text/plain' },
      body: '{"language":"de"}',
    });
    expect(form.status).toBe(415);
    const broken = await request(mode.port, {
      method: 'POST',
      path: '/rpc/settings.update',
      headers: { 'x-supply-loader-token': mode.token, 'content-type': 'application/json' },
      body: '{"language":',
    });
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body).error.code).toBe('invalid_input');
    const unknown = await rpc('shell.openExternal', {});
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toBe('unknown_procedure');
    const invalid = await rpc('settings.update', { theme: 'pink' });
    expect(JSON.parse(invalid.body)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', issues: [{ path: 'theme' }] },
    });
  });
});

describe('profiles and keys in browser mode', () => {
  const KEY = 'svc-k3yid-VerySecretValue123';

  it('stores a key in a 0600 file, returns it only masked, and forgets it on delete', async () => {
    const saved = JSON.parse(
      (await rpc('profiles.save', { name: 'Production', baseUrl: 'https://api.example.com/', apiKey: KEY })).body,
    );
    expect(saved).toMatchObject({
      ok: true,
      data: { name: 'Production', baseUrl: 'https://api.example.com', hasKey: true, maskedKey: 'svc-k3yid-****' },
    });
    const id = saved.data.profileId as string;
    const secretsFile = path.join(dir, 'config', 'secrets.json');
    expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(dir, 'config', 'settings.json'), 'utf8')).not.toContain('VerySecret');
    const list = (await rpc('profiles.list', {})).body;
    expect(list).not.toContain('VerySecret');
    expect(list).toContain('svc-k3yid-****');
    const info = JSON.parse((await rpc('app.info', {})).body);
    expect(info.data.secretStorage).toEqual({ backend: 'file', encrypted: false, warning: 'plain_file' });

    const selected = JSON.parse((await rpc('profiles.select', { profileId: id })).body);
    expect(selected.data.activeProfileId).toBe(id);
    const deleted = JSON.parse((await rpc('profiles.delete', { profileId: id })).body);
    expect(deleted.data.activeProfileId).toBe('sandbox');
    expect(deleted.data.profiles.map((p: { profileId: string }) => p.profileId)).toEqual(['sandbox']);
    expect(fs.readFileSync(secretsFile, 'utf8')).not.toContain('VerySecret');
  });

  it('does not save a profile whose key the service refuses (401): the refusal in words, nothing stored', async () => {
    await rpc('profiles.select', { profileId: 'sandbox' });
    const status = JSON.parse((await rpc('sandbox.status', {})).body);
    const baseUrl = status.data.baseUrl as string;
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    const before = JSON.parse((await rpc('profiles.list', {})).body).data.profiles.length;
    const refused = JSON.parse(
      (await rpc('profiles.save', { name: 'Refused', baseUrl, apiKey: 'svc-nokey1-NotAKnownKey123' })).body,
    );
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatchObject({ code: 'api_error', status: 401 });
    expect(refused.error.message).toContain('refused this API key');
    expect(refused.error.message).toContain('not saved');
    expect(JSON.stringify(refused)).not.toContain('NotAKnownKey123');
    const after = JSON.parse((await rpc('profiles.list', {})).body).data.profiles;
    expect(after.length).toBe(before);
    expect(after.map((p: { name: string }) => p.name)).not.toContain('Refused');
    expect(fs.readFileSync(path.join(dir, 'config', 'settings.json'), 'utf8')).not.toContain('Refused');
    // The sandbox's own key is accepted: the same form saves.
    const ok = JSON.parse(
      (await rpc('profiles.save', { name: 'Accepted', baseUrl, apiKey: mode.app.sandbox.ownerKey()! })).body,
    );
    expect(ok.ok).toBe(true);
    await rpc('profiles.delete', { profileId: ok.data.profileId });
  });

  it('refuses to edit or delete the built-in Sandbox profile', async () => {
    const edit = JSON.parse(
      (await rpc('profiles.save', { profileId: 'sandbox', name: 'X', baseUrl: 'https://x.example' })).body,
    );
    expect(edit).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const del = JSON.parse((await rpc('profiles.delete', { profileId: 'sandbox' })).body);
    expect(del).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const missing = JSON.parse((await rpc('profiles.select', { profileId: 'nope' })).body);
    expect(missing.ok).toBe(false);
  });

  it('resets the embedded sandbox and streams the change as a server-sent event', async () => {
    const received = new Promise<string>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: mode.port,
          path: '/events',
          headers: { host: `127.0.0.1:${mode.port}`, 'x-supply-loader-token': mode.token },
        },
        (res) => {
          expect(res.headers['content-type']).toContain('text/event-stream');
          let buf = '';
          let resetSent = false;
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            buf += c;
            if (!resetSent && buf.includes(': connected')) {
              resetSent = true;
              void rpc('sandbox.reset', { seed: 'demo' });
            }
            const m = /event: sandbox\.changed\ndata: (.*)\n\n/.exec(buf);
            if (m) {
              req.destroy();
              resolve(m[1]);
            }
          });
        },
      );
      req.on('error', (e) => (String(e).includes('socket hang up') ? undefined : reject(e)));
      req.end();
    });
    const payload = JSON.parse(await received);
    expect(payload).toMatchObject({ state: 'running' });
    expect(payload.maskedKey).toMatch(/^svc-[A-Za-z0-9]+-\*\*\*\*$/);
    expect(JSON.stringify(payload)).not.toContain(mode.app.sandbox.ownerKey() ?? 'never');
    // The demo data is really back: the sandbox reports its seeded plants.
    const state = await fetch(`${mode.app.sandbox.baseUrl()}/__sandbox/state`).then(
      (r) => r.json() as Promise<Record<string, { active: number }>>,
    );
    expect(state.plants?.active).toBe(3);
  });
});

describe('workbooks in browser mode', () => {
  it('has no native dialog: the page uploads the bytes and gets an opaque id', async () => {
    expect(JSON.parse((await rpc('files.pickWorkbook', {})).body)).toEqual({
      ok: true,
      data: { supported: false, file: null, files: [] },
    });
    const bytes = Buffer.from('PK\u0003\u0004 not really a workbook');
    const up = JSON.parse(
      (await rpc('files.upload', { name: '../../etc/passwd.xlsx', dataBase64: bytes.toString('base64') })).body,
    );
    expect(up).toMatchObject({ ok: true, data: { name: 'passwd.xlsx', size: bytes.length } });
    expect(up.body ?? JSON.stringify(up)).not.toContain(os.tmpdir());
    const stored = mode.app.files.path(up.data.fileId);
    expect(fs.readFileSync(stored)).toEqual(bytes);
    expect(fs.statSync(stored).mode & 0o777).toBe(0o600);
    expect(path.basename(stored)).toBe(`${up.data.fileId}.xlsx`);
  });

  it('refuses an empty file and a body that is not base64', async () => {
    expect(JSON.parse((await rpc('files.upload', { name: 'a.xlsx', dataBase64: '' })).body).error.code).toBe(
      'invalid_input',
    );
    expect(JSON.parse((await rpc('files.upload', { name: 'a.xlsx', dataBase64: 'not base64!' })).body).error.code).toBe(
      'invalid_input',
    );
  });
});
