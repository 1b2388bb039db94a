/**
 * The import wizard: open or drop a workbook → the check by cell → the dry run against the service → the run
 * with progress → the results, with the failed rows to save and re-run. The work happens on the main side; this
 * screen holds ids and what to show. It stays mounted while the user visits other screens, so a running import
 * is still here when they come back.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { MirrorSheet, PickedFile, ProcedureInput } from '../../../../core/ipc/contract.js';
import { useApi } from '../../ApiContext.js';
import { DropZone } from '../../components/DropZone.js';
import { formatNumber } from '../../components/format.js';
import { JobResults } from '../../components/JobResults.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { useI18n } from '../../i18n/index.js';
import { useRpc } from '../../useRpc.js';
import { IMPORT_PHASE_MESSAGE } from '../../i18n/names.js';
import type { ImportPhase } from '../../../../core/names.js';
import { ColumnsStep } from './ColumnsStep.js';
import type { ColumnMappingDoc, ColumnsView } from './columnsLogic.js';
import { DryRunStep } from './DryRunStep.js';
import { onRerunRequest } from './rerunRequest.js';
import { RunStep } from './RunStep.js';
import { ImpactPanel } from '../impact/ImpactPanel.js';
import { ValidationStep } from './ValidationStep.js';
import { INITIAL, STEPS, sheetsOfFile, sourceIds, sourcesName, stepStates, wizard, withFiles } from './wizard.js';
import type { WizardAction } from './wizard.js';

export { STEPS } from './wizard.js';

interface Progress {
  phase: ImportPhase;
  done: number;
  total: number | null;
}

export function ImportScreen() {
  const api = useApi();
  const { t } = useI18n();
  /** one state per step (wizard.ts); what is in flight and the last error (useRpc), and its progress beside it */
  const [w, dispatch] = useReducer(wizard, INITIAL);
  const step = w.step;
  const files = w.files;
  const file = files[0] ?? null;
  const validation = w.step === 'check' || w.step === 'plan' ? w.validation : null;
  const overview = w.step === 'plan' ? w.overview : null;
  const onlyFailedOf = w.step === 'choose' ? null : w.onlyFailedOf;
  const jobId = w.step === 'run' || w.step === 'results' ? w.jobId : null;
  const job = w.step === 'results' ? w.job : null;
  const columns = w.step === 'choose' ? null : w.columns;
  const mapping = w.step === 'choose' ? null : w.mapping;
  const applied = w.step === 'choose' ? null : w.applied;
  const [createOnly, setCreateOnly] = useState(false);
  /** Sheets the dry run mirrors: what they no longer have is deleted, under the cap. */
  const [mirror, setMirror] = useState<MirrorSheet[]>([]);
  const rpc = useRpc<'listing' | 'reading' | 'planning' | 'starting' | 'resuming'>();
  const { busy, fail, run: runRpc, dismiss } = rpc;
  const [progress, setProgress] = useState<Progress | null>(null);
  const refs = useRef<{ ref: string | null }>({ ref: null });

  /** A call whose progress events carry `ref` (a fileId or an importId): its progress shown while it runs. */
  const withProgress = useCallback(async <R,>(ref: string, call: () => Promise<R>): Promise<R> => {
    setProgress(null);
    refs.current.ref = ref;
    try {
      return await call();
    } finally {
      setProgress(null);
    }
  }, []);

  // Progress of reading and planning (events carry the fileId or the importId).
  useEffect(
    () =>
      api.on('import.progress', (p) => {
        if (p.ref === refs.current.ref) setProgress({ phase: p.phase, done: p.done, total: p.total });
      }),
    [api],
  );

  /** The sheet the user chose per source in the Columns step (the view is asked for with them). */
  type ChosenSheets = NonNullable<ProcedureInput<'import.columns'>['sheets']>;
  const [chosenSheets, setChosenSheets] = useState<ChosenSheets>({});
  const chooseSheet = (source: string, sheet: string) => {
    // a sheet of the view's targetSheets (the contract refuses any other)
    const chosen = { ...chosenSheets, [source]: sheet } as ChosenSheets;
    setChosenSheets(chosen);
    void runRpc(async () => {
      const view = await api.call('import.columns', { ...sourceIds(files), sheets: chosen });
      dispatch({ type: 'columns', columns: view });
    }, 'reading');
  };

  const previewOf = useCallback(
    (m: ColumnMappingDoc) => api.call('import.columnsPreview', { ...sourceIds(files), mapping: m }),
    [api, files],
  );

  /** The check of the sources with a mapping (the step shows it from now on): the answer to dispatch. */
  const check = useCallback(
    async (fs: PickedFile[], view: ColumnsView | null, m: ColumnMappingDoc | null, savedName: string | null = null) => {
      dispatch({ type: 'check', columns: view, mapping: m, applied: savedName });
      const validation = await withProgress(fs[0].fileId, () =>
        api.call('import.validate', { ...sourceIds(fs), ...(m ? { mapping: m } : {}), checkCodes: true }),
      );
      return { type: 'checked', validation } satisfies WizardAction;
    },
    [api, withProgress],
  );

  /** Run a step's call as the action `busy`: the wizard moves on with its answer (not when it failed or is stale). */
  const advance = useCallback(
    async (call: () => Promise<WizardAction>, busyAs: 'reading' | 'planning') => {
      const a = await runRpc(call, busyAs);
      if (a) dispatch(a);
    },
    [runRpc],
  );

  const validate = useCallback(
    (fs: PickedFile[], view: ColumnsView | null, m: ColumnMappingDoc | null) =>
      advance(() => check(fs, view, m), 'reading'),
    [advance, check],
  );

  const read = useCallback(
    async (f: PickedFile | PickedFile[], failedOf: string | null) => {
      const fs = Array.isArray(f) ? f : [f];
      dispatch({ type: 'read', files: fs, onlyFailedOf: failedOf });
      // The Columns step first: a saved mapping whose headers match is applied; a CSV or headers that are not
      // the template's open the step; a file that cannot be peeked goes to the check, which says why.
      await advance(async () => {
        setProgress(null);
        const view = await api.call('import.columns', sourceIds(fs)).catch(() => null);
        if (view?.saved) return check(fs, view, view.saved.mapping, view.saved.name);
        if (view?.needed) return { type: 'columns', columns: view } satisfies WizardAction;
        return check(fs, view, null);
      }, 'reading');
    },
    [api, advance, check],
  );

  /** Several sources chosen (or one added to, or removed from, the list): listed with the sheets they feed. */
  const list = useCallback(
    async (fs: PickedFile[]) => {
      dismiss();
      dispatch({ type: 'list', files: fs });
      if (fs.length === 0) return;
      const view = await runRpc(
        () =>
          api.call('import.columns', sourceIds(fs)).catch((e: unknown) => {
            // the check says what a file is (a PDF, an .xls); listed as feeding no sheet meanwhile
            dispatch({ type: 'listed', files: fs, sheets: [] });
            throw e;
          }),
        'listing',
      );
      if (view) dispatch({ type: 'listed', files: fs, sheets: view.sources });
    },
    [api, runRpc, dismiss],
  );

  // A re-run of failed rows asked for on the Jobs screen: the corrected workbook comes here.
  useEffect(
    () =>
      onRerunRequest((r) => {
        window.location.hash = '#/import';
        void read(r.file, r.jobId);
      }),
    [read],
  );

  // Workbooks opened with the app by the OS (file association) go straight into the wizard.
  useEffect(() => {
    let live = true;
    const take = (f: PickedFile) => {
      if (!live) return;
      window.location.hash = '#/import';
      void read(f, null);
    };
    void api.call('files.takeOpened', {}).then(
      (r) => r.files[0] && take(r.files[0]),
      () => {},
    );
    const off = api.on(
      'files.opened',
      () =>
        void api.call('files.takeOpened', {}).then(
          (r) => r.files[0] && take(r.files[0]),
          () => {},
        ),
    );
    return () => {
      live = false;
      off();
    };
  }, [api, read]);

  const plan = async (co = createOnly, mi = mirror) => {
    if (!validation) return;
    const { importId } = validation;
    await advance(async () => {
      const overview = await withProgress(importId, () =>
        api.call('import.plan', { importId, createOnly: co, mirror: mi, ...(onlyFailedOf ? { onlyFailedOf } : {}) }),
      );
      return { type: 'planned', overview } satisfies WizardAction;
    }, 'planning');
  };

  /** The job's view once it stopped (an event's consequence, not a user's call: it leaves busy and the error). */
  const loadJob = useCallback(
    (id: string) => api.call('jobs.get', { jobId: id }).then((job) => dispatch({ type: 'finished', job }), fail),
    [api, fail],
  );

  /**
   * The job this screen follows, set the moment import.run or jobs.resume answers: its end may be announced
   * before React has rendered the step that holds its id, and must not be missed then (the screen would wait
   * on the Run step for ever).
   */
  const followed = useRef<string | null>(null);
  useEffect(() => {
    if (jobId) followed.current = jobId;
  }, [jobId]);

  // The job stops (completed, paused, cancelled, aborted): show its results.
  useEffect(
    () =>
      api.on('jobs.changed', (c) => {
        if (c.jobId !== followed.current) return;
        if (!c.running) void loadJob(c.jobId);
      }),
    [api, loadJob],
  );

  /**
   * The job once it started (or resumed), called as soon as the call answered (nothing runs in between): followed
   * from then on, and looked at once, as it may already be over (a tiny plan).
   */
  const follow = async (id: string) => {
    followed.current = id;
    const v = await api.call('jobs.get', { jobId: id });
    if (!v.running) dispatch({ type: 'finished', job: v });
  };

  const run = (skipBlocked: boolean) =>
    validation &&
    runRpc(async () => {
      const r = await api.call('import.run', { importId: validation.importId, skipBlocked });
      dispatch({ type: 'started', jobId: r.jobId });
      await follow(r.jobId);
    }, 'starting');

  const resume = () =>
    jobId &&
    runRpc(async () => {
      await api.call('jobs.resume', { jobId });
      dispatch({ type: 'resumed' });
      await follow(jobId);
    }, 'resuming');

  const reset = () => {
    followed.current = null;
    if (validation) void api.call('import.close', { importId: validation.importId }).catch(() => {});
    dispatch({ type: 'reset' });
    setMirror([]);
    setChosenSheets({});
    rpc.dismiss();
  };

  const states = stepStates(w);
  return (
    <div className="stack stack-wide">
      <ol className="steps" aria-label={t('import.steps')}>
        {STEPS.map((s, i) => (
          <li
            key={s}
            className={states[i] === 'todo' ? '' : states[i]}
            aria-current={states[i] === 'current' ? 'step' : undefined}
          >
            <span className="step-n">{i + 1}</span> {t(`import.step.${s}`)}
            {states[i] === 'skipped' && <span className="muted"> {t('import.stepSkipped')}</span>}
          </li>
        ))}
      </ol>
      {rpc.notice}

      {step === 'choose' && (
        <section className="card" aria-labelledby="choose-heading">
          <h2 id="choose-heading">{t('import.chooseTitle')}</h2>
          <p>{t('import.chooseText')}</p>
          {w.step === 'choose' && w.files.length > 0 ? (
            <>
              <h3>{t('import.filesTitle')}</h3>
              <ul className="source-files" aria-label={t('import.filesTitle')}>
                {w.files.map((f) => {
                  const feeds = sheetsOfFile(f, w.sheets);
                  return (
                    <li key={f.fileId}>
                      <code>{f.name}</code>{' '}
                      <span className="field-hint">
                        {w.sheets === null
                          ? t('common.loading')
                          : feeds.length === 0 || feeds.every((x) => x === null)
                            ? t('import.feedsNothing')
                            : t('import.feeds', { sheets: feeds.filter((x) => x !== null).join(', ') })}
                      </span>{' '}
                      <button
                        type="button"
                        className="btn btn-quiet"
                        aria-label={t('import.removeFile', { file: f.name })}
                        onClick={() => void list(w.files.filter((x) => x.fileId !== f.fileId))}
                      >
                        ✕
                      </button>
                    </li>
                  );
                })}
              </ul>
              <DropZone
                label={t('import.addFiles')}
                hint={t('import.chooseHint')}
                onFile={(f) => void list(withFiles(w.files, [f]))}
                onFiles={(fs) => void list(withFiles(w.files, fs))}
                onError={fail}
              />
              <div className="form-actions">
                <button type="button" className="btn btn-primary" onClick={() => void read(w.files, null)}>
                  {w.files.length === 1
                    ? t('import.readOne', { file: w.files[0].name })
                    : t('import.readFiles', { count: w.files.length })}
                </button>
                <button type="button" className="btn" onClick={reset}>
                  {t('common.cancel')}
                </button>
              </div>
            </>
          ) : (
            <DropZone
              label={t('import.choose')}
              hint={t('import.chooseHint')}
              onFile={(f) => void read(f, null)}
              onFiles={(fs) => void list(fs)}
              onError={fail}
            />
          )}
        </section>
      )}

      {step === 'check' && busy === 'reading' && (
        <PhaseProgress
          id="reading-heading"
          title={t('import.reading', { file: sourcesName(files) })}
          progress={progress}
          onCancel={() => file && void api.call('import.cancel', { fileId: file.fileId })}
        />
      )}

      {step === 'columns' && columns && file && (
        <ColumnsStep
          key={file.fileId}
          view={columns}
          initial={mapping}
          busy={busy !== null}
          preview={previewOf}
          onBack={reset}
          onSheet={chooseSheet}
          onApply={(m) => void validate(files, columns, m)}
          onSave={(name, m) => api.call('mappings.save', { name, mapping: m })}
          onError={fail}
        />
      )}

      {(step === 'check' || step === 'plan') && applied && columns && (
        <section className="card card-collapsed" aria-label={t('import.step.columns')}>
          <div className="card-head">
            <p role="status" className="applied-mapping">
              ✓ {t('columns.applied', { name: applied })}
            </p>
            {step === 'check' && (
              <button type="button" className="btn btn-quiet" onClick={() => dispatch({ type: 'changeColumns' })}>
                {t('columns.change')}
              </button>
            )}
          </div>
        </section>
      )}
      {step === 'check' && !applied && mapping && columns?.needed && busy === null && (
        <section className="card card-collapsed" aria-label={t('import.step.columns')}>
          <div className="card-head">
            <p className="applied-mapping">
              ✓{' '}
              {t('columns.chosen', {
                sources: columns.sources
                  .filter((s) => s.needed && s.sheet)
                  .map((s) => s.source)
                  .join(', '),
              })}
            </p>
            <button type="button" className="btn" onClick={() => dispatch({ type: 'changeColumns' })}>
              {t('columns.backTo')}
            </button>
          </div>
        </section>
      )}

      {step === 'check' && validation && (
        <>
          <ValidationStep
            validation={validation}
            createOnly={createOnly}
            onCreateOnly={setCreateOnly}
            onPlan={() => void plan()}
            onBack={reset}
            planning={busy === 'planning'}
            onlyFailedOf={onlyFailedOf}
          />
          {busy === 'planning' && (
            <PhaseProgress
              id="planning-heading"
              title={t('plan.planning')}
              progress={progress}
              onCancel={() => void api.call('import.cancel', { importId: validation.importId })}
            />
          )}
        </>
      )}
      {step === 'check' && !validation && busy === null && (
        <div className="form-actions">
          <button type="button" className="btn" onClick={reset}>
            {t('check.another')}
          </button>
        </div>
      )}

      {step === 'plan' && overview && (
        <>
          {busy === 'planning' && (
            <PhaseProgress
              id="planning-heading"
              title={t('plan.planning')}
              progress={progress}
              onCancel={() => validation && void api.call('import.cancel', { importId: validation.importId })}
            />
          )}
          <DryRunStep
            overview={overview}
            createOnly={createOnly}
            onCreateOnly={(v) => {
              setCreateOnly(v);
              void plan(v);
            }}
            mirror={mirror}
            onMirror={(sheets) => {
              setMirror(sheets);
              void plan(createOnly, sheets);
            }}
            onRun={(skip) => void run(skip)}
            onBack={() => dispatch({ type: 'backToCheck' })}
            busy={busy !== null}
            onError={fail}
            sheets={validation?.sheets ?? []}
          />
        </>
      )}

      {step === 'run' && jobId && <RunStep jobId={jobId} file={sourcesName(files)} onError={fail} />}

      {step === 'results' && job && (
        <JobResults
          key={job.jobId}
          view={job}
          onResume={() => void resume()}
          onRerun={(f) => void read(f, job.jobId)}
          rerunSame={
            api.transport === 'electron' && file
              ? { label: t('rerun.same', { file: sourcesName(files) }), onClick: () => void read(files, job.jobId) }
              : undefined
          }
          actions={
            <button type="button" className="btn btn-quiet" onClick={reset}>
              {t('import.another')}
            </button>
          }
        />
      )}
      {step === 'results' && job && <ImpactPanel key={`impact-${job.jobId}`} jobId={job.jobId} />}
    </div>
  );
}

/** Reading or planning under way: its phase with a bar, and a button that cancels it. */
function PhaseProgress({
  id,
  title,
  progress,
  onCancel,
}: {
  /** the heading's id */
  id: string;
  title: string;
  progress: Progress | null;
  onCancel(): void;
}) {
  const { t, locale } = useI18n();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ProgressBar value={progress?.done ?? 0} max={progress?.total ?? null} label={title} />
      <p className="field-hint" aria-live="polite">
        {progress
          ? t(IMPORT_PHASE_MESSAGE[progress.phase], {
              done: formatNumber(progress.done, locale),
              total: progress.total === null ? '?' : formatNumber(progress.total, locale),
            })
          : t('common.loading')}
      </p>
      <button type="button" className="btn" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </section>
  );
}
