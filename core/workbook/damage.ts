/**
 * A damaged file told in words: what is wrong, in which file (and sheet), and how to fix it. The words of the
 * zip reader or XML parser ("end of central directory record signature not found", "disallowed character in
 * entity name", "unexpected close tag") say nothing to a user and are never shown; they only choose the words.
 */
import { FileLevelError } from './file-limits.js';

/** How to get a readable copy: Excel and LibreOffice repair such files when they open them. */
export const RESAVE_HINT =
  'Open it in Excel or LibreOffice (they repair such files) and save it again as "Excel Workbook (.xlsx)"';

type Damage = 'incomplete' | 'packed' | 'xml' | 'other';

function rawText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Which kind of damage a reading library's error means. */
function damageOf(e: unknown): Damage {
  const m = rawText(e);
  if (/central directory|truncated|unexpected (end|eof)|end of (file|data|stream)|premature|eof\b/i.test(m))
    return 'incomplete';
  if (/invalid (stored|distance|code|block|literal)|header check|crc|checksum|inflate|zlib|compress|deflate/i.test(m))
    return 'packed';
  if (/entity|tag|root|attribute|xml|element|character|text data|markup|namespace|unclos|unmatch|closing/i.test(m))
    return 'xml';
  return 'other';
}

/** What is wrong, in words; `where` names the part or sheet (`sheet "bom"`, `the shared text of its cells`). */
function whatIsWrong(damage: Damage, where: string | undefined): string {
  switch (damage) {
    case 'incomplete':
      return where
        ? `${where} is cut off (its end is missing)`
        : 'it is incomplete: its end is missing, as after an interrupted download or copy';
    case 'packed':
      return `the packed (zip) data of ${where ?? 'a part of it'} is corrupted`;
    case 'xml':
      return `the contents of ${where ?? 'a part of it'} are not valid (broken XML)`;
    default:
      return `${where ?? 'its contents'} cannot be read`;
  }
}

/**
 * A damaged workbook as a file-level error: `corrupt_zip` when the zip archive itself is broken, else
 * `unreadable`. `params.detail` holds the words of what is wrong (never the library's text).
 */
export function damagedWorkbook(file: string, e: unknown, where?: string, zip = false): FileLevelError {
  const damage = damageOf(e);
  const what = whatIsWrong(damage, where);
  const fix =
    damage === 'incomplete'
      ? `Get the file again (copy or download it once more), or ${RESAVE_HINT.charAt(0).toLowerCase()}${RESAVE_HINT.slice(1)}.`
      : `${RESAVE_HINT}.`;
  return new FileLevelError(zip ? 'corrupt_zip' : 'unreadable', `${file} is damaged: ${what}. ${fix}`, {
    detail: what,
  });
}
