/**
 * Files the app made for the user to take away (results and failed-rows workbooks, exports, LCA workbooks).
 * The renderer only ever holds an opaque downloadId: in browser mode it fetches `GET /download/<id>` from the
 * loopback server (guarded by the same per-launch token as the contract), in the desktop app it asks the main
 * side to save it with the native save dialog (`downloads.save`) or to open it (`downloads.open`).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../errors.js';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Results of a CSV source: in the source's own encoding, so no charset is claimed. */
export const CSV_MIME = 'text/csv';

export interface DownloadTicket {
  downloadId: string;
  fileName: string;
  mimeType: string;
  size: number;
}

interface Entry extends DownloadTicket {
  path: string;
  /** true when the file lives in our temp folder (removed on dispose); false for files in a job folder */
  owned: boolean;
}

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A file name safe to offer in a save dialog or a Content-Disposition header. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .trim()
    .slice(0, 200);
  return clean === '' || clean === '.' || clean === '..' ? 'download.xlsx' : clean;
}

export class DownloadRegistry {
  private readonly entries = new Map<string, Entry>();
  private dir: string | null = null;

  constructor(private readonly root: string = os.tmpdir()) {}

  private tempDir(): string {
    if (!this.dir) this.dir = fs.mkdtempSync(path.join(this.root, 'supply-loader-downloads-'));
    return this.dir;
  }

  /** A fresh path in the private temp folder for a file the app is about to write. */
  tempPath(ext = '.xlsx'): string {
    return path.join(this.tempDir(), `${randomUUID()}${ext}`);
  }

  /** Offer a file that exists on disk (written by the app) under the given name. */
  register(filePath: string, fileName: string, mimeType = XLSX_MIME): DownloadTicket {
    const stat = fs.statSync(filePath);
    const owned = this.dir !== null && path.dirname(path.resolve(filePath)) === this.dir;
    const ticket: DownloadTicket = {
      downloadId: randomUUID(),
      fileName: safeFileName(fileName),
      mimeType,
      size: stat.size,
    };
    this.entries.set(ticket.downloadId, { ...ticket, path: path.resolve(filePath), owned });
    return ticket;
  }

  /** Offer bytes: written to the private temp folder (0600). */
  registerBytes(bytes: Buffer, fileName: string, mimeType = XLSX_MIME): DownloadTicket {
    const p = this.tempPath(path.extname(fileName) || '.bin');
    fs.writeFileSync(p, bytes, { mode: 0o600 });
    return this.register(p, fileName, mimeType);
  }

  /** Main side only: the file behind a downloadId (undefined when unknown or gone). */
  lookup(downloadId: string): (DownloadTicket & { path: string }) | undefined {
    if (!ID.test(downloadId)) return undefined;
    const e = this.entries.get(downloadId);
    if (!e || !fs.existsSync(e.path)) return undefined;
    return { downloadId: e.downloadId, fileName: e.fileName, mimeType: e.mimeType, size: e.size, path: e.path };
  }

  get(downloadId: string): DownloadTicket & { path: string } {
    const e = this.lookup(downloadId);
    if (!e) throw new AppError('not_found', 'That file is no longer available. Make it again.');
    return e;
  }

  /** Remove the temp folder (files in job folders stay: they belong to the job). */
  dispose(): void {
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
    this.entries.clear();
  }
}

/** The local date and minute in a file name the app offers (`20260101-1230`). */
export function fileStamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}`;
}
