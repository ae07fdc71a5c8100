import { describe, expect, it } from 'vitest';
import { checkMarkers, formatValue, parseMarkers, resolvePath, writeMarkers } from './resultMarkers';

const FILES: Record<string, string> = {
  'results/headline/calibrate.json': JSON.stringify({
    family: 'long-planned',
    rows: [
      { deadline: 40, scripted: 0.50512, boundTo90: 40 },
      { deadline: 72, scripted: 0.95412, boundTo90: null },
    ],
    share: 0.8625,
  }),
  'results/headline/broken.json': '{ "rows": [',
};
const read = (file: string) => FILES[file];
const fig = (spec: string, text: string) => `<!-- result: ${spec} -->${text}<!-- /result -->`;

const GOOD = [
  '# Results',
  '',
  `The scripted organisation reaches ${fig('results/headline/calibrate.json#rows[deadline=72].scripted | fixed:3', '0.954')} at 72 minutes`,
  `and ${fig('results/headline/calibrate.json#rows[0].scripted | fixed:2', '0.51')} at 40; the work is ${fig('results/headline/calibrate.json#share | percent:0', '86%')}.`,
  '',
  `| family | bound |`,
  `|---|---|`,
  `| ${fig('results/headline/calibrate.json#family', 'long-planned')} | ${fig('results/headline/calibrate.json#rows[1].boundTo90 | fixed:1', '-')} |`,
].join('\n');

describe('the figures of a page', () => {
  it('finds each with its line, file, path, format and text', () => {
    const { markers, problems } = parseMarkers(GOOD);
    expect(problems).toEqual([]);
    expect(markers.map(({ line, file, path, format, text }) => ({ line, file, path, format, text }))).toEqual([
      { line: 3, file: 'results/headline/calibrate.json', path: 'rows[deadline=72].scripted', format: 'fixed:3', text: '0.954' },
      { line: 4, file: 'results/headline/calibrate.json', path: 'rows[0].scripted', format: 'fixed:2', text: '0.51' },
      { line: 4, file: 'results/headline/calibrate.json', path: 'share', format: 'percent:0', text: '86%' },
      { line: 8, file: 'results/headline/calibrate.json', path: 'family', format: 'raw', text: 'long-planned' },
      { line: 8, file: 'results/headline/calibrate.json', path: 'rows[1].boundTo90', format: 'fixed:1', text: '-' },
    ]);
  });

  it('pass the check when the page says what the files say', () => {
    expect(checkMarkers(GOOD, read)).toEqual({ count: 5, problems: [] });
  });

  it('fail the check where the page was edited by hand, naming the figure, the file and both values', () => {
    const edited = GOOD.replace('>0.954<', '>0.955<');
    expect(checkMarkers(edited, read).problems).toEqual([
      {
        line: 3,
        figure: 'results/headline/calibrate.json#rows[deadline=72].scripted',
        message: 'the doc says 0.955, results/headline/calibrate.json gives 0.954',
      },
    ]);
  });

  it('are rewritten from their files by writeMarkers, and the rest of the page is left as it was', () => {
    const edited = GOOD.replace('>0.954<', '>0.955<').replace('>86%<', '>85 %<');
    const { page, changed, problems } = writeMarkers(edited, read);
    expect(problems).toEqual([]);
    expect(changed).toBe(2);
    expect(page).toBe(GOOD);
    expect(writeMarkers(GOOD, read)).toEqual({ page: GOOD, changed: 0, problems: [] });
  });

  it('say clearly when a file, a path or an element is missing, or a file is not JSON', () => {
    const page = [
      fig('results/headline/gone.json#rows[0].scripted | fixed:3', '0.954'),
      fig('results/headline/calibrate.json#rows[0].scriptd | fixed:3', '0.505'),
      fig('results/headline/calibrate.json#rows[5].scripted | fixed:3', '0.505'),
      fig('results/headline/calibrate.json#rows[deadline=80].scripted | fixed:3', '0.991'),
      fig('results/headline/broken.json#rows[0] | fixed:3', '1'),
      fig('results/headline/calibrate.json#rows | fixed:3', '1'),
    ].join('\n');
    const { count, problems } = checkMarkers(page, read);
    expect(count).toBe(6);
    expect(problems.map((p) => `${p.line}: ${p.message}`)).toEqual([
      '1: results/headline/gone.json: no such file',
      '2: rows[0].scriptd in results/headline/calibrate.json: no "scriptd" at rows[0]',
      '3: rows[5].scripted in results/headline/calibrate.json: no element [5] at rows',
      '4: rows[deadline=80].scripted in results/headline/calibrate.json: no element with deadline = 80 at rows',
      expect.stringMatching(/^5: results\/headline\/broken.json: not JSON/),
      '6: rows in results/headline/calibrate.json: is a list, not a figure',
    ]);
  });

  it('refuse a figure without its closing comment, an unknown format or a malformed path', () => {
    const page = [
      `<!-- result: results/headline/calibrate.json#share | fixed:2 -->0.86 and on`,
      fig('results/headline/calibrate.json#share | fixed:2', '0.86'),
      fig('results/headline/calibrate.json#share | round:2', '0.86'),
      fig('results/headline/calibrate.json#rows[0]..scripted | fixed:2', '0.51'),
      fig('results/headline/calibrate.json', '0.86'),
      fig('results/headline/calibrate.json#share | fixed:2', '0.86\nand'),
    ].join('\n');
    const { problems } = checkMarkers(page, read);
    expect(problems.map((p) => `${p.line}: ${p.message}`)).toEqual([
      "1: no <!-- /result --> after this figure's opening comment",
      '3: unknown format "round:2" (fixed:N, percent:N, int or raw)',
      '4: "rows[0]..scripted" is not a path (at "..scripted")',
      '5: no file: write FILE#PATH, or <!-- results from: FILE --> above the figure',
      "6: the figure's text runs over a line break (is <!-- /result --> missing?)",
    ]);
  });
});

describe('a file named once for the figures after it', () => {
  it('gives them their file, up to the next one, and a figure may still name its own', () => {
    const page = [
      '<!-- results from: results/headline/calibrate.json -->',
      `| ${fig('rows[deadline=72].scripted | fixed:3', '0.954')} | ${fig('share | percent:0', '86%')} |`,
      '<!-- results from: results/headline/other.json -->',
      fig('results/headline/calibrate.json#family', 'long-planned'),
      fig('rows[0].scripted | fixed:3', '0.505'),
    ].join('\n');
    const { markers } = parseMarkers(page);
    expect(markers.map((m) => `${m.line} ${m.file}#${m.path}`)).toEqual([
      '2 results/headline/calibrate.json#rows[deadline=72].scripted',
      '2 results/headline/calibrate.json#share',
      '4 results/headline/calibrate.json#family',
      '5 results/headline/other.json#rows[0].scripted',
    ]);
    expect(checkMarkers(page, read).problems.map((p) => `${p.line}: ${p.message}`)).toEqual(['5: results/headline/other.json: no such file']);
  });

  it('is refused when it names no single file', () => {
    expect(parseMarkers('<!-- results from: a.json#rows -->').problems.map((p) => p.message)).toEqual(['not a file: write <!-- results from: FILE -->']);
  });
});

describe('a path and a format', () => {
  it('walk keys, indices and selections', () => {
    const data = {
      a: {
        'b-c': [
          { k: 'x', v: 1 },
          { k: 'y', v: [2, 3] },
        ],
      },
    };
    expect(resolvePath(data, 'a.b-c[k=y].v[1]')).toEqual({ value: 3 });
    expect(resolvePath(data, 'a.b-c[0].v')).toEqual({ value: 1 });
    expect(resolvePath(data, 'a.z')).toEqual({ error: 'no "z" at a' });
  });

  it('write numbers as asked', () => {
    expect(formatValue(0.95412, 'fixed:3')).toEqual({ text: '0.954' });
    expect(formatValue(0.8625, 'percent:1')).toEqual({ text: '86.3%' });
    expect(formatValue(62.5, 'int')).toEqual({ text: '63' });
    expect(formatValue(12, 'raw')).toEqual({ text: '12' });
    expect(formatValue(null, 'fixed:1')).toEqual({ text: '-' });
    expect(formatValue('x', 'fixed:1')).toEqual({ error: 'is "x", not a finite number' });
  });
});

describe('markers shown as code', () => {
  it('are text, not figures: in a code span or a fenced block', () => {
    const page = [
      'Write `<!-- result: FILE#PATH | fixed:3 -->0.954<!-- /result -->` around a figure, e.g.',
      '',
      '```md',
      '<!-- result: results/headline/gone.json#x | fixed:3 -->1<!-- /result -->',
      '```',
      '',
      `and ${fig('results/headline/calibrate.json#share | fixed:2', '0.86')}.`,
    ].join('\n');
    expect(checkMarkers(page, read)).toEqual({ count: 1, problems: [] });
    expect(parseMarkers(page).markers[0].line).toBe(7);
  });
});
