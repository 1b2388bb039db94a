/** Spreadsheet cell references: 1 → A, 27 → AA (the reader, the writers and the LCA workbook share it). */
export function columnLetter(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}
