/** A German ERP export of supplier products as CSV (Windows-1252, `;`, decimal comma, own headers, a title row). */
import iconv from 'iconv-lite';

export const ERP_HEADER = 'Materialnummer;Materialkurztext;Werk;Materialart;ME;LKW km;Recyclinganteil %;Kommentar';

/** rows: [external_id, name, plant, material, unit as the ERP writes it (to, kg, Stück), truck km "12,5", secondary %, comment] */
export function erpCsv(title: string, rows: string[][]): Buffer {
  const lines = [
    title,
    ERP_HEADER,
    ...rows.map((r) => r.map((c) => (/[;"\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(';')),
  ];
  return iconv.encode(lines.join('\r\n') + '\r\n', 'windows-1252');
}
