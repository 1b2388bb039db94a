/**
 * `supply-loader` — the command-line interface (bin/supply-loader.cjs: `npx supply-loader …`, or
 * `npm run --silent cli -- …`; plain `npm run cli` puts npm's banner on stdout).
 * Exit codes: 0 every row succeeded or was unchanged, 1 some rows failed or were skipped, 2 usage or
 * validation errors (nothing sent), 3 aborted (authentication, daily limit, cancelled, service unreachable).
 */
import { pathToFileURL } from 'node:url';
import { GLOBAL_HELP, parseCommandArgs, refuseKeyFlag, splitCommand } from './shared/args.js';
import { COMMAND_LOADERS, COMMAND_NAMES, loadCommand, loadCommands } from './commands/index.js';
import type { CliIO, GlobalValues, RunContext } from './shared/context.js';
import { CliUsageError, describeError } from './shared/errors.js';
import { EXIT, type CliCommand } from './shared/types.js';
import { mark } from './output/timings.js';
import { requestsController } from '../api/signal.js';
import { applyHeapGrowth } from './heap-growth.js';

export const VERSION = '0.1.0';

/**
 * zod compiles each object schema into a function (new Function) on its first parse. That pays in the app, a
 * long-running process; a CLI run parses each schema a few hundred or thousand times, and the compiles (and their
 * cold code) cost more than they save: an import of 709 rows at 40 ms latency took ~40–80 ms less end to end,
 * a plan of 200,000 rows no longer. zod reads the mode when a schema is built, so it is set before a command's
 * modules load (they build most schemas); `--version` and help load no zod.
 */
async function interpretedParsing(): Promise<void> {
  (await import('zod')).z.config({ jitless: true });
}

export function generalHelp(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: supply-loader <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    GLOBAL_HELP,
    '',
    'Exit codes: 0 all rows succeeded or unchanged, 1 some rows failed or were skipped,',
    '            2 usage or validation errors (nothing sent), 3 aborted (key refused, daily limit, cancelled).',
    'Run "supply-loader <command> --help" for the options of a command.',
  ].join('\n');
}

export function commandHelp(c: CliCommand): string {
  return [`usage: ${c.usage.trim()}`, '', c.summary, '', GLOBAL_HELP].join('\n');
}

/** Run the CLI in this process; returns the exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  let commandName: string | undefined;
  let ctx: RunContext | undefined;
  let json = argv.includes('--json');
  const debug = argv.includes('--debug');
  try {
    refuseKeyFlag(argv);
    const { command, rest } = splitCommand(argv);
    commandName = command;
    if (command === undefined || command === 'help') {
      const { positionals, values } = parseCommandArgs(rest, undefined);
      if (values.version) {
        io.stdout(`supply-loader ${VERSION}\n`);
        return EXIT.ok;
      }
      const topic = command === 'help' ? positionals[0] : undefined;
      const c = topic ? await loadCommand(topic) : undefined;
      if (topic && !c) throw new CliUsageError(`unknown command "${topic}"`);
      io.stdout(`${c ? commandHelp(c) : generalHelp(await loadCommands())}\n`);
      return command === undefined && !values.help ? EXIT.usage : EXIT.ok;
    }
    if (!Object.hasOwn(COMMAND_LOADERS, command)) {
      throw new CliUsageError(`unknown command "${command}" (commands: ${COMMAND_NAMES.join(', ')})`);
    }
    // Before the command's modules: zod decides a schema's mode when the schema is built, and most are built as
    // those modules load.
    await interpretedParsing();
    const cmd = (await loadCommand(command))!;
    mark('command-loaded');
    const { values, positionals } = parseCommandArgs(rest, cmd.options, cmd.name);
    json = values.json === true;
    if (values.help) {
      io.stdout(`${commandHelp(cmd)}\n`);
      return EXIT.ok;
    }
    const controller = requestsController();
    const onAbort = () => controller.abort(io.signal?.reason);
    if (io.signal?.aborted) onAbort();
    else io.signal?.addEventListener('abort', onAbort, { once: true });
    const { RunContext } = await import('./shared/context.js');
    ctx = new RunContext(io, values as GlobalValues, controller.signal);
    mark('context');
    if (cmd.needsConnection) await ctx.connect();
    return await cmd.run(values, positionals, ctx);
  } catch (e) {
    const d = describeError(e, commandName);
    const err = (s: string) => (ctx ? ctx.stderr(s) : io.stderr(s));
    err(`supply-loader: ${d.message}${d.err_code && !d.message.includes(d.err_code) ? ` [${d.err_code}]` : ''}\n`);
    if (d.hint) err(`  ${d.hint}\n`);
    if (debug && d.unexpected && e instanceof Error && e.stack) err(`${e.stack}\n`);
    if (json) {
      const out = JSON.stringify({
        ok: false,
        exit_code: d.exitCode,
        error: { message: d.message, ...(d.err_code ? { err_code: d.err_code } : {}) },
      });
      if (ctx) ctx.stdout(`${out}\n`);
      else io.stdout(`${out}\n`);
    }
    return d.exitCode;
  } finally {
    await ctx?.close().catch(() => {});
  }
}

/** Process entry: real stdio, SIGINT/SIGTERM → graceful cancel (a second Ctrl+C stops at once, exit 3). The heap growth
 * flag is set by the process's entry before this runs (heap-growth.ts). */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  mark('main');
  const controller = requestsController();
  let signalled = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    signalled++;
    if (signalled === 1) {
      process.stderr.write(
        `\nsupply-loader: ${sig}: stopping; an import job stays resumable (Ctrl+C again stops at once)\n`,
      );
      controller.abort(new DOMException(`${sig}`, 'AbortError'));
    } else {
      process.exit(EXIT.aborted);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const code = await runCli(argv, {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
    env: process.env,
    cwd: process.cwd(),
    isTTY: process.stderr.isTTY === true,
    columns: process.stderr.columns,
    signal: controller.signal,
  });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  mark('exit');
  process.exitCode = code;
  // Let stdout drain, then leave even if a keep-alive socket or timer is still open.
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  process.exit(code);
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  applyHeapGrowth();
  void main();
}
