/**
 * Set every entry time of a zip to one date (DOS date/time in the local and central headers), so generated
 * files are byte-identical across runs. Only header fields are touched; data and CRCs stay as they are.
 */
const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function dosDateTime(d: Date): { date: number; time: number } {
  return {
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
  };
}

export function normaliseZipTimes(zip: Buffer, when: Date): Buffer {
  const out = Buffer.from(zip);
  const { date, time } = dosDateTime(when);
  let eocd = -1;
  for (let i = out.length - 22; i >= Math.max(0, out.length - 22 - 0xffff); i--) {
    if (out.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = out.readUInt16LE(eocd + 10);
  let p = out.readUInt32LE(eocd + 16);
  for (let n = 0; n < count; n++) {
    if (out.readUInt32LE(p) !== CENTRAL) throw new Error('zip central directory is damaged');
    out.writeUInt16LE(time, p + 12);
    out.writeUInt16LE(date, p + 14);
    const local = out.readUInt32LE(p + 42);
    if (out.readUInt32LE(local) === LOCAL) {
      out.writeUInt16LE(time, local + 10);
      out.writeUInt16LE(date, local + 12);
    }
    p += 46 + out.readUInt16LE(p + 28) + out.readUInt16LE(p + 30) + out.readUInt16LE(p + 32);
  }
  return out;
}
