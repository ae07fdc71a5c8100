import { useEffect, useId, useRef, useState } from 'react';
import { useApp } from '../../store/store';
import { hasVideoEncoder } from './encode';
import { VIDEO_FPS, type FrameSource, type FrameTiming } from './frameSource';
import type { VideoView } from './rasterize';
import { isAbort, recordVideo, type RecordResult } from './record';
import './video.css';

/** A frame size offered in the dialog. */
export interface Resolution {
  width: number;
  height: number;
}

/** Frame sizes offered, the default first. */
export const RESOLUTIONS: readonly Resolution[] = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
  { width: 854, height: 480 },
];

/** Speeds offered, in simulated minutes per second of video. */
export const VIDEO_SPEEDS: readonly number[] = [1, 2, 4, 8, 16];
const DEFAULT_SPEED = 2;
const DASHBOARD = 'dashboard';
/** The preview in the dialog shows every this many frames (a few times a second of video). */
const PREVIEW_EVERY = 6;
/** Width of the preview in canvas pixels. */
const PREVIEW_WIDTH = 480;

/** Draws a small copy of the frame in `from` into the preview canvas. */
function drawPreview(to: HTMLCanvasElement | null, from: HTMLCanvasElement): void {
  if (!to) return;
  const w = PREVIEW_WIDTH;
  const h = Math.round((w * from.height) / Math.max(1, from.width));
  if (to.width !== w || to.height !== h) {
    to.width = w;
    to.height = h;
  }
  to.getContext('2d')?.drawImage(from, 0, 0, w, h);
}

export interface VideoExportProps {
  /** Makes the frames to record at the chosen speed; null when there is nothing to record yet. */
  source: (timing: FrameTiming) => FrameSource | null;
  /** The views that can be recorded; all of them together make the dashboard. */
  views: readonly VideoView[];
  /** Drawn at the top left of every frame before the source's title. */
  heading?: string;
  speeds?: readonly number[];
  /** Unit of `speeds` as the dialog shows it (default "min/s": simulated minutes per second of video). */
  speedUnit?: string;
  /** Text of the button that opens the dialog, and the dialog's title. */
  label?: string;
  /** Test id prefix of the button (several exporters may sit on one page). */
  testId?: string;
  resolutions?: readonly Resolution[];
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'running'; frame: number; frames: number }
  | { kind: 'done'; result: RecordResult; url: string }
  | { kind: 'cancelled' }
  | { kind: 'error'; message: string };

/** "1.2 MB", "840 kB". */
export function formatBytes(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1e3))} kB`;
}

/** Where the export's time went, per frame (show, draw and its parts, encode) and in finishing the file. */
export function timingText(r: RecordResult): string {
  const per = (ms: number) => (ms / Math.max(1, r.frames)).toFixed(1);
  const t = r.timings;
  const d = t.raster;
  return `show ${per(t.showMs)} ms, draw ${per(t.rasterMs)} ms (snapshots ${per(d.svgMs)}, decoding ${per(d.decodeMs)}, painting ${per(d.drawMs)}; ${d.planned} view layouts), encode ${per(t.encodeMs)} ms per frame; finishing ${t.finishMs.toFixed(0)} ms`;
}

/**
 * "Export video…": a dialog to record the dashboard or one view as a WebM while the source replays,
 * at a chosen resolution and speed, with progress, cancel and a download link at the end.
 */
/**
 * Which rollout the stage plays, beside the update its curve shows: the episode views show the
 * latest recorded rollout, which can be a few updates older than the newest point on the curve.
 */
export function planOnStage(rollout: number | undefined, stageUpdate: number | undefined): string {
  if (rollout === undefined || stageUpdate === undefined) return '';
  const at = stageUpdate + 1;
  return at === rollout
    ? ` It is the rollout the stage plays, at update ${at}, the update the curve shows.`
    : ` It is the rollout the stage's episode views play (recorded at update ${rollout}); the curve and its readout show update ${at}.`;
}

export function VideoExport({
  source,
  views,
  heading = 'Swarm Playground',
  speeds = VIDEO_SPEEDS,
  speedUnit = 'min/s',
  label = 'Export video',
  testId = 'video-export',
  resolutions = RESOLUTIONS,
}: VideoExportProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const preview = useRef<HTMLCanvasElement>(null);
  const abort = useRef<AbortController | null>(null);
  const titleId = useId();
  const [what, setWhat] = useState(DASHBOARD);
  const [res, setRes] = useState(0);
  const [speed, setSpeed] = useState(speeds.includes(DEFAULT_SPEED) ? DEFAULT_SPEED : speeds[0]);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [open, setOpen] = useState(false);
  const supported = hasVideoEncoder();
  const running = phase.kind === 'running';
  const url = phase.kind === 'done' ? phase.url : null;

  // The download's object URL lives until the next export or until the component goes.
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  useEffect(() => () => abort.current?.abort(), []);

  // The plan reads the page's state through `source`: while the dialog is open, an episode or a
  // replay that arrives re-renders it (nothing else re-renders this component when they change).
  useApp((s) => (open ? s.episode : null));
  useApp((s) => (open ? s.replay : null));
  // The update the stage's curve and readout show (1-based): the episode views may play an older rollout.
  const stageUpdate = useApp((s) => (open ? (s.replay ? s.replay.run.metrics[s.replay.index]?.update : s.metrics.at(-1)?.update) : undefined));
  const timing: FrameTiming = { speed, fps: VIDEO_FPS };
  const planned = open && !running ? source(timing) : null;

  const start = async () => {
    const src = source(timing);
    if (!src) {
      setPhase({ kind: 'error', message: 'Nothing to record yet: train at least one update so an episode is on screen.' });
      return;
    }
    const chosen = what === DASHBOARD ? views : views.filter((v) => v.id === what);
    const { width, height } = resolutions[res];
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'running', frame: 0, frames: src.frames });
    try {
      const result = await recordVideo({
        source: src,
        views: chosen,
        width,
        height,
        heading,
        signal: controller.signal,
        onProgress: (frame, frames, canvas) => {
          setPhase({ kind: 'running', frame, frames });
          if (frame % PREVIEW_EVERY === 1 || frame === frames) drawPreview(preview.current, canvas);
        },
      });
      setPhase({ kind: 'done', result, url: URL.createObjectURL(result.blob) });
    } catch (e) {
      setPhase(isAbort(e) ? { kind: 'cancelled' } : { kind: 'error', message: `The export failed: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      abort.current = null;
    }
  };

  const show = () => {
    setOpen(true);
    if (phase.kind !== 'running') setPhase({ kind: 'idle' });
    dialog.current?.showModal();
  };

  return (
    <>
      <button type="button" className="video-open" onClick={show} data-testid={`${testId}-open`}>
        {label}…
      </button>
      <dialog
        ref={dialog}
        className="video-dialog"
        aria-labelledby={titleId}
        data-testid={testId}
        onCancel={(e) => {
          // Escape during an export cancels the export and keeps the dialog open to say so.
          if (running) {
            e.preventDefault();
            abort.current?.abort();
          }
        }}
        onClose={() => setOpen(false)}
      >
        <h2 id={titleId}>{label}</h2>
        {!supported && (
          <p className="video-error" role="alert" data-testid="video-unsupported">
            This browser cannot encode video: it has no WebCodecs VideoEncoder. Use a recent Chrome, Edge, Firefox or Safari, and open the app over https or on
            localhost.
          </p>
        )}
        <div className="video-fields">
          <label>
            <span>Record</span>
            <select value={what} disabled={running} onChange={(e) => setWhat(e.currentTarget.value)} data-testid="video-what">
              <option value={DASHBOARD}>dashboard (all views)</option>
              {views.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>Resolution</span>
            <select value={res} disabled={running} onChange={(e) => setRes(Number(e.currentTarget.value))} data-testid="video-resolution">
              {resolutions.map((r, i) => (
                <option key={i} value={i}>
                  {r.width}×{r.height}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>Speed</span>
            <select value={speed} disabled={running} onChange={(e) => setSpeed(Number(e.currentTarget.value))} data-testid="video-speed">
              {speeds.map((s) => (
                <option key={s} value={s}>
                  {s} {speedUnit}
                </option>
              ))}
            </select>
          </label>
        </div>
        {!running && (
          <p className="video-plan" data-testid="video-plan">
            {planned
              ? `${planned.title}: ${planned.frames} frames, ${(planned.frames / planned.fps).toFixed(1)} s of video at ${planned.fps} fps.${planOnStage(planned.update, stageUpdate)}`
              : 'Nothing to record yet: train at least one update so an episode is on screen.'}
          </p>
        )}
        <canvas ref={preview} className="video-preview" hidden={!running && phase.kind !== 'done'} aria-hidden="true" data-testid="video-preview" />
        {running && (
          <div className="video-progress" role="status">
            <progress max={phase.frames} value={phase.frame} aria-label="Export progress" data-testid="video-progress" />
            <span data-testid="video-progress-text">
              frame {phase.frame} of {phase.frames}
            </span>
          </div>
        )}
        {phase.kind === 'done' && (
          <p className="video-done" role="status">
            <a href={phase.url} download={phase.result.fileName} data-testid="video-download">
              Download {phase.result.fileName}
            </a>{' '}
            <span data-testid="video-summary" title={timingText(phase.result)}>
              {formatBytes(phase.result.blob.size)}, {phase.result.durationS.toFixed(1)} s, {phase.result.codec.toUpperCase()},{' '}
              {phase.result.timings.msPerFrame.toFixed(0)} ms per frame to export
            </span>
          </p>
        )}
        {phase.kind === 'cancelled' && (
          <p role="status" data-testid="video-cancelled">
            Export cancelled; no file was made.
          </p>
        )}
        {phase.kind === 'error' && (
          <p className="video-error" role="alert" data-testid="video-error">
            {phase.message}
          </p>
        )}
        <div className="video-buttons">
          {running ? (
            <button type="button" onClick={() => abort.current?.abort()} data-testid="video-cancel">
              Cancel
            </button>
          ) : (
            <button type="button" className="video-start" disabled={!supported || !planned} onClick={start} data-testid="video-start">
              Export
            </button>
          )}
          <button type="button" disabled={running} onClick={() => dialog.current?.close()} data-testid="video-close">
            Close
          </button>
        </div>
      </dialog>
    </>
  );
}
