/**
 * Taking away a file the main side made (results, failed rows, export, LCA workbook), by its opaque id: in
 * browser mode the browser downloads `GET /download/<id>` (same origin, the session cookie carries the token);
 * in the desktop app the main side shows the native save dialog, or opens the file with the system's program.
 */
import type { ProcedureOutput } from '../../../core/ipc/contract.js';
import type { Api } from '../api.js';

export type DownloadTicket = ProcedureOutput<'jobs.resultsWorkbook'>;

export function downloadUrl(ticket: Pick<DownloadTicket, 'downloadId'>): string {
  return `/download/${encodeURIComponent(ticket.downloadId)}`;
}

/** true when the file was saved (or handed to the browser), false when the user cancelled the dialog. */
export async function saveDownload(api: Api, ticket: DownloadTicket): Promise<boolean> {
  if (api.transport === 'electron') {
    const r = await api.call('downloads.save', { downloadId: ticket.downloadId });
    if (r.supported) return r.saved;
  }
  const a = document.createElement('a');
  a.href = downloadUrl(ticket);
  a.download = ticket.fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  return true;
}

/** Desktop only: open with the program the system uses for .xlsx. */
export async function openDownload(api: Api, ticket: DownloadTicket): Promise<boolean> {
  const r = await api.call('downloads.open', { downloadId: ticket.downloadId });
  return r.supported && r.opened;
}
