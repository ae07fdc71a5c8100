/**
 * A small EBML walker for WebM files: enough to tell whether a file is a WebM that an ordinary player
 * can show the duration of and seek in (EBML header, DocType, Segment Info Duration, Cues, Clusters
 * with blocks). Pure TypeScript, no DOM, so the unit tests and the end-to-end test read files with it.
 */

/** Element ids (with their length marker bits, as written in the file). */
export const EBML_IDS = {
  EBML: 0x1a45dfa3,
  DocType: 0x4282,
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Info: 0x1549a966,
  TimestampScale: 0x2ad7b1,
  Duration: 0x4489,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  CodecID: 0x86,
  Video: 0xe0,
  PixelWidth: 0xb0,
  PixelHeight: 0xba,
  Cues: 0x1c53bb6b,
  CuePoint: 0xbb,
  Cluster: 0x1f43b675,
  Timestamp: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
} as const;

/** Masters the walker descends into; every other element is skipped by its size. */
const MASTERS = new Set<number>([
  EBML_IDS.EBML,
  EBML_IDS.Segment,
  EBML_IDS.Info,
  EBML_IDS.Tracks,
  EBML_IDS.TrackEntry,
  EBML_IDS.Video,
  EBML_IDS.Cues,
  EBML_IDS.Cluster,
  EBML_IDS.BlockGroup,
]);
/** Children of a Segment: one of these ends a Cluster of unknown size. */
const SEGMENT_CHILDREN = new Set<number>([
  EBML_IDS.SeekHead,
  EBML_IDS.Info,
  EBML_IDS.Tracks,
  EBML_IDS.Cues,
  EBML_IDS.Cluster,
  0x1941a469,
  0x1043a770,
  0x1254c367,
]);

/** What `readWebm` found in a file. */
export interface WebmInfo {
  /** The EBML header's DocType ("webm" for WebM). */
  docType: string;
  /** Nanoseconds per timestamp unit (1,000,000 unless the file says otherwise). */
  timestampScale: number;
  /** Segment Info Duration in seconds; null when the file has none (a player then shows no duration). */
  durationS: number | null;
  /** The first track's codec, e.g. "V_VP9". */
  codecId: string | null;
  width: number | null;
  height: number | null;
  /** CuePoints in the Cues element (0 when there are no Cues: players can then seek only slowly, if at all). */
  cuePoints: number;
  hasCues: boolean;
  clusters: number;
  /** SimpleBlocks and BlockGroups' Blocks: the frames. */
  blocks: number;
  /** Blocks flagged as keyframes. */
  keyframes: number;
}

/** A malformed or non-WebM file. */
export class WebmError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebmError';
  }
}

/** Reads an EBML variable-length integer at `pos`: its value (marker kept for ids, stripped for sizes) and length. */
export function readVint(bytes: Uint8Array, pos: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } {
  const first = bytes[pos];
  if (first === undefined) throw new WebmError(`unexpected end of file at byte ${pos}`);
  let length = 1;
  let mask = 0x80;
  while (length <= 8 && !(first & mask)) {
    mask >>= 1;
    length++;
  }
  if (length > 8) throw new WebmError(`invalid variable-length integer at byte ${pos}`);
  if (pos + length > bytes.length) throw new WebmError(`unexpected end of file at byte ${pos}`);
  let value = keepMarker ? first : first & (mask - 1);
  let allOnes = (first & (mask - 1)) === mask - 1;
  for (let i = 1; i < length; i++) {
    const b = bytes[pos + i];
    value = value * 256 + b;
    if (b !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

function readUint(bytes: Uint8Array, start: number, end: number): number {
  let v = 0;
  for (let i = start; i < end; i++) v = v * 256 + bytes[i];
  return v;
}

function readFloat(bytes: Uint8Array, start: number, end: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, end - start);
  if (end - start === 4) return view.getFloat32(0);
  if (end - start === 8) return view.getFloat64(0);
  if (end === start) return 0;
  throw new WebmError(`float of ${end - start} bytes`);
}

function readString(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end && bytes[i] !== 0; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

/**
 * Walks a WebM file and reports its header, duration, track, cues and frames. Throws `WebmError`
 * when the bytes are not an EBML file or an element runs past the end of its parent.
 */
export function readWebm(bytes: Uint8Array): WebmInfo {
  if (bytes.length < 4 || readUint(bytes, 0, 4) !== EBML_IDS.EBML) throw new WebmError('no EBML header (the file does not start with 1A 45 DF A3)');
  const info: WebmInfo = {
    docType: '',
    timestampScale: 1_000_000,
    durationS: null,
    codecId: null,
    width: null,
    height: null,
    cuePoints: 0,
    hasCues: false,
    clusters: 0,
    blocks: 0,
    keyframes: 0,
  };
  let rawDuration: number | null = null;
  let segments = 0;
  let inTrack = 0;

  const block = (start: number, end: number, simple: boolean) => {
    info.blocks++;
    const track = readVint(bytes, start, false);
    const flags = bytes[start + track.length + 2];
    if (flags === undefined || start + track.length + 3 > end) throw new WebmError(`block at byte ${start} too short`);
    if (simple && flags & 0x80) info.keyframes++;
  };

  const walk = (start: number, end: number, parent: number, unknownSize: boolean) => {
    let pos = start;
    while (pos < end) {
      const id = readVint(bytes, pos, true);
      if (unknownSize && parent === EBML_IDS.Cluster && SEGMENT_CHILDREN.has(id.value)) return pos;
      const size = readVint(bytes, pos + id.length, false);
      const dataStart = pos + id.length + size.length;
      const dataEnd = size.unknown ? end : dataStart + size.value;
      if (dataEnd > end) throw new WebmError(`element 0x${id.value.toString(16)} at byte ${pos} runs past its parent (ends at ${dataEnd}, parent at ${end})`);
      let next = dataEnd;
      switch (id.value) {
        case EBML_IDS.DocType:
          if (parent === EBML_IDS.EBML) info.docType = readString(bytes, dataStart, dataEnd);
          break;
        case EBML_IDS.Segment:
          segments++;
          break;
        case EBML_IDS.TimestampScale:
          if (parent === EBML_IDS.Info) info.timestampScale = readUint(bytes, dataStart, dataEnd);
          break;
        case EBML_IDS.Duration:
          if (parent === EBML_IDS.Info) rawDuration = readFloat(bytes, dataStart, dataEnd);
          break;
        case EBML_IDS.CodecID:
          if (parent === EBML_IDS.TrackEntry && inTrack === 1 && info.codecId === null) info.codecId = readString(bytes, dataStart, dataEnd);
          break;
        case EBML_IDS.PixelWidth:
          if (parent === EBML_IDS.Video && info.width === null) info.width = readUint(bytes, dataStart, dataEnd);
          break;
        case EBML_IDS.PixelHeight:
          if (parent === EBML_IDS.Video && info.height === null) info.height = readUint(bytes, dataStart, dataEnd);
          break;
        case EBML_IDS.Cues:
          info.hasCues = true;
          break;
        case EBML_IDS.CuePoint:
          if (parent === EBML_IDS.Cues) info.cuePoints++;
          break;
        case EBML_IDS.Cluster:
          info.clusters++;
          break;
        case EBML_IDS.SimpleBlock:
          if (parent === EBML_IDS.Cluster) block(dataStart, dataEnd, true);
          break;
        case EBML_IDS.Block:
          if (parent === EBML_IDS.BlockGroup) block(dataStart, dataEnd, false);
          break;
      }
      if (MASTERS.has(id.value)) {
        if (id.value === EBML_IDS.TrackEntry) inTrack++;
        const stop = walk(dataStart, dataEnd, id.value, size.unknown);
        if (size.unknown) next = stop;
      }
      pos = next;
    }
    return end;
  };

  walk(0, bytes.length, 0, false);
  if (segments === 0) throw new WebmError('no Segment element');
  if (rawDuration !== null) info.durationS = (rawDuration * info.timestampScale) / 1e9;
  return info;
}
