/** `supply-loader sandbox`: start the local API v2 sandbox (like `npm run sandbox`) until Ctrl+C. */
import path from 'node:path';
import { startSandbox } from '../../../sandbox/index.js';
import { expectPositionals, intOption, str } from '../shared/args.js';
import { runContext } from '../shared/context.js';
import { CliUsageError } from '../shared/errors.js';
import { EXIT, type CliCommand } from '../shared/types.js';

export const sandboxCommand: CliCommand = {
  name: 'sandbox',
  summary: 'Start the local API v2 sandbox with demo data (prints its base URL and a demo key)',
  usage: `supply-loader sandbox [--port 4010] [--host 127.0.0.1] [--data FILE] [--seed demo|empty]
  --port N       port to listen on (default 4010; 0 = any free port)
  --host HOST    address to listen on (default 127.0.0.1)
  --data FILE    keep the data in FILE (saved atomically; a restart loses nothing)
  --seed KIND    demo (default) or empty, for a fresh start`,
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    data: { type: 'string' },
    seed: { type: 'string' },
  },
  needsConnection: false,
  async run(values, positionals, ctx) {
    expectPositionals(positionals, [], 'sandbox');
    const rc = runContext(ctx);
    const port = intOption(values, 'port', 0, 65535, 'sandbox') ?? 4010;
    const seed = str(values, 'seed') ?? 'demo';
    if (seed !== 'demo' && seed !== 'empty')
      throw new CliUsageError(`--seed must be demo or empty (got "${seed}")`, 'sandbox');
    const data = str(values, 'data');
    const sandbox = await startSandbox({
      port,
      seed,
      ...(str(values, 'host') ? { host: str(values, 'host') } : {}),
      ...(data ? { dataFile: path.resolve(rc.cwd, data) } : {}),
    });
    if (ctx.json) {
      ctx.stdout(
        `${JSON.stringify({ base_url: sandbox.baseUrl, manufacturer_id: sandbox.manufacturerId, api_key: sandbox.ownerKey })}\n`,
      );
    } else {
      ctx.stdout(
        [
          `API v2 sandbox listening on ${sandbox.baseUrl} (API under ${sandbox.baseUrl}/v2)`,
          `manufacturer: ${sandbox.manufacturerId}`,
          `demo API key (full scope, valid while this process runs): ${sandbox.ownerKey}`,
          `try: SUPPLY_LOADER_API_KEY=<the key> supply-loader me --base-url ${sandbox.baseUrl}`,
          ...(data ? [`data file: ${path.resolve(rc.cwd, data)}`] : []),
          'Ctrl+C to stop.',
          '',
        ].join('\n'),
      );
    }
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await sandbox.close();
    return EXIT.ok;
  },
};
