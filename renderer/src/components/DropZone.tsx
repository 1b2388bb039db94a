/**
 * Where a workbook is handed to the app: dropped onto the zone or chosen with the button (native dialog in the
 * desktop app, a file input in browser mode). The page only keeps the opaque fileId the main side returns.
 */
import { useState } from 'react';
import type { DragEvent } from 'react';
import type { PickedFile, RpcError } from '../../../core/ipc/contract.js';
import { useApi } from '../ApiContext.js';
import { chooseSources, chooseWorkbook, uploadWorkbook } from '../files.js';
import { useI18n } from '../i18n/index.js';
import { useRpc } from '../useRpc.js';

export function DropZone({
  onFile,
  onFiles,
  onError,
  label,
  hint,
  busy,
}: {
  onFile(f: PickedFile): void;
  /** several sources at once (dropped or chosen together): given, the zone takes several files */
  onFiles?(files: PickedFile[]): void;
  onError(e: RpcError): void;
  label: string;
  hint: string;
  busy?: boolean;
}) {
  const api = useApi();
  const { t } = useI18n();
  const [over, setOver] = useState(false);
  const upload = useRpc(onError);
  const uploading = upload.busy !== null;

  const take = (get: () => Promise<PickedFile | null>) =>
    upload.run(async () => {
      const f = await get();
      if (f) onFile(f);
    });

  const takeAll = (get: () => Promise<PickedFile[]>) =>
    upload.run(async () => {
      const files = await get();
      if (files.length === 1) onFile(files[0]);
      else if (files.length > 1) onFiles?.(files);
    });

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    const files = [...e.dataTransfer.files];
    if (onFiles && files.length > 1)
      void takeAll(async () => {
        const out: PickedFile[] = [];
        for (const f of files) out.push(await uploadWorkbook(api, f));
        return out;
      });
    else if (files[0]) void take(() => uploadWorkbook(api, files[0]));
  };

  const disabled = busy || uploading;
  return (
    <div
      className={`dropzone${over ? ' is-over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <p className="dropzone-text">{t('import.dropHere')}</p>
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => void (onFiles ? takeAll(() => chooseSources(api, true)) : take(() => chooseWorkbook(api)))}
        disabled={disabled}
      >
        {uploading ? t('import.uploading') : label}
      </button>
      <p className="field-hint">{hint}</p>
    </div>
  );
}
