/** Logic of the renderer that is not layout: profile form checks, error wording, the HTTP transport. */
import { describe, expect, it } from 'vitest';
import { createApi, httpTransport, RpcFailure } from '../../renderer/src/api.js';
import { describeError } from '../../renderer/src/errors.js';
import { translate } from '../../renderer/src/i18n/index.js';
import type { T } from '../../renderer/src/i18n/index.js';
import { validateProfileForm } from '../../renderer/src/profileForm.js';

const tEn: T = (k, v) => translate('en', k, v);
const tDe: T = (k, v) => translate('de', k, v);

describe('profile form', () => {
  it('accepts a complete profile', () => {
    expect(
      validateProfileForm(
        { name: 'Prod', baseUrl: 'https://api.example.com', apiKey: 'svc-abc-Secret1' },
        { keyRequired: true },
      ),
    ).toEqual({});
  });
  it('names each wrong field', () => {
    expect(validateProfileForm({ name: ' ', baseUrl: 'ftp://x', apiKey: 'abc' }, { keyRequired: false })).toEqual({
      name: 'nameRequired',
      baseUrl: 'urlInvalid',
      apiKey: 'keyFormat',
    });
    expect(
      validateProfileForm({ name: 'a', baseUrl: 'https://u:p@x.example', apiKey: '' }, { keyRequired: true }),
    ).toEqual({
      baseUrl: 'urlCredentials',
      apiKey: 'keyRequired',
    });
    expect(validateProfileForm({ name: 'a', baseUrl: 'not a url', apiKey: '' }, { keyRequired: false })).toEqual({
      baseUrl: 'urlInvalid',
    });
  });
});

describe('error wording', () => {
  it('explains a known err_code from the catalog in the user language, code beside it', () => {
    const e = { code: 'api_error' as const, message: 'raw msg', errCode: 'err_external_id_exists', status: 409 };
    const en = describeError(e, tEn, 'en');
    expect(en.errCode).toBe('err_external_id_exists');
    expect(en.title).toBe('The service refused the request.');
    expect(en.detail).not.toBe('raw msg');
    expect(en.detail?.length).toBeGreaterThan(10);
    const de = describeError(e, tDe, 'de');
    expect(de.title).toBe('Der Dienst hat die Anfrage abgelehnt.');
    expect(de.detail).not.toBe(en.detail);
  });
  it('keeps an unknown err_code verbatim with the service words', () => {
    const d = describeError(
      { code: 'api_error', message: 'Quota of widgets exceeded', errCode: 'err_brand_new' },
      tEn,
      'en',
    );
    expect(d.errCode).toBe('err_brand_new');
    expect(d.detail).toContain('Quota of widgets exceeded');
  });
  it('lists field issues for invalid input', () => {
    const d = describeError(
      { code: 'invalid_input', message: 'Some values are not valid.', issues: [{ path: 'baseUrl', message: 'bad' }] },
      tEn,
      'en',
    );
    expect(d.issues).toEqual([{ path: 'baseUrl', message: 'bad' }]);
  });
});

describe('HTTP transport', () => {
  it('posts JSON to /rpc/<name> and unwraps the envelope', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const fetchImpl = (async (url: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(url), init });
      return new Response(JSON.stringify({ ok: true, data: { language: 'de', theme: 'dark' } }), { status: 200 });
    }) as typeof fetch;
    const api = createApi(httpTransport('', fetchImpl, undefined));
    await expect(api.call('settings.get', {})).resolves.toEqual({ language: 'de', theme: 'dark' });
    expect(calls[0].url).toBe('/rpc/settings.get');
    expect(calls[0].init?.method).toBe('POST');
    expect((calls[0].init?.headers as Record<string, string>)['content-type']).toBe('application/json');
  });
  it('turns an error envelope, a non-JSON answer and a dead server into RpcFailure', async () => {
    const answers: (() => Promise<Response>)[] = [
      async () =>
        new Response(JSON.stringify({ ok: false, error: { code: 'forbidden', message: 'no' } }), { status: 401 }),
      async () => new Response('<html>', { status: 502 }),
      async () => {
        throw new TypeError('fetch failed');
      },
    ];
    const fetchImpl = (() => (answers.shift() as () => Promise<Response>)()) as unknown as typeof fetch;
    const api = createApi(httpTransport('', fetchImpl, undefined));
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      try {
        await api.call('app.info', {});
      } catch (e) {
        expect(e).toBeInstanceOf(RpcFailure);
        codes.push((e as RpcFailure).error.code);
      }
    }
    expect(codes).toEqual(['forbidden', 'unavailable', 'unavailable']);
  });
});

describe('workbook upload encoding', () => {
  it('encodes large byte arrays as base64 in chunks, exactly as Node does', async () => {
    const { bytesToBase64 } = await import('../../renderer/src/files.js');
    const bytes = new Uint8Array(100_003).map((_, i) => (i * 31 + 7) & 0xff);
    expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    expect(bytesToBase64(new Uint8Array())).toBe('');
  });
});
