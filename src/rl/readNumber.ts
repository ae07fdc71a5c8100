/**
 * The one reader of numbers typed by people: CLI flags, URL values, lists such as `--seeds 1,2,3`.
 * Plain decimal only: no hex (`0x10`), no binary or octal, no `Infinity`, no empty text; an exponent
 * (`1e-3`) only where a real number is meant, never for an integer (`1e1` agents is refused).
 */

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** What a number must be: an integer or any real, within [min, max]. */
export interface NumberRule {
  kind: 'int' | 'float';
  min: number;
  max: number;
}

/** A read number, or the reason it was refused (to follow the value, e.g. `"0x8" is not ...`). */
export type NumberRead = { ok: true; value: number } | { ok: false; reason: 'syntax' | 'range'; message: string };

/** "an integer from 1 to 16", "a number from 0 to 1". */
export function describeRule(r: NumberRule): string {
  return `${r.kind === 'int' ? 'an integer' : 'a number'} from ${r.min} to ${r.max}`;
}

/** Reads `text` (surrounding white space ignored) as a number obeying `rule`. */
export function readNumber(text: string, rule: NumberRule): NumberRead {
  const t = text.trim();
  const shown = JSON.stringify(t.length > 24 ? `${t.slice(0, 24)}…` : t);
  const syntax = (rule.kind === 'int' ? INTEGER : DECIMAL).test(t);
  const n = syntax ? Number(t) : NaN;
  if (!Number.isFinite(n) || (rule.kind === 'int' && !Number.isSafeInteger(n)))
    return { ok: false, reason: 'syntax', message: `${shown} is not ${describeRule(rule)}` };
  if (n < rule.min || n > rule.max) return { ok: false, reason: 'range', message: `${t} is out of range: ${describeRule(rule)}` };
  return { ok: true, value: Object.is(n, -0) ? 0 : n };
}

/**
 * Reads a comma-separated list of numbers (`1,2,3`), each obeying `rule`. An empty list or an empty
 * item (`1,,2`, a trailing comma) is refused, so nothing is silently read as 0.
 */
export function readNumberList(text: string, rule: NumberRule, maxItems = 1000): { ok: true; values: number[] } | { ok: false; message: string } {
  const items = text.split(',');
  if (items.length > maxItems) return { ok: false, message: `${items.length} items, at most ${maxItems}` };
  const values: number[] = [];
  for (const [i, item] of items.entries()) {
    if (!item.trim())
      return { ok: false, message: `item ${i + 1} of ${JSON.stringify(text)} is empty: give a comma-separated list, each ${describeRule(rule)}` };
    const r = readNumber(item, rule);
    if (!r.ok) return { ok: false, message: r.message };
    values.push(r.value);
  }
  return { ok: true, values };
}
