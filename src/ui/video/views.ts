import type { VideoView } from './rasterize';

/**
 * The episode views of the page as a video can show them, with their dashboard cells (fractions of
 * the frame under the header): training curve, swimlanes and module bars on the left, the deadline
 * countdown, DM graph and message board on the right, as on the page.
 */
export const EPISODE_VIEWS: readonly VideoView[] = [
  {
    id: 'curves',
    label: 'Training curve',
    selector: '[data-testid="curves"]',
    parts: [
      { kind: 'svg', selector: ':scope > svg' },
      { kind: 'text', selector: '[data-testid="readout"]' },
    ],
    cell: { x: 0, y: 0, w: 0.58, h: 0.4 },
  },
  {
    id: 'countdown',
    label: 'Deadline',
    selector: '[data-testid="countdown"]',
    parts: [
      { kind: 'text', selector: '[data-testid="countdown-summary"]' },
      { kind: 'svg', selector: ':scope > svg' },
      { kind: 'text', selector: '[data-testid="countdown-schedule"]' },
    ],
    cell: { x: 0.58, y: 0, w: 0.42, h: 0.26 },
  },
  {
    id: 'swimlanes',
    label: 'What each agent did',
    selector: '[data-testid="swimlanes"]',
    parts: [
      { kind: 'svg', selector: ':scope > svg' },
      { kind: 'text', selector: ':scope > .legend' },
    ],
    cell: { x: 0, y: 0.4, w: 0.58, h: 0.32 },
  },
  {
    id: 'modules',
    label: 'Modules and tests',
    selector: '[data-testid="module-bars"]',
    parts: [{ kind: 'svg', selector: ':scope > svg' }],
    cell: { x: 0, y: 0.72, w: 0.58, h: 0.28 },
  },
  {
    id: 'dm',
    label: 'Direct messages',
    selector: '[data-testid="dm-graph"]',
    parts: [
      { kind: 'svg', selector: ':scope > svg' },
      { kind: 'text', selector: ':scope > .legend' },
    ],
    cell: { x: 0.58, y: 0.26, w: 0.42, h: 0.42 },
  },
  {
    id: 'board',
    label: 'Message board',
    selector: '[data-testid="message-board"]',
    parts: [{ kind: 'feed', selector: '.board-list > li' }],
    cell: { x: 0.58, y: 0.68, w: 0.42, h: 0.32 },
  },
];
