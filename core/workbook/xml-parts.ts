/**
 * An .xlsx's XML parts as the guards read them: an attribute of a tag, a relationship target resolved to its zip
 * path, a sheet's declared dimension; and the refusal of a DOCTYPE / ENTITY declaration in a part's prolog.
 */
import { FileLevelError } from './file-limits.js';

export const XML_PART = /\.(xml|rels|vml)$/i;
export const PROLOG_BYTES = 64 * 1024;

/** Refuse a DOCTYPE / ENTITY declaration in an XML part's prolog (entity expansion attacks). */
export function checkProlog(name: string, text: string): void {
  const rootAt = text.search(/<[A-Za-z_]/);
  const prolog = rootAt >= 0 ? text.slice(0, rootAt) : text;
  if (/<!DOCTYPE|<!ENTITY/i.test(prolog))
    throw new FileLevelError(
      'xml_entity',
      `The file contains an XML document type declaration (DOCTYPE/ENTITY) in ${name}. Excel never writes one; the file is refused as unsafe.`,
      { part: name },
    );
  if (rootAt < 0 && text.length >= PROLOG_BYTES)
    throw new FileLevelError(
      'unreadable',
      `The part ${name} of the file does not start like an Excel XML part; the file is refused.`,
      {
        variant: 'part',
        part: name,
      },
    );
}

export function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  return m ? decodeXml(m[2] ?? m[3] ?? '') : undefined;
}

function decodeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#x[0-9a-f]+|#\d+);/gi, (_, e: string) => {
    const k = e.toLowerCase();
    if (k === 'lt') return '<';
    if (k === 'gt') return '>';
    if (k === 'amp') return '&';
    if (k === 'quot') return '"';
    if (k === 'apos') return "'";
    return String.fromCodePoint(k.startsWith('#x') ? parseInt(k.slice(2), 16) : parseInt(k.slice(1), 10));
  });
}

/** A relationship target resolved to its zip path, relative to the folder `base` of the part that names it. */
export function resolveTarget(target: string, base = 'xl'): string {
  if (target.startsWith('/')) return target.replace(/^\/+/, '');
  const parts = base ? base.split('/') : [];
  for (const p of target.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.' && p !== '') parts.push(p);
  }
  return parts.join('/');
}

/** Row count of a `ref` like A1:N100001. */
export function lastRowOf(ref: string): number | null {
  const m = /([0-9]+)\s*$/.exec(ref.split(':').pop() ?? '');
  return m ? Number(m[1]) : null;
}

/** A sheet's relationship id: `r:id`, whatever prefix the relationships namespace is bound to. */
export function relationshipId(tag: string): string | undefined {
  const m = /\s(?:[A-Za-z_][\w.-]*:)?id\s*=\s*("([^"]*)"|'([^']*)')/.exec(tag);
  return m ? decodeXml(m[2] ?? m[3] ?? '') : undefined;
}

const OFFICE_DOCUMENT = /\/officeDocument$/;

/**
 * Zip path of the workbook part: where the package relationships (`_rels/.rels`) say it is (`xl/workbook.xml`
 * as Excel writes it, but any name is valid) when its content type (`[Content_Types].xml`) is a workbook's;
 * else `xl/workbook.xml`.
 */
export function workbookPartOf(packageRels: string, contentTypes: string, parts: ReadonlyMap<string, unknown>): string {
  const workbookTypes = new Set<string>();
  for (const tag of contentTypes.match(/<(\w+:)?Override\b[^>]*>/g) ?? []) {
    const name = attr(tag, 'PartName');
    if (
      name &&
      /spreadsheetml\.(sheet|template)\.main\+xml|ms-excel\.(sheet|template)\.macroEnabled\.main\+xml/i.test(
        attr(tag, 'ContentType') ?? '',
      )
    )
      workbookTypes.add(name.replace(/^\/+/, '').toLowerCase());
  }
  for (const tag of packageRels.match(/<(\w+:)?Relationship\b[^>]*>/g) ?? []) {
    const target = attr(tag, 'Target');
    if (!target || !OFFICE_DOCUMENT.test(attr(tag, 'Type') ?? '')) continue;
    const path = resolveTarget(target, '');
    if (parts.has(path) && workbookTypes.has(path.toLowerCase())) return path;
  }
  return 'xl/workbook.xml';
}

/** The relationships part of a part: `xl/workbook.xml` → `xl/_rels/workbook.xml.rels`. */
export function relsPathOf(path: string): string {
  const at = path.lastIndexOf('/');
  return `${path.slice(0, at + 1)}_rels/${path.slice(at + 1)}.rels`;
}
