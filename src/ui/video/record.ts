import { createWebmEncoder, type FrameEncoder, type WebmCodec } from './encode';
import type { FrameSource } from './frameSource';
import { Rasterizer, type RasterTimings, type VideoView } from './rasterize';
import { readWebm } from './webm';

/** What to record and how. */
export interface RecordOptions {
  source: FrameSource;
  /** One view fills the frame; several make the dashboard. */
  views: readonly VideoView[];
  width: number;
  height: number;
  /** Heading drawn before the source's title (e.g. the app's name). */
  heading?: string;
  /** Stops the export before the next frame: the encoder is closed and no file is made. */
  signal?: AbortSignal;
  /** Called after each frame is encoded, with the canvas that holds it (e.g. to draw a preview). */
  onProgress?: (frame: number, frames: number, canvas: HTMLCanvasElement) => void;
}

/** Milliseconds spent per stage over the whole export. */
export interface RecordTimings {
  /** Putting frames on screen (store update and React render). */
  showMs: number;
  /** Rasterising the views into the canvas. */
  rasterMs: number;
  /** Handing frames to the encoder (and waiting when its queue is full). */
  encodeMs: number;
  /** Flushing the encoder and writing the file. */
  finishMs: number;
  /** The rasteriser's own breakdown (snapshots, image decoding, canvas drawing). */
  raster: RasterTimings;
  totalMs: number;
  /** Wall-clock milliseconds per frame, everything included. */
  msPerFrame: number;
}

/** A finished export. */
export interface RecordResult {
  blob: Blob;
  fileName: string;
  frames: number;
  codec: WebmCodec;
  /** Duration as the file states it (its Segment Info), in seconds. */
  durationS: number;
  timings: RecordTimings;
}

/** The error an export cancelled through its signal rejects with. */
export function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === 'AbortError';
}

function abortError(): DOMException {
  return new DOMException('The video export was cancelled.', 'AbortError');
}

/**
 * Records `source` into a WebM: for each frame, puts it on screen, rasterises the views into a canvas
 * and encodes it with the frame's own timestamp (i / fps), so the export runs as fast as the machine
 * draws and the video's timing does not depend on it. Checks the finished file (Duration, Cues,
 * frames) before returning it. Rejects with an AbortError when `signal` aborts.
 */
export async function recordVideo(opts: RecordOptions): Promise<RecordResult> {
  const { source, views, width, height, signal } = opts;
  const start = performance.now();
  const timings: RecordTimings = {
    showMs: 0,
    rasterMs: 0,
    encodeMs: 0,
    finishMs: 0,
    totalMs: 0,
    msPerFrame: 0,
    raster: { frames: 0, planned: 0, svgMs: 0, decodeMs: 0, drawMs: 0 },
  };
  if (signal?.aborted) throw abortError();
  // Detached: a canvas on the page would be painted again for every frame, which costs as much as drawing it.
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const title = opts.heading ? `${opts.heading} · ${source.title}` : source.title;
  let raster: Rasterizer | null = null;
  let encoder: FrameEncoder | null = null;
  try {
    encoder = await createWebmEncoder(width, height, source.fps);
    raster = new Rasterizer(canvas, views);
    for (let i = 0; i < source.frames; i++) {
      if (signal?.aborted) throw abortError();
      const t0 = performance.now();
      await source.show(i);
      const t1 = performance.now();
      await raster.draw(i / source.fps, { title, caption: source.caption(i) });
      const t2 = performance.now();
      if (signal?.aborted) throw abortError();
      await encoder.encode(canvas, i);
      const t3 = performance.now();
      timings.showMs += t1 - t0;
      timings.rasterMs += t2 - t1;
      timings.encodeMs += t3 - t2;
      opts.onProgress?.(i + 1, source.frames, canvas);
    }
    const t4 = performance.now();
    const bytes = await encoder.finish();
    timings.finishMs = performance.now() - t4;
    const info = readWebm(bytes);
    if (info.durationS === null || !(info.durationS > 0) || !info.hasCues || info.blocks === 0)
      throw new Error('The encoded file lacks a duration, a seek index or frames.');
    timings.totalMs = performance.now() - start;
    timings.msPerFrame = timings.totalMs / Math.max(1, source.frames);
    return {
      blob: new Blob([bytes as BlobPart], { type: 'video/webm' }),
      fileName: `${source.fileStem}.webm`,
      frames: source.frames,
      codec: encoder.codec,
      durationS: info.durationS,
      timings,
    };
  } catch (e) {
    await encoder?.cancel().catch(() => undefined);
    throw e;
  } finally {
    if (raster) {
      timings.raster = { ...raster.timings };
      raster.dispose();
    }
    source.release();
  }
}
