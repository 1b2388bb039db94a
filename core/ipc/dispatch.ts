/**
 * The single entry both transports call: name allowlist → input schema → handler → output schema → envelope.
 * Never throws; every failure is an RpcError in words.
 */
import { procedures } from './contract.js';
import type { RpcResult } from './contract.js';
import { toRpcError, zodIssues } from './errors.js';
import type { HandlerTable } from './contract.js';
import { handlers as defaultHandlers } from './handlers.js';
import { isProcedureName } from '../contract/names.js';
import type { ProcedureName } from '../contract/names.js';
import type { AppServices } from '../app/services.js';

export async function dispatch(
  name: unknown,
  rawInput: unknown,
  app: AppServices,
  table: HandlerTable<AppServices> = defaultHandlers,
): Promise<RpcResult> {
  if (!isProcedureName(name)) {
    return { ok: false, error: { code: 'unknown_procedure', message: 'Unknown request.' } };
  }
  const def = procedures[name];
  const parsed = def.input.safeParse(rawInput === undefined ? {} : rawInput);
  if (!parsed.success) {
    return {
      ok: false,
      error: { code: 'invalid_input', message: 'Some values are not valid.', issues: zodIssues(parsed.error) },
    };
  }
  const report = (err: unknown) => app.log.error({ procedure: name, err }, 'handler failed');
  try {
    const handler = table[name] as (input: unknown, app: AppServices) => Promise<unknown>;
    const out = await handler(parsed.data, app);
    const checked = def.output.safeParse(out);
    if (!checked.success) {
      app.log.error(
        { procedure: name, issues: zodIssues(checked.error) },
        'handler output does not match the contract',
      );
      return {
        ok: false,
        error: { code: 'internal', message: 'Something went wrong inside Supply Loader. The details are in the log.' },
      };
    }
    return { ok: true, data: checked.data };
  } catch (err) {
    return { ok: false, error: toRpcError(err, report) };
  }
}

export type { ProcedureName };
