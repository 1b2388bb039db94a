/**
 * A CLI command run in this process the way main.ts runs it (arguments parsed, a RunContext, errors described
 * with their exit code), against a test environment's sandbox: what it printed, its exit code and the requests
 * the sandbox saw meanwhile. Shared by the `--lca-impact` CLI tests.
 */
import { parseCommandArgs } from '../../core/cli/shared/args.js';
import { RunContext, type GlobalValues } from '../../core/cli/shared/context.js';
import { describeError } from '../../core/cli/shared/errors.js';
import type { CliCommand } from '../../core/cli/shared/types.js';
import type { Env } from '../jobs/helpers.js';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  requests: { method: string; path: string }[];
}

/**
 * Run `command` with `args` (and `--jobs-dir` of `env`); `vars`: more environment variables; `stopAtJobStart`
 * cancels it once its job has started (as Ctrl+C would).
 */
export async function runInProcess(
  env: Env,
  command: CliCommand,
  args: string[],
  o: { stopAtJobStart?: boolean; vars?: Record<string, string> } = {},
): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const mark = await env.requestsMark();
  const stop = new AbortController();
  const io = {
    stdout: (s: string) => void (stdout += s),
    stderr: (s: string) => {
      stderr += s;
      if (o.stopAtJobStart && /^job \S+ \(journal in/m.test(s)) stop.abort(new Error('stopped by the test'));
    },
    env: { SUPPLY_LOADER_API_KEY: env.sb.ownerKey, SUPPLY_LOADER_BASE_URL: env.sb.baseUrl, ...o.vars },
    cwd: env.dir,
    isTTY: false,
  };
  let ctx: RunContext | undefined;
  let code: number;
  try {
    const { values, positionals } = parseCommandArgs(
      [...args, '--jobs-dir', env.jobsDir],
      command.options,
      command.name,
    );
    ctx = new RunContext(io, values as GlobalValues, stop.signal);
    code = await command.run(values, positionals, ctx);
  } catch (e) {
    const d = describeError(e, command.name);
    stderr += `supply-loader: ${d.message}\n`;
    code = d.exitCode;
  } finally {
    await ctx?.close();
  }
  return { code, stdout, stderr, requests: await env.requestsSince(mark) };
}

/** The LCA recomputes a run asked for. */
export const lcaUpdates = (r: Run) => r.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/lca-update'));
