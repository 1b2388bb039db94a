/**
 * Reading the zip of an .xlsx (yauzl, each entry's declared size enforced) within the limits: the number of
 * parts, an encrypted zip, a part's compression ratio and the total unpacked size (zip bombs); a part that
 * cannot be unpacked is one FileLevelError in words.
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { damagedWorkbook } from './damage.js';
import { FileLevelError, fmtBytes } from './file-limits.js';
import type { ReadLimits } from './types.js';

export function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (err, zip) => (err || !zip ? reject(err ?? new Error('cannot open')) : resolve(zip)),
    ),
  );
}

export function listEntries(zip: yauzl.ZipFile, limits: ReadLimits): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const out: yauzl.Entry[] = [];
    zip.on('error', reject);
    zip.on('entry', (e: yauzl.Entry) => {
      out.push(e);
      if (out.length > limits.maxEntries) {
        reject(
          new FileLevelError(
            'zip_bomb',
            `The file holds more than ${limits.maxEntries.toLocaleString('en')} parts; a workbook never does. It is refused as unsafe.`,
            {
              variant: 'entries',
              limit: limits.maxEntries,
            },
          ),
        );
        return;
      }
      zip.readEntry();
    });
    zip.on('end', () => resolve(out));
    zip.readEntry();
  });
}

export function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, s) => (err || !s ? reject(err ?? new Error('cannot read')) : resolve(s))),
  );
}

/** Read an entry's start (at most `max` bytes) as text; `untilRoot` stops once the first element has begun. */
export async function readEntryText(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  max: number,
  /** The file's name, for the message of a damaged part. */
  file: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  let s: Readable | undefined;
  try {
    s = await openEntry(zip, entry);
    for await (const c of s as AsyncIterable<Buffer>) {
      chunks.push(c);
      n += c.length;
      if (n >= max) break;
    }
  } catch (e) {
    throw partError(file, entry.fileName, e);
  } finally {
    s?.destroy();
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

/** A part that cannot be unpacked: a lie about its size (zip bomb) or damage (told in words: damage.ts). */
export function partError(file: string, name: string, err: unknown, where = `its part ${name}`): FileLevelError {
  if (err instanceof FileLevelError) return err;
  const m = zipMessage(err);
  if (/too many bytes|too few bytes/i.test(m))
    return new FileLevelError(
      'zip_bomb',
      `The part ${name} unpacks to a different size than the file declares; the file is refused as unsafe (a zip bomb or a damaged file).`,
      { variant: 'size_mismatch', part: name },
    );
  return damagedWorkbook(file, err, where, true);
}

function zipMessage(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/\s+/g, ' ').slice(0, 200);
}

/** Refuses an encrypted zip, a part of a suspicious compression ratio, a file too big unpacked; the unpacked total. */
export function checkEntrySizes(entries: readonly yauzl.Entry[], limits: ReadLimits): number {
  let total = 0;
  for (const e of entries) {
    if (e.generalPurposeBitFlag & 1)
      throw new FileLevelError(
        'password_protected',
        'The file is encrypted (password-protected zip). Save it again in Excel without a password.',
        {
          variant: 'zip',
        },
      );
    total += e.uncompressedSize;
    if (
      e.uncompressedSize > limits.ratioCheckFromBytes &&
      e.uncompressedSize / Math.max(1, e.compressedSize) > limits.maxCompressionRatio
    )
      throw new FileLevelError(
        'zip_bomb',
        `The part ${e.fileName} would unpack from ${fmtBytes(e.compressedSize)} to ${fmtBytes(e.uncompressedSize)} (ratio ${Math.round(e.uncompressedSize / Math.max(1, e.compressedSize))}:1, limit ${limits.maxCompressionRatio}:1). The file is refused as a possible zip bomb.`,
        {
          variant: 'ratio',
          part: e.fileName,
          ratio: Math.round(e.uncompressedSize / Math.max(1, e.compressedSize)),
          limit: limits.maxCompressionRatio,
        },
      );
  }
  if (total > limits.maxUncompressedBytes)
    throw new FileLevelError(
      'zip_bomb',
      `The file would unpack to ${fmtBytes(total)}; the limit is ${fmtBytes(limits.maxUncompressedBytes)}. Split the data into several workbooks.`,
      { variant: 'total', size: fmtBytes(total), limit: fmtBytes(limits.maxUncompressedBytes) },
    );
  return total;
}
