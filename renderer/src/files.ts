/**
 * Getting a workbook to the main side, the same way in both modes: the desktop app's native dialog when there
 * is one, otherwise a file input; dropped files are uploaded as bytes. The page only keeps the opaque fileId.
 */
import type { PickedFile } from '../../core/ipc/contract.js';
import type { Api } from './api.js';

export function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) out += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(out);
}

/** Hand a File (from a drop or a file input) to the app. */
export async function uploadWorkbook(api: Api, file: Pick<File, 'name' | 'arrayBuffer'>): Promise<PickedFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return api.call('files.upload', { name: file.name, dataBase64: bytesToBase64(bytes) });
}

function pickWithInput(multiple: boolean): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = multiple;
    input.accept =
      '.xlsx,.xlsm,.xls,.ods,.csv,.txt,.tsv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv';
    input.addEventListener('change', () => resolve([...(input.files ?? [])]), { once: true });
    input.addEventListener('cancel', () => resolve([]), { once: true });
    input.click();
  });
}

/** Ask the user for a workbook; null when they cancel. */
export async function chooseWorkbook(api: Api): Promise<PickedFile | null> {
  return (await chooseSources(api, false))[0] ?? null;
}

/** Ask the user for one or (multiple) several sources: .xlsx workbooks and CSV files; [] when they cancel. */
export async function chooseSources(api: Api, multiple: boolean): Promise<PickedFile[]> {
  const native = await api.call('files.pickWorkbook', { multiple });
  if (native.supported) return native.files;
  const files = await pickWithInput(multiple);
  const out: PickedFile[] = [];
  for (const f of files) out.push(await uploadWorkbook(api, f));
  return out;
}
