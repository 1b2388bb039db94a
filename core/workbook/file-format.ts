/**
 * What a file is when it is not an .xlsx, from its first bytes: a password-protected workbook or a legacy .xls
 * (CFB), a PDF, an image, an archive, an XML Spreadsheet 2003, a web page, a CSV file with an .xlsx name; and,
 * from the names of its parts, a zip that is not an Excel workbook (.ods, .xlsb, an encrypted package, a Word or
 * PowerPoint file). Each is one FileLevelError in words.
 */
import { open as openFile } from 'node:fs/promises';
import { FileLevelError, MB } from './file-limits.js';

const CFB_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export async function readHead(path: string, bytes: number): Promise<Buffer> {
  const fh = await openFile(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** A zip's local file header (`PK\x03\x04`) or an empty zip's end record (`PK\x05\x06`). */
export function isZipHead(head: Buffer): boolean {
  return (
    head.length >= 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    (head[2] === 3 || head[2] === 5) &&
    (head[3] === 4 || head[3] === 6)
  );
}

/** A CFB (OLE2) file's error in words, or undefined when the file is not one. */
export async function cfbError(path: string, size: number, head: Buffer): Promise<FileLevelError | undefined> {
  return head.subarray(0, 8).equals(CFB_SIGNATURE) ? describeCfb(path, size) : undefined;
}

/** A CFB (OLE2) file is either an encrypted (password-protected) OOXML workbook or a legacy .xls. */
async function describeCfb(path: string, size: number): Promise<FileLevelError> {
  const head = await readHead(path, Math.min(size, 32 * MB));
  const utf16 = (s: string) => Buffer.from(s, 'utf16le');
  if (head.includes(utf16('EncryptedPackage')) || head.includes(utf16('EncryptionInfo')))
    return new FileLevelError(
      'password_protected',
      'The workbook is password-protected (encrypted). Open it in Excel, remove the password (File → Info → Protect Workbook) and save it again.',
      { variant: 'encrypted' },
    );
  return new FileLevelError(
    'legacy_xls',
    'This is an old-format Excel file (.xls) or another Office document, not an .xlsx workbook. Open it in Excel and save it as "Excel Workbook (.xlsx)".',
  );
}

/** Magic numbers of files people pick by mistake: said by name, not as "a text file". */
const MAGIC: { bytes: number[]; variant: 'pdf' | 'image' | 'archive'; kind: string }[] = [
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], variant: 'pdf', kind: 'PDF' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], variant: 'image', kind: 'PNG' },
  { bytes: [0xff, 0xd8, 0xff], variant: 'image', kind: 'JPEG' },
  { bytes: [0x47, 0x49, 0x46, 0x38], variant: 'image', kind: 'GIF' },
  { bytes: [0x1f, 0x8b], variant: 'archive', kind: 'gzip' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], variant: 'archive', kind: '7-Zip' },
  { bytes: [0x52, 0x61, 0x72, 0x21], variant: 'archive', kind: 'RAR' },
];

/** Whether the first bytes are those of a binary format (CFB, zip, PDF, image, archive): never read as text. */
export function isBinaryHead(head: Buffer): boolean {
  return (
    head.subarray(0, 8).equals(CFB_SIGNATURE) ||
    isZipHead(head) ||
    MAGIC.some((m) => m.bytes.every((b, i) => head[i] === b))
  );
}

/**
 * What a file that is neither a zip nor a CFB file is, in words. `ext` is the file's extension (`.xlsx`,
 * `.slk`, `.htm` …, '' for none): a message names the file's own name, never one it does not have.
 */
export function describeNonZip(head: Buffer, ext = '.xlsx'): FileLevelError {
  const magic = MAGIC.find((m) => m.bytes.every((b, i) => head[i] === b));
  if (magic?.variant === 'pdf')
    return new FileLevelError(
      'other_format',
      'This is a PDF document, not an Excel workbook (.xlsx) or CSV file. Export the data from its source as .xlsx or .csv.',
      {
        variant: 'pdf',
      },
    );
  if (magic?.variant === 'image')
    return new FileLevelError(
      'other_format',
      `This is an image (${magic.kind}), not an Excel workbook (.xlsx) or CSV file.`,
      { variant: 'image', kind: magic.kind },
    );
  if (magic)
    return new FileLevelError(
      'other_format',
      `This is a compressed archive (${magic.kind}), not a workbook. Unpack it and choose the .xlsx or .csv file inside.`,
      {
        variant: 'archive',
        kind: magic.kind,
      },
    );
  let text = head.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const start = text.trimStart().slice(0, 400).toLowerCase();
  if (start.startsWith('<?xml') && start.includes('urn:schemas-microsoft-com:office:spreadsheet'))
    return new FileLevelError(
      'other_format',
      'This is an "XML Spreadsheet 2003" file, not an .xlsx workbook. Open it in Excel and save it as .xlsx.',
      {
        variant: 'xml2003',
      },
    );
  if (
    start.startsWith('<!doctype html') ||
    start.startsWith('<html') ||
    start.startsWith('<table') ||
    /^\.html?$/i.test(ext)
  )
    return /^\.(xlsx|xlsm)$/i.test(ext)
      ? new FileLevelError(
          'other_format',
          'This is a web page (HTML) saved with an .xlsx name, not a workbook. Open it in Excel and save it as .xlsx.',
          { variant: 'html' },
        )
      : new FileLevelError(
          'other_format',
          'This is a web page (HTML), not an Excel workbook. Open it in Excel and save it as "Excel Workbook (.xlsx)", or export the data as .csv.',
          { variant: 'html_page' },
        );
  // Excel's own text formats, said by name: SYLK starts with an ID record, DIF with its TABLE header.
  if (/^id;p/i.test(start))
    return new FileLevelError(
      'other_format',
      'This is a SYLK file (Symbolic Link, .slk), not an Excel workbook (.xlsx). Open it in Excel and save it as "Excel Workbook (.xlsx)" or as "CSV UTF-8".',
      { variant: 'slk' },
    );
  if (/^table\r?\n0,1\r?\n/i.test(start))
    return new FileLevelError(
      'other_format',
      'This is a DIF file (Data Interchange Format, .dif), not an Excel workbook (.xlsx). Open it in Excel and save it as "Excel Workbook (.xlsx)" or as "CSV UTF-8".',
      { variant: 'dif' },
    );
  const sample = head.subarray(0, 4096);
  const binary = sample.some((b) => b === 0 || (b < 0x09 && b !== 0x09) || (b > 0x0d && b < 0x20 && b !== 0x1b));
  if (!binary && sample.length > 0)
    return ext
      ? new FileLevelError(
          'csv_renamed',
          `This is a text (CSV) file with an ${ext} name, not an Excel workbook. Rename it to .csv (Supply Loader reads CSV files), or open it in Excel and save it as "Excel Workbook (.xlsx)".`,
          { ext },
        )
      : new FileLevelError(
          'csv_renamed',
          'This is a text (CSV) file without a file extension, not an Excel workbook. Name it .csv (Supply Loader reads CSV files), or open it in Excel and save it as "Excel Workbook (.xlsx)".',
          { variant: 'no_extension' },
        );
  return new FileLevelError(
    'not_a_zip',
    /^\.(xlsx|xlsm)$/i.test(ext)
      ? 'This is not an Excel workbook (.xlsx): the file is not in the .xlsx (zip) format.'
      : 'This is not a file Supply Loader reads: it is neither an Excel workbook (.xlsx, .xls, .ods) nor a text (CSV) file.',
    /^\.(xlsx|xlsm)$/i.test(ext) ? undefined : { variant: 'unknown' },
  );
}

/** A zip that is not an Excel workbook, by the names of its parts: refused in words. */
export function refuseOtherZipFormats(byName: ReadonlyMap<string, unknown>, workbookPath = 'xl/workbook.xml'): void {
  if (byName.has('mimetype') && !byName.has(workbookPath))
    throw new FileLevelError(
      'other_format',
      'This is an OpenDocument spreadsheet (.ods), not an .xlsx workbook. Save it as "Excel 2007-365 (.xlsx)".',
      {
        variant: 'ods',
      },
    );
  if (byName.has('xl/workbook.bin'))
    throw new FileLevelError(
      'other_format',
      'This is a binary Excel workbook (.xlsb). Open it in Excel and save it as "Excel Workbook (.xlsx)".',
      {
        variant: 'xlsb',
      },
    );
  if (
    ![...byName.keys()].some((n) => n.startsWith('xl/')) &&
    [...byName.keys()].some((n) => /(^|\/)Index(\.zip|\/)/.test(n))
  )
    throw new FileLevelError(
      'other_format',
      'This is an Apple Numbers document, not an .xlsx workbook. In Numbers, choose File › Export To › Excel and read the .xlsx it writes.',
    );
  if (byName.has('EncryptedPackage'))
    throw new FileLevelError(
      'password_protected',
      'The workbook is password-protected. Remove the password in Excel and save it again.',
    );
  if (!byName.has(workbookPath))
    throw new FileLevelError(
      'not_a_workbook',
      byName.has('word/document.xml') || byName.has('ppt/presentation.xml')
        ? 'This is a Word or PowerPoint file, not an Excel workbook.'
        : 'The file is a zip archive but not an Excel workbook (it has no xl/workbook.xml). Open it in Excel and save it as .xlsx.',
      { variant: byName.has('word/document.xml') || byName.has('ppt/presentation.xml') ? 'office' : 'zip' },
    );
}
