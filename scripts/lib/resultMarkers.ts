/**
 * Figures in a Markdown page that are read from a JSON file (`npm run results`; CONTRIBUTING.md,
 * "A figure from a JSON file"). A figure is written between two HTML comments, which Markdown does
 * not show:
 *
 *   <!-- result: results/headline/calibrate-long-planned.json#rows[deadline=72].scripted | fixed:3 -->0.954<!-- /result -->
 *
 * - the file, relative to the repository root, then `#` and the path of a number in it: `.key`
 *   (or a first `key`), `[3]` (the fourth element of an array) and `[key=value]` (the element of an
 *   array whose `key` is `value`: a number or a plain word, compared as text);
 * - optionally `|` and the format: `fixed:N` (N decimals), `percent:N` (times 100, N decimals and a
 *   `%`), `int` (rounded to a whole number), `raw` (as JSON writes the value; the default). A null
 *   value is written `-`.
 *
 * `<!-- results from: FILE -->` names the file of the figures after it (up to the next such line),
 * which then give only the path: `<!-- result: rows[deadline=72].scripted | fixed:3 -->0.954<!-- /result -->`.
 *
 * `checkMarkers` compares every figure of a page with its file, `writeMarkers` rewrites the figures
 * from their files. Both read files through `read`, so they are tested without a disk.
 */

/** One figure of a page: where it is, what it names, and what the page says. */
export interface Marker {
  /** 1-based line of the opening comment. */
  line: number;
  /** The file, relative to the repository root. */
  file: string;
  /** The path inside the file, as written (`rows[deadline=72].scripted`). */
  path: string;
  /** The format, as written (`fixed:3`), or `raw`. */
  format: string;
  /** The text between the two comments. */
  text: string;
  /** Where the text starts and ends in the page (offsets), for `writeMarkers`. */
  start: number;
  end: number;
}

/** Reads a file's text, or returns undefined when there is none. */
export type ReadText = (file: string) => string | undefined;

/** A problem with one figure: a page that disagrees with its file, or a figure that cannot be read. */
export interface MarkerProblem {
  line: number;
  /** The figure as `file#path`. */
  figure: string;
  message: string;
}

const OPEN = /<!--\s*result(s from)?:\s*(.*?)\s*-->/g;
const CLOSE = '<!-- /result -->';

/** The figures of `page`; a comment that is not a well-formed figure is a problem, not a figure. */
export function parseMarkers(page: string): { markers: Marker[]; problems: MarkerProblem[] } {
  const markers: Marker[] = [];
  const problems: MarkerProblem[] = [];
  let from: string | undefined;
  // Markers shown as code (a fenced block or a `code span`, as where the syntax is explained) are text, not figures.
  const prose = maskCode(page);
  for (const m of prose.matchAll(OPEN)) {
    const line = lineOf(page, m.index);
    const spec = m[2];
    if (m[1]) {
      if (/^[^#|\s]+$/.test(spec)) from = spec;
      else problems.push({ line, figure: spec, message: 'not a file: write <!-- results from: FILE -->' });
      continue;
    }
    const start = m.index + m[0].length;
    const end = prose.indexOf(CLOSE, start);
    const next = prose.slice(start).search(/<!--\s*results?( from)?:/);
    if (end < 0 || (next >= 0 && start + next < end)) {
      problems.push({ line, figure: spec, message: `no ${CLOSE} after this figure's opening comment` });
      continue;
    }
    const text = page.slice(start, end);
    if (text.includes('\n')) {
      problems.push({ line, figure: spec, message: `the figure's text runs over a line break (is ${CLOSE} missing?)` });
      continue;
    }
    const parsed = /^(?:([^#|\s]+)#)?([^#|\s]+)\s*(?:\|\s*(\S+))?$/.exec(spec);
    if (!parsed) {
      problems.push({ line, figure: spec, message: 'not a figure: write <!-- result: FILE#PATH | FORMAT -->' });
      continue;
    }
    const [, named, path, format = 'raw'] = parsed;
    const file = named ?? from;
    if (file === undefined) {
      problems.push({ line, figure: spec, message: 'no file: write FILE#PATH, or <!-- results from: FILE --> above the figure' });
      continue;
    }
    const steps = parsePath(path);
    const formatProblem = typeof steps === 'string' ? steps : checkFormat(format);
    if (formatProblem) {
      problems.push({ line, figure: `${file}#${path}`, message: formatProblem });
      continue;
    }
    markers.push({ line, file, path, format, text, start, end });
  }
  return { markers, problems };
}

/** `page` with its fenced code blocks and code spans blanked (the same length and line breaks). */
export function maskCode(page: string): string {
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  return page.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, blank).replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, blank);
}

/** The 1-based line of offset `at` in `text`. */
function lineOf(text: string, at: number): number {
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** One step of a path: a key, an index, or a selection `[key=value]`. */
type Step = { key: string } | { index: number } | { where: string; equals: string };

/** `rows[deadline=72].scripted` as steps, or a message saying what is wrong with it. */
export function parsePath(path: string): Step[] | string {
  const steps: Step[] = [];
  const re = /(?:^|\.)([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[([A-Za-z_$][\w$-]*)=([^\]]+)\]/y;
  let at = 0;
  while (at < path.length) {
    re.lastIndex = at;
    const m = re.exec(path);
    if (!m || (m[1] !== undefined && at > 0 && path[at] !== '.')) return `"${path}" is not a path (at "${path.slice(at)}")`;
    if (m[1] !== undefined) steps.push({ key: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else steps.push({ where: m[3], equals: m[4] });
    at = re.lastIndex;
  }
  return steps.length ? steps : `"${path}" is not a path`;
}

/** The value at `path` in `data`, or a message naming the first step that is not there. */
export function resolvePath(data: unknown, path: string): { value: unknown } | { error: string } {
  const steps = parsePath(path);
  if (typeof steps === 'string') return { error: steps };
  let here: unknown = data;
  let walked = '';
  for (const step of steps) {
    if ('key' in step) {
      if (here === null || typeof here !== 'object' || Array.isArray(here) || !Object.hasOwn(here, step.key))
        return { error: `no "${step.key}" at ${walked || 'the top'}` };
      here = (here as Record<string, unknown>)[step.key];
      walked += (walked ? '.' : '') + step.key;
    } else if ('index' in step) {
      if (!Array.isArray(here) || step.index >= here.length) return { error: `no element [${step.index}] at ${walked || 'the top'}` };
      here = here[step.index];
      walked += `[${step.index}]`;
    } else {
      if (!Array.isArray(here)) return { error: `${walked || 'the top'} is not a list, so it has no [${step.where}=${step.equals}]` };
      const found = here.filter((item) => item !== null && typeof item === 'object' && String((item as Record<string, unknown>)[step.where]) === step.equals);
      if (found.length !== 1)
        return { error: `${found.length ? 'more than one' : 'no'} element with ${step.where} = ${step.equals} at ${walked || 'the top'}` };
      here = found[0];
      walked += `[${step.where}=${step.equals}]`;
    }
  }
  return { value: here };
}

/** A message when `format` is not one the markers know. */
function checkFormat(format: string): string | undefined {
  if (/^(fixed|percent):\d{1,2}$/.test(format) || format === 'int' || format === 'raw') return undefined;
  return `unknown format "${format}" (fixed:N, percent:N, int or raw)`;
}

/** `value` written as `format` says, or a message when it is not a number the format can write. */
export function formatValue(value: unknown, format: string): { text: string } | { error: string } {
  if (value === null) return { text: '-' };
  if (typeof value === 'object') return { error: `is ${Array.isArray(value) ? 'a list' : 'an object'}, not a figure` };
  if (format === 'raw') return { text: String(value) };
  if (typeof value !== 'number' || !Number.isFinite(value)) return { error: `is ${JSON.stringify(value)}, not a finite number` };
  if (format === 'int') return { text: String(Math.round(value)) };
  const [kind, digits] = format.split(':');
  return kind === 'percent' ? { text: `${(value * 100).toFixed(Number(digits))}%` } : { text: value.toFixed(Number(digits)) };
}

/** Reads `file` as JSON through `read`, once per file. */
function jsonReader(read: ReadText): (file: string) => { data: unknown } | { error: string } {
  const seen = new Map<string, { data: unknown } | { error: string }>();
  return (file) => {
    let got = seen.get(file);
    if (!got) {
      const text = read(file);
      if (text === undefined) got = { error: 'no such file' };
      else {
        try {
          got = { data: JSON.parse(text) as unknown };
        } catch (err) {
          got = { error: `not JSON (${(err as Error).message})` };
        }
      }
      seen.set(file, got);
    }
    return got;
  };
}

/** What each figure of `page` should read, from its file: the text, or a problem. */
function expected(page: string, read: ReadText): { markers: { marker: Marker; text?: string }[]; problems: MarkerProblem[] } {
  const { markers, problems } = parseMarkers(page);
  const json = jsonReader(read);
  const out: { marker: Marker; text?: string }[] = [];
  for (const marker of markers) {
    const figure = `${marker.file}#${marker.path}`;
    const file = json(marker.file);
    if ('error' in file) {
      problems.push({ line: marker.line, figure, message: `${marker.file}: ${file.error}` });
      out.push({ marker });
      continue;
    }
    const found = resolvePath(file.data, marker.path);
    const formatted = 'error' in found ? found : formatValue(found.value, marker.format);
    if ('error' in formatted) {
      problems.push({ line: marker.line, figure, message: `${marker.path} in ${marker.file}: ${formatted.error}` });
      out.push({ marker });
      continue;
    }
    out.push({ marker, text: formatted.text });
  }
  return { markers: out, problems };
}

/**
 * Every figure of `page` against its file: one problem per figure whose text is not its file's
 * value in its format (naming both), and per figure that cannot be read (a missing file, path or
 * closing comment, a format it does not know). `count`: the figures found.
 */
export function checkMarkers(page: string, read: ReadText): { count: number; problems: MarkerProblem[] } {
  const { markers, problems } = expected(page, read);
  for (const { marker, text } of markers) {
    if (text !== undefined && text !== marker.text)
      problems.push({
        line: marker.line,
        figure: `${marker.file}#${marker.path}`,
        message: `the doc says ${marker.text}, ${marker.file} gives ${text}`,
      });
  }
  return { count: markers.length, problems: problems.sort((a, b) => a.line - b.line) };
}

/**
 * `page` with every figure's text rewritten from its file (`changed`: how many differed). A figure
 * that cannot be read is left as it is and reported.
 */
export function writeMarkers(page: string, read: ReadText): { page: string; changed: number; problems: MarkerProblem[] } {
  const { markers, problems } = expected(page, read);
  let out = '';
  let at = 0;
  let changed = 0;
  for (const { marker, text } of markers) {
    if (text === undefined || text === marker.text) continue;
    out += page.slice(at, marker.start) + text;
    at = marker.end;
    changed++;
  }
  return { page: out + page.slice(at), changed, problems: problems.sort((a, b) => a.line - b.line) };
}
