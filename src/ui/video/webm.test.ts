import { describe, expect, it } from 'vitest';
import { EncodedPacket } from 'mediabunny';
import { WebmMuxer } from './encode';
import { EBML_IDS, readVint, readWebm, WebmError } from './webm';

/** EBML element bytes: id (with marker), size as an 8-byte vint, data. */
function el(id: number, data: Uint8Array | number[]): number[] {
  const idBytes: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) idBytes.unshift(v % 256);
  const d = Array.from(data);
  const size = [0x01, 0, 0, 0, 0, 0, 0, 0];
  let n = d.length;
  for (let i = 7; i > 0; i--) {
    size[i] = n % 256;
    n = Math.floor(n / 256);
  }
  return [...idBytes, ...size, ...d];
}
const text = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const f64 = (x: number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, x);
  return b;
};

function tinyWebm({ duration = true, cues = true } = {}): Uint8Array {
  const header = el(EBML_IDS.EBML, el(EBML_IDS.DocType, text('webm')));
  const info = el(EBML_IDS.Info, [...el(EBML_IDS.TimestampScale, [0x0f, 0x42, 0x40]), ...(duration ? el(EBML_IDS.Duration, f64(1500)) : [])]);
  const tracks = el(
    EBML_IDS.Tracks,
    el(EBML_IDS.TrackEntry, [
      ...el(EBML_IDS.CodecID, text('V_VP9')),
      ...el(EBML_IDS.Video, [...el(EBML_IDS.PixelWidth, [0x02, 0x80]), ...el(EBML_IDS.PixelHeight, [0x01, 0x68])]),
    ]),
  );
  const cluster = el(EBML_IDS.Cluster, [
    ...el(EBML_IDS.Timestamp, [0]),
    ...el(EBML_IDS.SimpleBlock, [0x81, 0, 0, 0x80, 1, 2]),
    ...el(EBML_IDS.SimpleBlock, [0x81, 0, 33, 0x00, 3]),
  ]);
  const cueBytes = cues ? el(EBML_IDS.Cues, el(EBML_IDS.CuePoint, [])) : [];
  return new Uint8Array([...header, ...el(EBML_IDS.Segment, [...info, ...tracks, ...cluster, ...cueBytes])]);
}

describe('readVint', () => {
  it('reads ids with their marker and sizes without it', () => {
    expect(readVint(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3]), 0, true)).toEqual({ value: 0x1a45dfa3, length: 4, unknown: false });
    expect(readVint(new Uint8Array([0x81]), 0, false)).toEqual({ value: 1, length: 1, unknown: false });
    expect(readVint(new Uint8Array([0x40, 0x02]), 0, false)).toEqual({ value: 2, length: 2, unknown: false });
    expect(readVint(new Uint8Array([0xff]), 0, false).unknown).toBe(true);
    expect(readVint(new Uint8Array([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), 0, false).unknown).toBe(true);
  });

  it('rejects a zero first byte and a truncated integer', () => {
    expect(() => readVint(new Uint8Array([0x00]), 0, false)).toThrow(WebmError);
    expect(() => readVint(new Uint8Array([0x40]), 0, false)).toThrow(WebmError);
  });
});

describe('readWebm', () => {
  it('finds the doctype, duration, track, cues and blocks of a hand-made file', () => {
    expect(readWebm(tinyWebm())).toEqual({
      docType: 'webm',
      timestampScale: 1_000_000,
      durationS: 1.5,
      codecId: 'V_VP9',
      width: 640,
      height: 360,
      cuePoints: 1,
      hasCues: true,
      clusters: 1,
      blocks: 2,
      keyframes: 1,
    });
  });

  it('reports a missing duration and missing cues', () => {
    const info = readWebm(tinyWebm({ duration: false, cues: false }));
    expect(info.durationS).toBeNull();
    expect(info.hasCues).toBe(false);
  });

  it('rejects a file without the EBML magic, and a truncated one', () => {
    expect(() => readWebm(new Uint8Array([0x00, 0x00, 0x01, 0xba]))).toThrow(/EBML header/);
    const whole = tinyWebm();
    expect(() => readWebm(whole.slice(0, whole.length - 5))).toThrow(WebmError);
  });
});

describe('WebmMuxer', () => {
  it('writes a WebM with a duration, cues and one block per packet', async () => {
    const fps = 30;
    const muxer = new WebmMuxer('vp9', fps);
    for (let i = 0; i < 90; i++) {
      const packet = new EncodedPacket(new Uint8Array([i, 1, 2, 3]), i % 60 === 0 ? 'key' : 'delta', i / fps, 1 / fps);
      await muxer.add(packet, i === 0 ? { decoderConfig: { codec: 'vp09.00.41.08', codedWidth: 64, codedHeight: 48 } } : undefined);
    }
    const info = readWebm(await muxer.finish());
    expect(info.docType).toBe('webm');
    expect(info.codecId).toBe('V_VP9');
    expect(info.durationS).toBeCloseTo(3, 2);
    expect(info.hasCues).toBe(true);
    expect(info.cuePoints).toBeGreaterThanOrEqual(1);
    expect(info.blocks).toBe(90);
    expect(info.keyframes).toBe(2);
    expect(info.clusters).toBeGreaterThanOrEqual(2);
  });
});
