/**
 * Spreadsheet cell references, once for the reader, the writers, the LCA workbook and the renderer (pure, no
 * import): 1 → A, 27 → AA, and back.
 */
export function columnLetter(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

/** 'C' → 3, 'AA' → 27 (case-insensitive). */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}
