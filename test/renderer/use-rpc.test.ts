/**
 * The busy/error rules every screen shares (renderer/src/useRpc.tsx): busy while a call runs, its failure in
 * words, a new call clears the last error, a call overtaken by the same action or orphaned changes nothing and
 * hands on nothing.
 * The hook only binds RpcRunner to React state; the screens' use of it is covered by the E2E flows.
 */
import { describe, expect, it } from 'vitest';
import type { RpcError } from '../../core/ipc/contract.js';
import { RpcFailure } from '../../renderer/src/api.js';
import { RpcRunner, type RpcState } from '../../renderer/src/useRpc.js';

function runner<B>() {
  const state: RpcState<B> = { busy: null, error: null };
  const r = new RpcRunner<B>((change) => Object.assign(state, change));
  return { r, state };
}

/** A call the test settles by hand. */
function pending<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const refused: RpcError = { code: 'api_error', message: 'no', errCode: 'err_auth_key_revoked', status: 401 };

describe('RpcRunner (useRpc)', () => {
  it('is busy with the action while the call runs, and not after; hands on the value', async () => {
    const { r, state } = runner<'save' | 'delete'>();
    const call = pending<number>();
    const done = r.run(() => call.promise, 'save');
    expect(state.busy).toBe('save');
    call.resolve(42);
    await expect(done).resolves.toBe(42);
    expect(state).toEqual({ busy: null, error: null });
  });

  it('keeps a failure as an RpcError in words, and is no longer busy', async () => {
    const { r, state } = runner<true>();
    const v = await r.run(() => Promise.reject(new RpcFailure(refused)), true);
    expect(v).toBeUndefined();
    expect(state).toEqual({ busy: null, error: refused });
    const w = await r.run(() => Promise.reject(new Error('disk full')), true);
    expect(w).toBeUndefined();
    expect(state.error).toEqual({ code: 'internal', message: 'disk full' });
  });

  it('a new call clears the last error', async () => {
    const { r, state } = runner<true>();
    await r.run(() => Promise.reject(new Error('first')), true);
    const call = pending<string>();
    const done = r.run(() => call.promise, true);
    expect(state.error).toBeNull();
    call.resolve('ok');
    await done;
    expect(state.error).toBeNull();
  });

  it("a call overtaken by the same action shows no error and hands on no value; the newer one's busy state stays", async () => {
    const { r, state } = runner<'query' | 'save'>();
    const first = pending<string>();
    const second = pending<string>();
    const a = r.run(() => first.promise, 'query');
    const b = r.run(() => second.promise, 'query');
    first.reject(new Error('late failure of the first query'));
    await expect(a).resolves.toBeUndefined();
    expect(state).toEqual({ busy: 'query', error: null });
    second.resolve('second answer');
    await expect(b).resolves.toBe('second answer');
    expect(state.busy).toBeNull();

    // the older answer arriving last does not overwrite the newer one
    const c = pending<string>();
    const d = pending<string>();
    const pc = r.run(() => c.promise, 'query');
    const pd = r.run(() => d.promise, 'query');
    d.resolve('new');
    c.resolve('old');
    await expect(pd).resolves.toBe('new');
    await expect(pc).resolves.toBeUndefined();
  });

  it("a call of another action still counts, but does not end the newer call's busy state", async () => {
    const { r, state } = runner<'options' | 'select'>();
    const options = pending<string[]>();
    const select = pending<string>();
    const o = r.run(() => options.promise, 'options');
    const s = r.run(() => select.promise, 'select');
    options.resolve(['P-1']);
    await expect(o).resolves.toEqual(['P-1']);
    expect(state.busy).toBe('select');
    select.reject(new Error('refused'));
    await expect(s).resolves.toBeUndefined();
    expect(state).toEqual({ busy: null, error: { code: 'internal', message: 'refused' } });

    const late = pending<string>();
    const l = r.run(() => late.promise, 'options');
    const now = r.run(() => Promise.resolve('selected'), 'select');
    await expect(now).resolves.toBe('selected');
    late.reject(new Error('options failed'));
    await expect(l).resolves.toBeUndefined();
    expect(state.error).toEqual({ code: 'internal', message: 'options failed' });
  });

  it('changes nothing once the screen is gone, and again when it is shown again', async () => {
    const { r, state } = runner<true>();
    const call = pending<string>();
    const done = r.run(() => call.promise, true);
    r.dispose();
    call.reject(new Error('after unmount'));
    await expect(done).resolves.toBeUndefined();
    expect(state).toEqual({ busy: true, error: null });
    r.fail(new Error('late'));
    expect(state.error).toBeNull();
    r.revive();
    await r.run(() => Promise.reject(new Error('shown')), true);
    expect(state).toEqual({ busy: null, error: { code: 'internal', message: 'shown' } });
  });

  it('fail shows a failure from elsewhere: a thrown error in words, an RpcError as it is; dismiss clears it', () => {
    const { r, state } = runner<true>();
    r.fail(refused);
    expect(state.error).toBe(refused);
    r.fail(new RpcFailure(refused));
    expect(state.error).toEqual(refused);
    r.fail('plain text');
    expect(state.error).toEqual({ code: 'internal', message: 'plain text' });
    r.dismiss();
    expect(state.error).toBeNull();
  });

  it('hands failures to the owner instead of keeping them, when it has one; still busy and stale rules', async () => {
    const { r, state } = runner<true>();
    const shown: RpcError[] = [];
    r.onError = (e) => shown.push(e);
    const call = pending<string>();
    const done = r.run(() => call.promise, true);
    expect(state.busy).toBe(true);
    call.reject(new RpcFailure(refused));
    await expect(done).resolves.toBeUndefined();
    expect(state).toEqual({ busy: null, error: null });
    expect(shown).toEqual([refused]);
    r.fail(new Error('upload failed'));
    expect(shown[1]).toEqual({ code: 'internal', message: 'upload failed' });
    expect(state.error).toBeNull();
    r.dispose();
    r.fail(new Error('after unmount'));
    expect(shown).toHaveLength(2);
  });
});
