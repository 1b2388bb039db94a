/**
 * What one round costs on this machine at latency L, without Supply Loader's client (context for the
 * end-to-end goal, whose bound counts every round at exactly L). C request loops, each sending its next request as soon as
 * the last answer is read, through the same undici parts as the client (Pool and request(),
 * core/api/transport.ts), for `rounds` rounds after one unmeasured round (connections made). Against:
 * - `bare`: a Node http server in its own process that answers each request L ms after it arrived, and does
 *   nothing else. What any Node client and server pay here beyond L: the timer's lateness, loopback and waking
 *   two processes on two cores.
 * - `sandbox`: the sandbox (its latency fault set to L by the caller), creating supplier companies. What the
 *   sandbox's own processing adds to that.
 * Returns the wall time per round in ms.
 */
import { spawn } from 'node:child_process';
import Pool from 'undici/lib/dispatcher/pool.js';
import request from 'undici/lib/api/api-request.js';

const BARE_SERVER = `
const http = require('node:http');
const latency = Number(process.argv[1]);
const server = http.createServer((req, res) => {
  req.resume();
  setTimeout(() => {
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end('{"id":"00000000-0000-4000-8000-000000000000"}');
  }, latency);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

async function loops(
  url: string,
  concurrency: number,
  rounds: number,
  send: (n: number) => { path: string; headers: Record<string, string>; body: string },
): Promise<number> {
  const pool = new Pool(url, { connections: concurrency * 2 });
  let n = 0;
  const loop = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const r = await request.call(pool, { method: 'POST', ...send(n++) });
      const text = await r.body.text();
      if (r.statusCode >= 300) throw new Error(`round-trip bench: ${r.statusCode} ${text.slice(0, 200)}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, () => loop(1)));
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, () => loop(rounds)));
    return (performance.now() - t0) / rounds;
  } finally {
    await pool.close();
  }
}

/** A bare Node http server answering after `latencyMs` (its own process): ms per round at C loops. */
export async function bareRoundMs(o: { latencyMs: number; concurrency: number; rounds: number }): Promise<number> {
  const child = spawn(process.execPath, ['-e', BARE_SERVER, String(o.latencyMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(Number(out.trim()));
      });
      child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
    });
    const body = JSON.stringify({ name: 'x'.repeat(40) });
    return await loops(`http://127.0.0.1:${port}`, o.concurrency, o.rounds, () => ({
      path: '/',
      headers: { 'content-type': 'application/json' },
      body,
    }));
  } finally {
    child.kill('SIGKILL');
  }
}

/** The sandbox at `url` (its latency fault already set), creating supplier companies: ms per round at C loops. */
export function sandboxRoundMs(o: { url: string; key: string; concurrency: number; rounds: number }): Promise<number> {
  const tag = `RT${Date.now().toString(36).toUpperCase()}`;
  return loops(o.url, o.concurrency, o.rounds, (n) => ({
    path: '/v2/supplier-companies',
    headers: { 'content-type': 'application/json', 'x-api-key': o.key, 'idempotency-key': `${tag}-${n}` },
    body: JSON.stringify({ name: `Round trip ${tag} ${n}`, external_id: `${tag}-${n}` }),
  }));
}
