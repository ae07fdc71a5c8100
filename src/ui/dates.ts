/**
 * Dates and times as the page shows them, in the reader's locale. The formatters are made once:
 * `Date.prototype.toLocaleString` builds a new one per call, and its first call loads the locale's
 * data, a 30-60 ms task that landed in the middle of training when the first autosave rendered
 * "last saved at …".
 */
const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});
const time = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** A time stamp in milliseconds, or a date text as run files store it (ISO 8601). */
type When = number | string;

const millis = (when: When) => (typeof when === 'number' ? when : Date.parse(when));

/** A date with its time, e.g. "12/1/2026, 3:04:05 PM" (en-US). */
export function formatDateTime(when: When): string {
  const ms = millis(when);
  return Number.isFinite(ms) ? dateTime.format(ms) : 'unknown date';
}

/** The time of day, e.g. "3:04:05 PM" (en-US). */
export function formatTime(when: When): string {
  const ms = millis(when);
  return Number.isFinite(ms) ? time.format(ms) : 'unknown time';
}
