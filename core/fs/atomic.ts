/**
 * Files written atomically: the content goes to a hidden temporary file beside the target, which is then renamed
 * over it, so a crash or an error leaves the old file or the new one — never half of one — and no temporary file
 * behind. The one helper for every file Supply Loader writes whole (job meta, exports, LCA workbooks, results,
 * the sandbox's data file, settings).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

function tmpPathFor(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`,
  );
}

/** Runs `write(tmpPath)`, then renames the temporary file onto `target`; on failure removes it and rethrows. */
export async function writeAtomic<T>(target: string, write: (tmpPath: string) => Promise<T>): Promise<T> {
  const tmp = tmpPathFor(target);
  try {
    const result = await write(tmp);
    await rename(tmp, target);
    return result;
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** Text written atomically; with `sync`, the data is flushed to the disk before the rename. */
export async function writeTextAtomic(
  target: string,
  text: string,
  o: { sync?: boolean; mode?: number } = {},
): Promise<void> {
  await writeAtomic(target, async (tmp) => {
    const fh = await open(tmp, 'w', o.mode);
    try {
      await fh.writeFile(text);
      if (o.sync) await fh.datasync();
    } finally {
      await fh.close();
    }
  });
}

/** The synchronous form for small documents (settings), with the file's permissions set before it appears. */
export function writeTextAtomicSync(target: string, text: string, mode?: number): void {
  const tmp = tmpPathFor(target);
  try {
    fs.writeFileSync(tmp, text, mode === undefined ? {} : { mode });
    if (mode !== undefined) fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, target);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}
