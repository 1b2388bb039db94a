/**
 * The import wizard: open or drop a workbook → the check by cell → the dry run against the service → the run
 * with progress → the results, with the failed rows to save and re-run. The work happens on the main side; this
 * screen holds ids and what to show. It stays mounted while the user visits other screens, so a running import
 * is still here when they come back.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ImportValidation, JobView, MirrorSheet, PickedFile, PlanOverview, RpcError } from '../../../../electron/core/ipc/contract.js';
import { useApi } from '../../ApiContext.js';
import { DropZone } from '../../components/DropZone.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { formatNumber } from '../../components/format.js';
import { JobResults } from '../../components/JobResults.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { toRpcError } from '../../errors.js';
import { useI18n } from '../../i18n/index.js';
import { IMPORT_PHASE_MESSAGE } from '../../i18n/names.js';
import type { ImportPhase } from '../../../../electron/core/names.js';
import { ColumnsStep } from './ColumnsStep.js';
import type { ColumnMappingDoc, ColumnsView } from './columnsLogic.js';
import { DryRunStep } from './DryRunStep.js';
import { onRerunRequest } from './rerunRequest.js';
import { RunStep } from './RunStep.js';
import { ValidationStep } from './ValidationStep.js';

export const STEPS = ['choose', 'columns', 'check', 'plan', 'run', 'results'] as const;
export type Step = (typeof STEPS)[number];

interface Progress {
  phase: ImportPhase;
  done: number;
  total: number | null;
}

export function ImportScreen() {
  const api = useApi();
  const { t, locale } = useI18n();
  const [step, setStep] = useState<Step>('choose');
  const [file, setFile] = useState<PickedFile | null>(null);
  const [validation, setValidation] = useState<ImportValidation | null>(null);
  const [overview, setOverview] = useState<PlanOverview | null>(null);
  const [createOnly, setCreateOnly] = useState(false);
  /** Sheets the dry run mirrors (issue 13 §2): what they no longer have is deleted, under the cap. */
  const [mirror, setMirror] = useState<MirrorSheet[]>([]);
  const [onlyFailedOf, setOnlyFailedOf] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [job, setJob] = useState<JobView | null>(null);
  const [busy, setBusy] = useState<'reading' | 'planning' | 'starting' | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<RpcError | null>(null);
  const refs = useRef<{ ref: string | null }>({ ref: null });
  /** the Columns step of the file (null: not needed), the mapping the check reads with and a saved one applied */
  const [columns, setColumns] = useState<ColumnsView | null>(null);
  const [mapping, setMapping] = useState<ColumnMappingDoc | null>(null);
  const [applied, setApplied] = useState<string | null>(null);

  const fail = useCallback((e: unknown) => setError(toRpcError(e)), []);

  // Progress of reading and planning (events carry the fileId or the importId).
  useEffect(
    () =>
      api.on('import.progress', (p) => {
        if (p.ref === refs.current.ref) setProgress({ phase: p.phase, done: p.done, total: p.total });
      }),
    [api],
  );

  const previewOf = useCallback(
    (m: ColumnMappingDoc) => api.call('import.columnsPreview', { fileId: file?.fileId ?? '', mapping: m }),
    [api, file],
  );

  const validate = useCallback(
    async (f: PickedFile, m: ColumnMappingDoc | null) => {
      setError(null);
      setValidation(null);
      setOverview(null);
      setStep('check');
      setBusy('reading');
      setProgress(null);
      refs.current.ref = f.fileId;
      try {
        setValidation(await api.call('import.validate', { fileId: f.fileId, ...(m ? { mapping: m } : {}) }));
      } catch (e) {
        fail(e);
      } finally {
        setBusy(null);
        setProgress(null);
      }
    },
    [api, fail],
  );

  const read = useCallback(
    async (f: PickedFile, failedOf: string | null) => {
      setError(null);
      setFile(f);
      setValidation(null);
      setOverview(null);
      setOnlyFailedOf(failedOf);
      setColumns(null);
      setMapping(null);
      setApplied(null);
      setStep('check');
      setBusy('reading');
      setProgress(null);
      // The Columns step first: a saved mapping whose headers match is applied; a CSV or headers that are not
      // the template's open the step; a file that cannot be peeked goes to the check, which says why.
      let view: ColumnsView | null = null;
      try {
        view = await api.call('import.columns', { fileId: f.fileId });
      } catch {
        view = null;
      }
      if (view?.saved) {
        setColumns(view);
        setMapping(view.saved.mapping);
        setApplied(view.saved.name);
        await validate(f, view.saved.mapping);
        return;
      }
      if (view?.needed) {
        setColumns(view);
        setBusy(null);
        setStep('columns');
        return;
      }
      await validate(f, null);
    },
    [api, validate],
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
    setError(null);
    setBusy('planning');
    setProgress(null);
    refs.current.ref = validation.importId;
    try {
      const ov = await api.call('import.plan', {
        importId: validation.importId,
        createOnly: co,
        mirror: mi,
        ...(onlyFailedOf ? { onlyFailedOf } : {}),
      });
      setOverview(ov);
      setStep('plan');
    } catch (e) {
      fail(e);
    } finally {
      setBusy(null);
      setProgress(null);
    }
  };

  const loadJob = useCallback(
    async (id: string) => {
      try {
        const v = await api.call('jobs.get', { jobId: id });
        setJob(v);
        return v;
      } catch (e) {
        fail(e);
        return null;
      }
    },
    [api, fail],
  );

  // The job stops (completed, paused, cancelled, aborted): show its results.
  useEffect(
    () =>
      api.on('jobs.changed', (c) => {
        if (c.jobId !== jobId) return;
        if (!c.running) void loadJob(c.jobId).then((v) => v && setStep('results'));
      }),
    [api, jobId, loadJob],
  );

  const run = async (skipBlocked: boolean) => {
    if (!validation) return;
    setError(null);
    setBusy('starting');
    try {
      const r = await api.call('import.run', { importId: validation.importId, skipBlocked });
      setJobId(r.jobId);
      setJob(null);
      setStep('run');
      // The job may already be over (a tiny plan): check once.
      const v = await api.call('jobs.get', { jobId: r.jobId });
      if (!v.running) {
        setJob(v);
        setStep('results');
      }
    } catch (e) {
      fail(e);
    } finally {
      setBusy(null);
    }
  };

  const resume = async () => {
    if (!jobId) return;
    setError(null);
    try {
      await api.call('jobs.resume', { jobId });
      setStep('run');
      const v = await api.call('jobs.get', { jobId });
      if (!v.running) {
        setJob(v);
        setStep('results');
      }
    } catch (e) {
      fail(e);
    }
  };

  const reset = () => {
    if (validation) void api.call('import.close', { importId: validation.importId }).catch(() => {});
    setStep('choose');
    setFile(null);
    setValidation(null);
    setOverview(null);
    setOnlyFailedOf(null);
    setMirror([]);
    setColumns(null);
    setMapping(null);
    setApplied(null);
    setJobId(null);
    setJob(null);
    setError(null);
  };

  const stepIndex = STEPS.indexOf(step);
  return (
    <div className="stack stack-wide">
      <ol className="steps" aria-label={t('import.steps')}>
        {STEPS.map((s, i) => (
          <li
            key={s}
            className={i < stepIndex ? 'done' : i === stepIndex ? 'current' : ''}
            aria-current={i === stepIndex ? 'step' : undefined}
          >
            <span className="step-n">{i + 1}</span> {t(`import.step.${s}`)}
          </li>
        ))}
      </ol>
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} />}

      {step === 'choose' && (
        <section className="card" aria-labelledby="choose-heading">
          <h2 id="choose-heading">{t('import.chooseTitle')}</h2>
          <p>{t('import.chooseText')}</p>
          <DropZone
            label={t('import.choose')}
            hint={t('import.chooseHint')}
            onFile={(f) => void read(f, null)}
            onError={setError}
          />
        </section>
      )}

      {step === 'check' && busy === 'reading' && (
        <section className="card" aria-labelledby="reading-heading">
          <h2 id="reading-heading">{t('import.reading', { file: file?.name ?? '' })}</h2>
          <ProgressBar
            value={progress?.done ?? 0}
            max={progress?.total ?? null}
            label={t('import.reading', { file: file?.name ?? '' })}
          />
          <p className="field-hint" aria-live="polite">
            {progress
              ? t(IMPORT_PHASE_MESSAGE[progress.phase], {
                  done: formatNumber(progress.done, locale),
                  total: progress.total === null ? '?' : formatNumber(progress.total, locale),
                })
              : t('common.loading')}
          </p>
          <button
            type="button"
            className="btn"
            onClick={() => file && void api.call('import.cancel', { fileId: file.fileId })}
          >
            {t('common.cancel')}
          </button>
        </section>
      )}

      {step === 'columns' && columns && file && (
        <ColumnsStep
          key={file.fileId}
          view={columns}
          initial={mapping}
          busy={busy !== null}
          preview={previewOf}
          onBack={reset}
          onApply={(m) => {
            setMapping(m);
            setApplied(null);
            void validate(file, m);
          }}
          onSave={async (name, m) => {
            try {
              await api.call('mappings.save', { name, mapping: m });
              return true;
            } catch (e) {
              fail(e);
              return false;
            }
          }}
        />
      )}

      {(step === 'check' || step === 'plan') && applied && columns && (
        <section className="card card-collapsed" aria-label={t('import.step.columns')}>
          <div className="card-head">
            <p role="status" className="applied-mapping">
              ✓ {t('columns.applied', { name: applied })}
            </p>
            {step === 'check' && (
              <button
                type="button"
                className="btn btn-quiet"
                onClick={() => {
                  setApplied(null);
                  setStep('columns');
                }}
              >
                {t('columns.change')}
              </button>
            )}
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
            <PlanningProgress
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
            <PlanningProgress
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
            onBack={() => setStep('check')}
            busy={busy !== null}
            onError={fail}
          />
        </>
      )}

      {step === 'run' && jobId && <RunStep jobId={jobId} file={file?.name ?? ''} onError={fail} />}

      {step === 'results' && job && (
        <JobResults
          key={job.jobId}
          view={job}
          onResume={() => void resume()}
          onRerun={(f) => void read(f, job.jobId)}
          rerunSame={
            api.transport === 'electron' && file
              ? { label: t('rerun.same', { file: file.name }), onClick: () => void read(file, job.jobId) }
              : undefined
          }
          actions={
            <button type="button" className="btn btn-quiet" onClick={reset}>
              {t('import.another')}
            </button>
          }
        />
      )}
    </div>
  );
}

function PlanningProgress({ progress, onCancel }: { progress: Progress | null; onCancel(): void }) {
  const { t, locale } = useI18n();
  return (
    <section className="card" aria-labelledby="planning-heading">
      <h2 id="planning-heading">{t('plan.planning')}</h2>
      <ProgressBar value={progress?.done ?? 0} max={progress?.total ?? null} label={t('plan.planning')} />
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
