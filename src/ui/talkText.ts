import type { TalkRecord } from '../core/runFormat';

/** A share of tests as the panel writes it: two decimals, "0.77". */
const share = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');

/**
 * The gain as the panel writes it: the difference of the two returns as printed (two decimals), so
 * the sentence adds up ("+0.04 (0.12 talking vs 0.08 muted)"); 0 when both print the same.
 */
export function printedGain(r: Pick<TalkRecord, 'ret' | 'muted'>): number {
  const hundredths = Math.round(Number(share(r.ret)) * 100) - Math.round(Number(share(r.muted)) * 100);
  return hundredths / 100 || 0;
}

/** When a measurement was taken, in words: "before training" or "update 150". */
export function talkWhen(r: Pick<TalkRecord, 'updates'>): string {
  return r.updates === 0 ? 'before training' : `update ${r.updates}`;
}

/**
 * What talk is worth, in one plain sentence: a gain ("Talk is worth +0.12 of the tests (0.77
 * talking vs 0.65 muted, update 150)"), an overhead ("Muting it would gain 0.03: its talk is
 * overhead (...)"), no difference at two decimals, or no messages at all.
 */
export function talkSentence(r: TalkRecord): string {
  const when = talkWhen(r);
  if (!Number.isFinite(r.ret) || !Number.isFinite(r.muted)) return `What talk is worth could not be measured (${when}).`;
  const gain = printedGain(r);
  const both = `${share(r.ret)} talking vs ${share(r.muted)} muted, ${when}`;
  if (r.messages === 0 && gain === 0) return `The swarm sends no messages, so muting it changes nothing (${share(r.ret)} of the tests, ${when}).`;
  if (gain > 0) return `Talk is worth +${gain.toFixed(2)} of the tests (${both}).`;
  if (gain < 0) return `Muting it would gain ${(-gain).toFixed(2)}: its talk is overhead (${both}).`;
  return `Its talk makes no difference to the tests (${both}).`;
}

/** How many deliveries were needed, in words: "On these fresh tasks 62% of deliveries brought an interface the receiver needed". */
export function neededSentence(r: Pick<TalkRecord, 'neededShare' | 'messages'>): string {
  if (r.messages === 0 && !(r.neededShare > 0)) return 'No messages were sent, so no interface was handed over.';
  if (!Number.isFinite(r.neededShare)) return 'The share of useful deliveries could not be measured.';
  return `On these fresh tasks ${Math.round(r.neededShare * 100)}% of deliveries brought an interface the receiver needed.`;
}

/** The sign of the gain as the panel colours it: talk pays, costs, or makes no difference (at two decimals). */
export function talkTone(r: Pick<TalkRecord, 'ret' | 'muted'>): 'gain' | 'overhead' | 'even' {
  const gain = printedGain(r);
  return gain > 0 ? 'gain' : gain < 0 ? 'overhead' : 'even';
}
