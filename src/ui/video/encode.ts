import { BufferTarget, EncodedPacket, EncodedVideoPacketSource, Output, WebMOutputFormat } from 'mediabunny';

/** The WebM video codecs the exporter tries, best first. */
export type WebmCodec = 'vp9' | 'vp8';
export const WEBM_CODECS: readonly WebmCodec[] = ['vp9', 'vp8'];

/** WebCodecs codec strings: VP9 profile 0, level 4.1 (1080p at 60 fps), 8-bit; VP8. */
export const CODEC_STRINGS: Record<WebmCodec, string> = { vp9: 'vp09.00.41.08', vp8: 'vp8' };

/** A keyframe at least this often (seconds), so a player can seek to any point quickly. */
export const KEYFRAME_SECONDS = 2;

/**
 * Bits per second for a video of this size: 0.1 bit per pixel per frame, between 0.5 and 12 Mbit/s.
 * The views are flat colours, lines and text, which VP8/VP9 compress well; this keeps text sharp.
 */
export function bitrateFor(width: number, height: number, fps: number): number {
  return Math.round(Math.min(12e6, Math.max(5e5, width * height * fps * 0.1)));
}

/** The encoder configuration for `codec` at this size and rate. */
export function encoderConfig(codec: WebmCodec, width: number, height: number, fps: number): VideoEncoderConfig {
  return {
    codec: CODEC_STRINGS[codec],
    width,
    height,
    framerate: fps,
    bitrate: bitrateFor(width, height, fps),
    bitrateMode: 'variable',
    latencyMode: 'quality',
  };
}

/** Microsecond timestamp of frame `i` at `fps`: the video's clock, independent of how fast frames are made. */
export function frameTimestampUs(i: number, fps: number): number {
  return Math.round((i * 1e6) / fps);
}

/** Whether this browser has WebCodecs video encoding (it needs a secure context: https or localhost). */
export function hasVideoEncoder(): boolean {
  return typeof VideoEncoder === 'function' && typeof VideoFrame === 'function';
}

/** The first codec of `WEBM_CODECS` this browser can encode at this size, or null. */
export async function pickCodec(width: number, height: number, fps: number): Promise<WebmCodec | null> {
  if (!hasVideoEncoder()) return null;
  for (const codec of WEBM_CODECS) {
    try {
      const support = await VideoEncoder.isConfigSupported(encoderConfig(codec, width, height, fps));
      if (support.supported) return codec;
    } catch {
      // An invalid configuration for this codec: try the next one.
    }
  }
  return null;
}

/**
 * Writes encoded video packets into a WebM file held in memory. Not append-only, so on `finish` the
 * muxer goes back and writes the Segment's Duration and the Cues (seek index) a player needs to show
 * the length and to seek. Pure TypeScript (no WebCodecs), so it runs in Node for tests too.
 */
export class WebmMuxer {
  private readonly target = new BufferTarget();
  private readonly output = new Output({ format: new WebMOutputFormat(), target: this.target });
  private readonly track: EncodedVideoPacketSource;
  private readonly started: Promise<void>;

  constructor(codec: WebmCodec, fps: number) {
    this.track = new EncodedVideoPacketSource(codec);
    this.output.addVideoTrack(this.track, { frameRate: fps });
    this.started = this.output.start();
  }

  /** Adds one packet (in decode order); pass the encoder's metadata with the first. */
  async add(packet: EncodedPacket, meta?: EncodedVideoChunkMetadata): Promise<void> {
    await this.started;
    await this.track.add(packet, meta);
  }

  /** Closes the file and returns its bytes. */
  async finish(): Promise<Uint8Array> {
    await this.started;
    await this.output.finalize();
    const buffer = this.target.buffer;
    if (!buffer) throw new Error('the WebM muxer produced no file');
    return new Uint8Array(buffer);
  }

  /** Drops the file being written. */
  async cancel(): Promise<void> {
    await this.started.catch(() => undefined);
    if (this.output.state !== 'finalized' && this.output.state !== 'canceled') await this.output.cancel();
  }
}

/** Encodes canvas frames to a WebM file: WebCodecs `VideoEncoder` into a `WebmMuxer`. */
export interface FrameEncoder {
  readonly codec: WebmCodec;
  /** Encodes what `image` shows now as frame `i`; resolves when the encoder can take the next one. */
  encode(image: CanvasImageSource, i: number): Promise<void>;
  /** Flushes the encoder and returns the finished file. */
  finish(): Promise<Uint8Array>;
  /** Stops encoding and drops the file; safe to call more than once. */
  cancel(): Promise<void>;
}

/** Frames queued in the encoder before `encode` waits for it. */
const MAX_QUEUE = 4;

/**
 * Starts a WebM encoder for frames of `width` x `height` at `fps`. Frame `i` gets the timestamp
 * `i / fps` seconds, whatever time it is, so the export runs as fast as frames can be drawn and the
 * file does not depend on the machine's speed. Throws when the browser has no usable VP9/VP8 encoder.
 */
export async function createWebmEncoder(width: number, height: number, fps: number): Promise<FrameEncoder> {
  if (!hasVideoEncoder())
    throw new Error('This browser has no WebCodecs VideoEncoder (it needs a recent Chrome, Edge, Firefox or Safari, over https or on localhost).');
  const codec = await pickCodec(width, height, fps);
  if (!codec) throw new Error(`This browser cannot encode VP9 or VP8 video at ${width}×${height}.`);
  const muxer = new WebmMuxer(codec, fps);
  let failure: unknown = null;
  let muxing: Promise<void> = Promise.resolve();
  const encoder = new VideoEncoder({
    output: (chunk, meta) => {
      const packet = EncodedPacket.fromEncodedChunk(chunk);
      muxing = muxing
        .then(() => muxer.add(packet, meta))
        .catch((e: unknown) => {
          failure ??= e;
        });
    },
    error: (e) => {
      failure ??= e;
    },
  });
  encoder.configure(encoderConfig(codec, width, height, fps));
  const keyEvery = Math.max(1, Math.round(KEYFRAME_SECONDS * fps));
  const duration = frameTimestampUs(1, fps);
  const check = () => {
    if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  };
  let closed = false;

  return {
    codec,
    async encode(image, i) {
      check();
      const frame = new VideoFrame(image, { timestamp: frameTimestampUs(i, fps), duration });
      try {
        encoder.encode(frame, { keyFrame: i % keyEvery === 0 });
      } finally {
        frame.close();
      }
      while (encoder.encodeQueueSize > MAX_QUEUE && !failure) await new Promise((r) => encoder.addEventListener('dequeue', r, { once: true }));
      check();
    },
    async finish() {
      check();
      await encoder.flush();
      await muxing;
      check();
      encoder.close();
      closed = true;
      return muxer.finish();
    },
    async cancel() {
      if (!closed && encoder.state !== 'closed') encoder.close();
      closed = true;
      await muxing;
      await muxer.cancel();
    },
  };
}
