/**
 * Pretty JSON for golden files (a test's expected output checked in beside it): numbers rounded to
 * `digits` decimals, so a layout reads as pixels and last-bit noise does not matter; an array or
 * object of plain values (no objects or arrays inside) on one line when it fits in LINE characters,
 * so a point reads `{"x": 1, "y": 2}` and a list of numbers as a list; otherwise one item a line.
 * NaN and infinities become null, as in JSON.stringify.
 */
export function goldenJson(value: unknown, digits = 2): string {
  const k = 10 ** digits;
  const plain: unknown = JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v * k) / k + 0 : v)) ?? 'null',
  );
  return pretty(plain, '') + '\n';
}

/** Longest line an array or object of plain values is written on. */
const LINE = 100;

function pretty(v: unknown, indent: string): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const inner = indent + '  ';
  const items = Array.isArray(v)
    ? v.map((x: unknown) => ['', x] as const)
    : Object.entries(v).map(([key, x]) => [`${JSON.stringify(key)}: `, x as unknown] as const);
  const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return open + close;
  if (items.every(([, x]) => x === null || typeof x !== 'object')) {
    const line = `${open}${items.map(([key, x]) => key + JSON.stringify(x)).join(', ')}${close}`;
    if (indent.length + line.length <= LINE) return line;
  }
  return `${open}\n${items.map(([key, x]) => inner + key + pretty(x, inner)).join(',\n')}\n${indent}${close}`;
}
