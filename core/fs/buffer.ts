/** A writer that streams into a sink, collected into one buffer (for a save dialog, a test, an attachment). */
import { PassThrough, type Writable } from 'node:stream';

/** Runs `write(sink)` and waits for the sink to end: the bytes written, and what `write` returned. */
export async function collectBuffer<T>(write: (sink: Writable) => Promise<T>): Promise<{ buffer: Buffer; result: T }> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    sink.once('end', resolve);
    sink.once('error', reject);
  });
  const result = await write(sink);
  await ended;
  return { buffer: Buffer.concat(chunks), result };
}
