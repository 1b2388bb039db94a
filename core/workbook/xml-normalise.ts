/**
 * The XML of a worksheet or shared strings part rewritten, chunk by chunk, into the plain form exceljs's
 * streaming reader understands, so every valid part reads as Excel reads it:
 * - namespace prefixes on element names dropped (`<x:row>` → `<row>`, as the .NET OpenXML SDK writes);
 * - phonetic readings (`<rPh>`, Japanese ruby) dropped: they are not part of the text;
 * - CDATA sections turned into escaped text (exceljs ignores CDATA);
 * (Excel's `_xHHHH_` escapes are left as they are: they may stand for characters XML cannot hold; a row's text
 *   decodes them once as it is read, sheet-rows.ts.)
 * - in a worksheet whose cells have no `r` (a cell's place is then the one after the previous cell's, a row's the
 *   one after the previous row's: valid, written by some tools), every row and cell given its reference
 *   (exceljs needs it); decided by the first cell of the part;
 * - in a worksheet, an inline string's runs joined into one text (exceljs keeps only the last `<t>`), and every
 *   `&` escaped once more, because exceljs decodes the entities of inline and formula strings a second time.
 * A chunk that holds none of these (the common case) is handed on unchanged. Memory: one chunk and an
 * unfinished tag at its end.
 */
export type PartKind = 'worksheet' | 'sharedStrings';

const SHEET_TRIGGER = /<\/?[A-Za-z_][\w.-]*:|<!\[CDATA\[|<!--|<is[\s>/]|<rPh[\s>/]|&amp;|&#/;
const STRINGS_TRIGGER = /<\/?[A-Za-z_][\w.-]*:|<!\[CDATA\[|<!--|<rPh[\s>/]/;
const TAG_NAME = /^<(\/?)(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/;
const FIRST_CELL = /<(?:[A-Za-z_][\w.-]*:)?c[\s>/]/;
const FIRST_ELEMENT = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s>/]/;
const REF_ATTR = /\sr\s*=\s*["']([^"']*)["']/;

function columnLetters(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

function columnOf(ref: string): number {
  let n = 0;
  for (const ch of ref.toUpperCase()) {
    const k = ch.charCodeAt(0);
    if (k < 65 || k > 90) break;
    n = n * 26 + k - 64;
  }
  return n;
}

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(lt|gt|amp|quot|apos|#x[0-9a-f]+|#\d+);/gi, (_, e: string) => {
    const k = e.toLowerCase();
    if (k === 'lt') return '<';
    if (k === 'gt') return '>';
    if (k === 'amp') return '&';
    if (k === 'quot') return '"';
    if (k === 'apos') return "'";
    const n = k.startsWith('#x') ? parseInt(k.slice(2), 16) : parseInt(k.slice(1), 10);
    return n <= 0x10ffff ? String.fromCodePoint(n) : '';
  });
}

/** Text as XML character data; characters XML 1.0 cannot hold are dropped, CR kept as a reference. */
function encodeText(s: string): string {
  return s.replace(
    /[&<>\r\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '\r' ? '&#13;' : ''),
  );
}

export class XmlNormaliser {
  /** Bytes not handed on yet: from the last tag's start (an unfinished tag, or text that may go on). */
  private carry: Buffer = Buffer.alloc(0);
  private rPhDepth = 0;
  /** Inside a worksheet's `<is>` (inline string), and inside one of its `<t>`. */
  private inIs = false;
  private inT = false;
  /** A worksheet's cells: with their references, or without (then every row and cell is given one). */
  private cellRefs: 'unknown' | 'present' | 'missing';
  private rowNumber = 0;
  /** The root element's name (without prefix), once seen. */
  private root: string | undefined;
  private column = 0;
  private readonly trigger: RegExp;

  constructor(private readonly kind: PartKind) {
    this.trigger = kind === 'worksheet' ? SHEET_TRIGGER : STRINGS_TRIGGER;
    this.cellRefs = kind === 'worksheet' ? 'unknown' : 'present';
  }

  /** The normalised bytes of what is complete so far (may be empty). */
  push(chunk: Buffer): Buffer {
    const buf = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    // Up to the last tag's start ('<' is one byte in UTF-8: no character is cut there).
    const cut = buf.lastIndexOf(0x3c);
    if (cut <= 0) {
      this.carry = Buffer.from(buf);
      return Buffer.alloc(0);
    }
    // The triggers are ASCII: tested on the bytes read as latin1 (no UTF-8 decoding), every multi-byte
    // character becomes non-ASCII characters no trigger matches.
    const head = buf.toString('latin1', 0, cut);
    this.root ??= FIRST_ELEMENT.exec(head)?.[1];
    if (this.cellRefs === 'unknown') {
      const c = FIRST_CELL.exec(head);
      const end = c ? head.indexOf('>', c.index) : -1;
      if (c && end >= 0) this.cellRefs = REF_ATTR.test(head.slice(c.index, end)) ? 'present' : 'missing';
    }
    // Until the first cell tells whether cells have references, every tag is seen (rows before it too).
    if (this.rPhDepth === 0 && !this.inIs && this.cellRefs === 'present' && !this.trigger.test(head)) {
      // Nothing to rewrite (the common case): the bytes handed on as they are.
      this.carry = Buffer.from(buf.subarray(cut));
      return buf.subarray(0, cut);
    }
    const out = this.convert(buf.toString('utf8', 0, cut), false);
    this.carry = Buffer.concat([Buffer.from(out.rest, 'utf8'), buf.subarray(cut)]);
    return Buffer.from(out.text, 'utf8');
  }

  /** After end(): the part ended with its root element's end tag (it was not cut off). */
  complete = false;

  /** The rest, at the end of the part. */
  end(): Buffer {
    const s = this.carry.toString('utf8');
    // The carry starts at the part's last tag: a whole part's is its root's end tag, an empty root element, or a
    // comment or processing instruction after the root.
    const root = this.root ?? FIRST_ELEMENT.exec(s)?.[1];
    const last = /^\s*<(\/?)(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[^<>]*?(\/?)>\s*$/.exec(s);
    this.complete =
      (last !== null && last[2] === root && (last[1] === '/') !== (last[3] === '/')) ||
      /^\s*<(!--[\s\S]*-->|\?[\s\S]*\?>)\s*$/.test(s);
    this.carry = Buffer.alloc(0);
    return s ? Buffer.from(this.convert(s, true).text, 'utf8') : Buffer.alloc(0);
  }

  /** Rewrites s (at the end: all of it); what is unfinished is returned as the rest, for the next chunk. */
  private convert(s: string, atEnd: boolean): { text: string; rest: string } {
    let out = '';
    let pos = 0;
    while (pos < s.length) {
      const lt = s.indexOf('<', pos);
      const textEnd = lt < 0 ? s.length : lt;
      if (textEnd > pos) {
        if (lt < 0 && !atEnd) break; // text may go on in the next chunk
        out += this.text(s.slice(pos, textEnd), false);
        pos = textEnd;
        continue;
      }
      if (s.startsWith('<![CDATA[', pos)) {
        const close = s.indexOf(']]>', pos);
        if (close < 0) break;
        out += this.text(s.slice(pos + 9, close), true);
        pos = close + 3;
        continue;
      }
      if (s.startsWith('<!--', pos)) {
        const close = s.indexOf('-->', pos);
        if (close < 0) break;
        pos = close + 3;
        continue;
      }
      const gt = s.indexOf('>', pos);
      if (gt < 0) break;
      out += this.tag(s.slice(pos, gt + 1));
      pos = gt + 1;
    }
    return { text: out, rest: s.slice(pos) };
  }

  private tag(tag: string): string {
    if (tag.startsWith('<?') || tag.startsWith('<!')) return tag;
    const m = TAG_NAME.exec(tag);
    if (!m) return tag;
    const closing = m[1] === '/';
    const name = m[2];
    const selfClosing = tag.endsWith('/>');
    if (name === 'rPh') {
      if (closing) this.rPhDepth = Math.max(0, this.rPhDepth - 1);
      else if (!selfClosing) this.rPhDepth++;
      return '';
    }
    if (this.rPhDepth > 0) return '';
    if (this.cellRefs === 'unknown' && !closing && (name === 'row' || name === 'c'))
      this.cellRefs = REF_ATTR.test(tag) ? (name === 'c' ? 'present' : 'unknown') : 'missing';
    if (this.cellRefs === 'unknown' && !closing && name === 'row') {
      this.rowNumber = Number(REF_ATTR.exec(tag)?.[1]) || this.rowNumber + 1;
      this.column = 0;
    }
    if (this.cellRefs === 'missing' && !closing && (name === 'row' || name === 'c')) {
      const ref = REF_ATTR.exec(tag);
      let add = '';
      if (name === 'row') {
        this.rowNumber = ref ? Number(ref[1]) || this.rowNumber + 1 : this.rowNumber + 1;
        this.column = 0;
        if (!ref) add = ` r="${this.rowNumber}"`;
      } else {
        this.column = ref ? columnOf(ref[1]) || this.column + 1 : this.column + 1;
        if (!ref) add = ` r="${columnLetters(this.column)}${this.rowNumber}"`;
      }
      return `<${name}${add}${tag.slice(m[0].length)}`;
    }
    if (this.kind === 'worksheet') {
      if (name === 'is') {
        this.inIs = !closing && !selfClosing;
        this.inT = false;
      } else if (this.inIs) {
        // An inline string's runs and their properties: only the text of its `<t>`s is kept, as one text.
        if (name === 't') this.inT = !closing && !selfClosing;
        return '';
      }
    }
    return `<${m[1]}${name}${tag.slice(m[0].length)}`;
  }

  private text(raw: string, cdata: boolean): string {
    if (this.rPhDepth > 0) return '';
    if (this.inIs && !this.inT) return '';
    // XML's end-of-line handling comes first: a line break written as CR LF (or CR) is one LF; only a character
    // reference (`&#13;`, or Excel's `_x000D_`) is a CR.
    const eol = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
    const plain = cdata ? eol : decodeEntities(eol);
    let value = plain;
    // exceljs decodes an inline or formula string's entities again: `&` escaped once more reads as itself.
    if (this.kind === 'worksheet') value = value.replace(/&/g, '&amp;');
    return encodeText(value);
  }
}
