/**
 * `npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--data FILE] [--seed demo|empty]`
 * Starts the API v2 sandbox and prints its base URL and a full-scope demo key.
 */
import { parseArgs } from 'node:util';
import { startSandbox } from './index.js';

const USAGE = 'usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--data FILE] [--seed demo|empty]';

async function main(): Promise<void> {
  let values: { port?: string; host?: string; data?: string; seed?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = values.port === undefined ? 4010 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a port number (0–65535), got "${values.port}"\n${USAGE}`);
    process.exit(2);
  }
  const seed = values.seed ?? 'demo';
  if (seed !== 'demo' && seed !== 'empty') {
    console.error(`--seed must be demo or empty, got "${seed}"\n${USAGE}`);
    process.exit(2);
  }
  let sandbox;
  try {
    sandbox = await startSandbox({ port, host: values.host, seed, dataFile: values.data });
  } catch (e) {
    console.error(`the sandbox could not start: ${(e as Error).message}`);
    process.exit(1);
  }
  console.log(`API v2 sandbox listening on ${sandbox.baseUrl} (API under ${sandbox.baseUrl}/v2)`);
  console.log(`manufacturer: ${sandbox.manufacturerId}`);
  console.log(`demo API key (full scope, valid while this process runs): ${sandbox.ownerKey}`);
  console.log(`try: curl -H "X-API-Key: ${sandbox.ownerKey}" ${sandbox.baseUrl}/v2/me`);
  if (values.data) console.log(`data file: ${values.data} (saved atomically; a restart loses nothing)`);
  console.log('control API: ' + `${sandbox.baseUrl}/__sandbox/state (loopback only). Ctrl+C to stop.`);
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
