/** Save bytes the main side produced as a file: a blob download (Electron shows its save dialog for it). */
export function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function downloadBytes(fileName: string, mimeType: string, dataBase64: string): void {
  const blob = new Blob([base64ToBytes(dataBase64)], { type: mimeType });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function formatBytes(n: number, locale: string): string {
  const kb = n / 1024;
  return kb < 1024
    ? `${kb.toLocaleString(locale, { maximumFractionDigits: 0 })} KB`
    : `${(kb / 1024).toLocaleString(locale, { maximumFractionDigits: 1 })} MB`;
}
