/**
 * Files the user hands to the app (a workbook to import): picked with the native dialog (desktop), uploaded
 * from the page (browser mode, drag and drop in both), or opened with the app by the OS (.xlsx association).
 * The renderer only ever holds an opaque fileId: it can never make the main side read a path of its choosing.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PickedFile } from '../../contract/index.js';
import { AppError } from '../errors.js';
import { SOURCE_EXTENSIONS, TEXT_SOURCE_EXTENSIONS, WORKBOOK_EXTENSIONS } from '../../workbook/sources/index.js';

/** Same as the workbook reader's file-size limit (core/workbook/guards.ts). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
export { SOURCE_EXTENSIONS, WORKBOOK_EXTENSIONS };

/** Native dialogs of the desktop app; browser mode has none (the page uploads instead). */
export interface HostDialogs {
  /** absolute path of the chosen workbook, or null when cancelled */
  openWorkbook(): Promise<string | null>;
  /** absolute paths of the chosen sources (several .xlsx/.csv at once), [] when cancelled */
  openWorkbooks?(): Promise<string[]>;
  /** where to save a file the app made (native save dialog), or null when cancelled */
  saveFile?(suggestedName: string): Promise<string | null>;
  /** open a file with the program the system uses for it; false when that failed */
  openPath?(filePath: string): Promise<boolean>;
}

function displayName(name: string): string {
  // Only the last path segment, no control characters; the name is shown, never used as a path.
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255);
  return clean === '' ? 'workbook.xlsx' : clean;
}

/** Workbook paths among command-line arguments (Windows/Linux "Open with" passes the file as an argument). */
export function workbookArgs(argv: readonly string[]): string[] {
  return argv.filter(
    (a) => !a.startsWith('-') && (WORKBOOK_EXTENSIONS as readonly string[]).includes(path.extname(a).toLowerCase()),
  );
}

export class FileRegistry {
  private readonly files = new Map<string, { path: string; name: string; size: number; uploaded: boolean }>();
  private dir: string | null = null;
  private opened: PickedFile[] = [];

  constructor(private readonly uploadRoot: string = os.tmpdir()) {}

  private uploadDir(): string {
    if (!this.dir) this.dir = fs.mkdtempSync(path.join(this.uploadRoot, 'supply-loader-uploads-'));
    return this.dir;
  }

  /** A file that exists on disk (dialog, OS "open with"). */
  registerPath(filePath: string): PickedFile {
    const abs = path.resolve(filePath);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      throw new AppError('not_found', `The file ${path.basename(abs)} cannot be read.`);
    }
    if (!stat.isFile()) throw new AppError('invalid_input', `${path.basename(abs)} is not a file.`);
    const fileId = randomUUID();
    const name = path.basename(abs);
    this.files.set(fileId, { path: abs, name, size: stat.size, uploaded: false });
    return { fileId, name, size: stat.size };
  }

  /** Bytes sent by the page: kept in a private temp dir (0600) under a random name. */
  registerUpload(name: string, bytes: Buffer): PickedFile {
    if (bytes.length === 0) throw new AppError('invalid_input', 'The file is empty.');
    if (bytes.length > MAX_UPLOAD_BYTES) {
      throw new AppError(
        'invalid_input',
        `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB. Split the data into several workbooks.`,
      );
    }
    const fileId = randomUUID();
    const shown = displayName(name);
    const ext = path.extname(shown).toLowerCase();
    // A CSV keeps its own name in a folder of its own: its name is its sheet's name, matched by a mapping's
    // `source` glob and shown in every cell address (MAT_2025-11.csv!C7).
    let stored: string;
    if ((TEXT_SOURCE_EXTENSIONS as readonly string[]).includes(ext)) {
      const own = path.join(this.uploadDir(), fileId);
      fs.mkdirSync(own, { mode: 0o700 });
      stored = path.join(own, shown);
    } else
      stored = path.join(
        this.uploadDir(),
        // Another file keeps its extension when it is a plain one: a file that is not a workbook is then told
        // what it is under its own name (a .slk, an .htm), never under one it does not have.
        `${fileId}${(WORKBOOK_EXTENSIONS as readonly string[]).includes(ext) || /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : '.bin'}`,
      );
    fs.writeFileSync(stored, bytes, { mode: 0o600 });
    this.files.set(fileId, { path: stored, name: shown, size: bytes.length, uploaded: true });
    return { fileId, name: shown, size: bytes.length };
  }

  /** Main side only: the path behind a fileId. */
  path(fileId: string): string {
    const f = this.files.get(fileId);
    if (!f) throw new AppError('not_found', 'That file is no longer available. Choose it again.');
    return f.path;
  }

  info(fileId: string): PickedFile {
    const f = this.files.get(fileId);
    if (!f) throw new AppError('not_found', 'That file is no longer available. Choose it again.');
    return { fileId, name: f.name, size: f.size };
  }

  /** A workbook the OS opened with the app: kept until the Import screen takes it. */
  addOpened(filePath: string): PickedFile {
    const f = this.registerPath(filePath);
    this.opened.push(f);
    return f;
  }

  takeOpened(): PickedFile[] {
    const out = this.opened;
    this.opened = [];
    return out;
  }

  /** Remove uploaded copies (never the user's own files). */
  dispose(): void {
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
    this.files.clear();
  }
}
