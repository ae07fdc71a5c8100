import { memo, useState, type DragEvent } from 'react';
import type { RunSummary } from '../store/runDatabase';
import { selectActions, selectRuns, useApp, type JobProgress } from '../store/store';
import { Explain } from './Explain';
import { formatDateTime, formatTime } from './dates';
import { AUTOSAVE_MS } from '../app/session';
import { runs as library } from '../app/page';
import { PRETRAINED } from '../core/pretrained';
import './library.css';
import { cancelImport } from '../app/runImport';

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Two summaries of the same facts (the library's list is read again after every save: most rows are unchanged). */
function sameSummary(a: RunSummary, b: RunSummary): boolean {
  const keys = Object.keys(a) as (keyof RunSummary)[];
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** One stored run: its facts, and replay / rename / export / delete. Renders again only when its facts change. */
const RunRow = memo(
  function RunRow({ run, recordingId }: { run: RunSummary; recordingId: number | null }) {
    const controls = useApp(selectActions);
    const [editing, setEditing] = useState<string | null>(null);
    const save = () => {
      // A blank name goes to the library too, which refuses it with a message rather than silently.
      if (editing !== null && editing.trim() !== run.name) void library.renameRun(run.id, editing);
      setEditing(null);
    };
    return (
      <tr data-testid="library-row">
        <td className="run-name">
          {editing === null ? (
            <span data-testid="library-name">{run.name}</span>
          ) : (
            <input
              aria-label={`New name for ${run.name}`}
              value={editing}
              maxLength={120}
              autoFocus
              data-testid="library-rename-input"
              onChange={(e) => setEditing(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') save();
                if (e.key === 'Escape') setEditing(null);
              }}
              onBlur={save}
            />
          )}
          {recordingId === run.id && <span className="run-live"> (this run, recording)</span>}
        </td>
        <td data-label="Recorded">{formatDateTime(run.created)}</td>
        <td className="run-config" data-label="Settings">
          {run.configSummary}
        </td>
        <td className="num" data-label="Final return">
          {run.finalReturn === null ? '–' : run.finalReturn.toFixed(3)}
        </td>
        <td className="num" data-label="Updates">
          {run.updates}
        </td>
        <td className="num" data-label="Size">
          {sizeText(run.bytes)}
        </td>
        <td className="run-actions">
          <button type="button" onClick={() => controls.replay(() => library.replayRun(run.id))} aria-label={`Replay ${run.name}`} data-testid="library-replay">
            Replay
          </button>
          <button type="button" onClick={() => setEditing(run.name)} aria-label={`Rename ${run.name}`} data-testid="library-rename">
            Rename
          </button>
          <button type="button" onClick={() => void library.exportRun(run.id)} aria-label={`Export ${run.name} as a file`} data-testid="library-export">
            Export
          </button>
          <button type="button" onClick={() => void library.deleteRun(run.id)} aria-label={`Delete ${run.name}`} data-testid="library-delete">
            Delete
          </button>
        </td>
      </tr>
    );
  },
  (a, b) => a.recordingId === b.recordingId && sameSummary(a.run, b.run),
);

/** A run file read in a worker: what, how far, and Cancel. */
function JobLine({ verb, job, cancel, testId }: { verb: string; job: JobProgress; cancel: () => void; testId: string }) {
  return (
    <p className="library-message" role="status" data-testid={`${testId}-progress`}>
      {verb} "{job.name}": {job.stage} {Math.round(100 * Math.min(1, job.done))}%{' '}
      <button type="button" onClick={cancel} data-testid={`${testId}-cancel`}>
        Cancel
      </button>
    </p>
  );
}

/** Recorded runs kept in this browser: record, replay, rename, export, import, and the pretrained swarms. */
export function RunLibraryPanel() {
  const controls = useApp(selectActions);
  const runs = useApp(selectRuns);
  const msg = useApp((s) => s.libraryMessage);
  const undo = useApp((s) => s.undo);
  const recording = useApp((s) => s.recording);
  const recordingId = useApp((s) => s.recordingId);
  const savedAt = useApp((s) => s.savedAt);
  const importing = useApp((s) => s.importing);
  const opening = useApp((s) => s.opening);
  const [dragging, setDragging] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const files = [...e.dataTransfer.files];
    if (files.length) void library.importFiles(files);
  };
  const status = !recording
    ? 'Recording is off: this run will not be kept.'
    : savedAt === null
      ? `Recording this run; it is saved here when you pause, and every ${AUTOSAVE_MS / 1000} seconds while it trains (less often once a long run's save takes longer).`
      : `Recording this run; last saved at ${formatTime(savedAt)}.`;
  return (
    <section
      className={`panel library${dragging ? ' dragging' : ''}`}
      aria-labelledby="library-title"
      data-testid="library"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h2 id="library-title">
        Run library{' '}
        <Explain>
          Every training run is recorded: its curves, the rollouts the views show, and the swarm's weights now and then. Runs are kept in this browser; export
          one to keep it as a file or to give it to someone, and drop run files here to import them. Replay shows a recorded run in every view without training
          again. A pretrained swarm shows a coordinated swarm at once.
        </Explain>
      </h2>
      <div className="library-bar">
        <label className="toggle">
          <input type="checkbox" checked={recording} onChange={(e) => controls.setRecording(e.currentTarget.checked)} data-testid="record-toggle" /> record
          training runs
        </label>
        <span className="library-status" data-testid="record-status">
          {status}
        </span>
        <button type="button" onClick={() => void controls.saveNow()} disabled={!recording} data-testid="record-save">
          Save now
        </button>
        <button type="button" onClick={() => void library.exportCurrentRun(controls.currentRecording)} data-testid="record-export">
          Export this run
        </button>
      </div>
      <div className="library-bar">
        <label className="file-button">
          Import run files…
          <input
            type="file"
            multiple
            accept=".gz,.json,application/gzip,application/json"
            data-testid="library-import"
            onChange={(e) => {
              const files = [...(e.currentTarget.files ?? [])];
              e.currentTarget.value = '';
              if (files.length) void library.importFiles(files);
            }}
          />
        </label>
        <span className="library-hint">or drop them on this panel.</span>
        <span className="pretrained">
          Load a trained swarm:{' '}
          {PRETRAINED.map((f) => (
            <button key={f} type="button" onClick={() => controls.replay(() => library.openPretrained(f))} data-testid={`pretrained-${f}`}>
              {f}
            </button>
          ))}
        </span>
      </div>
      {importing && <JobLine verb="Importing" job={importing} cancel={cancelImport} testId="import" />}
      {opening && <JobLine verb="Opening" job={opening} cancel={library.cancelOpen} testId="open" />}
      {msg && (
        <p className={`library-message ${msg.kind}`} role={msg.kind === 'error' ? 'alert' : 'status'} data-testid="library-message">
          {msg.text}
          {undo && msg.kind === 'info' && (
            <button type="button" onClick={() => void library.undoDelete()} data-testid="library-undo">
              Undo
            </button>
          )}
        </p>
      )}
      {runs === null ? (
        <p className="empty">Reading the library…</p>
      ) : runs.length === 0 ? (
        <p className="empty" data-testid="library-empty">
          No runs yet. Train, and the run is recorded here.
        </p>
      ) : (
        <div className="library-table-wrap">
          <table className="library-table" data-testid="library-table">
            <caption className="visually-hidden">Recorded runs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Recorded</th>
                <th scope="col">Settings</th>
                <th scope="col">Final return</th>
                <th scope="col">Updates</th>
                <th scope="col">Size</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <RunRow key={r.id} run={r} recordingId={recordingId} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
