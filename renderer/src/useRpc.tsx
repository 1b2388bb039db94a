/**
 * The busy/error handling around the contract's calls, once for every screen: while a call runs the screen is
 * `busy` (with a tag saying which action, when a screen has several buttons), a failure becomes an `RpcError`
 * shown by ErrorNotice, a new call clears the last error. `RpcRunner` holds the rules without React (unit-tested
 * in test/renderer/use-rpc.test.ts); `useRpc` binds it to a component's state.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { RpcError } from '../../core/ipc/contract.js';
import { ErrorNotice } from './components/ErrorNotice.js';
import { toRpcError } from './errors.js';

/** An error already in words (a child component hands on an RpcError), not a thrown Error. */
function isRpcError(e: unknown): e is RpcError {
  if (typeof e !== 'object' || e === null || e instanceof Error) return false;
  const r = e as Partial<RpcError>;
  return typeof r.code === 'string' && typeof r.message === 'string';
}

export interface RpcState<B> {
  /** the action running (`true` for a screen with one), null when none */
  busy: B | null;
  /** the last call's failure in words, until dismissed or the next call */
  error: RpcError | null;
}

/**
 * The rules: a call sets `busy` and clears the error; its failure is kept as an RpcError; `busy` is cleared when
 * the newest call settles (so an older one never ends a newer one's busy state). A call overtaken by a newer
 * call of the same action (a query asked again, the plan of another job) is stale: it shows no error and its
 * value is not handed on (undefined), so an old answer never overwrites a newer one. A call of another action
 * still counts. Once the screen is gone, no call changes anything.
 */
export class RpcRunner<B> {
  /** the newest call: its settling ends `busy` */
  private latest = 0;
  /** the newest call of each action: only its answer counts */
  private readonly latestOf = new Map<B, number>();
  private alive = true;
  /** Where failures go instead of the state, when a parent shows them (a part of a screen: its owner's notice). */
  onError: ((e: RpcError) => void) | undefined;

  constructor(private readonly update: (change: Partial<RpcState<B>>) => void) {}

  /** Run `call` as the action `busy`: its value, or undefined when it failed (the error is in the state) or is stale. */
  async run<R>(call: () => Promise<R>, busy: B): Promise<R | undefined> {
    const id = ++this.latest;
    this.latestOf.set(busy, id);
    const counts = () => this.alive && this.latestOf.get(busy) === id;
    this.update({ busy, error: null });
    try {
      const value = await call();
      return counts() ? value : undefined;
    } catch (e) {
      if (counts()) this.show(toRpcError(e));
      return undefined;
    } finally {
      if (this.alive && id === this.latest) this.update({ busy: null });
    }
  }

  /** Show a failure that came another way (an event, a child's callback, a call not run through `run`). */
  fail(e: unknown): void {
    if (this.alive) this.show(isRpcError(e) ? e : toRpcError(e));
  }

  dismiss(): void {
    if (this.alive) this.update({ error: null });
  }

  /** The screen is shown (again): state may change. */
  revive(): void {
    this.alive = true;
  }

  /** The screen is gone: late answers change nothing. */
  dispose(): void {
    this.alive = false;
  }

  private show(error: RpcError): void {
    if (this.onError) this.onError(error);
    else this.update({ error });
  }
}

export interface Rpc<B> extends RpcState<B> {
  /** Run a call (or several steps) as one action; its value, or undefined when it failed or is stale. */
  run<R>(call: () => Promise<R>, ...busy: B extends true ? [busy?: B] : [busy: B]): Promise<R | undefined>;
  fail(e: unknown): void;
  dismiss(): void;
  /** The error as a dismissible notice, or nothing. */
  notice: ReactNode;
}

/**
 * Busy state and error of a component's calls. `B`: the names of its actions (default: one action, `true`).
 * `onError`: a part of a screen hands its failures to its owner (who shows them) instead of keeping them.
 */
export function useRpc<B = true>(onError?: (e: RpcError) => void): Rpc<B> {
  const [state, setState] = useState<RpcState<B>>({ busy: null, error: null });
  // one runner and one set of functions per component: stable, so effects may use them
  const { runner, calls } = useMemo(() => {
    const r = new RpcRunner<B>((change) => setState((s) => ({ ...s, ...change })));
    const c: Pick<Rpc<B>, 'run' | 'fail' | 'dismiss'> = {
      run: (call, ...busy) => r.run(call, (busy.length ? busy[0] : true) as B),
      fail: (e) => r.fail(e),
      dismiss: () => r.dismiss(),
    };
    return { runner: r, calls: c };
  }, []);
  runner.onError = onError;
  useEffect(() => {
    runner.revive();
    return () => runner.dispose();
  }, [runner]);
  return {
    ...state,
    ...calls,
    notice: state.error && <ErrorNotice error={state.error} onDismiss={calls.dismiss} />,
  };
}
