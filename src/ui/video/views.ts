import { viewEntry, type VideoViewId } from '../../store/view';
import type { VideoView, FramePart } from './rasterize';

/**
 * What a video draws of each episode view, inside its panel, in order; the views, their titles and
 * their dashboard cells come from the table of views (store/view.ts). In the order the export
 * dialog offers them: training curve, countdown, swimlanes, module bars, DM graph, message board.
 */
const PANEL_PARTS: Record<VideoViewId, readonly FramePart[]> = {
  curve: [
    { kind: 'svg', selector: ':scope > svg' },
    { kind: 'text', selector: '[data-testid="readout"]' },
  ],
  countdown: [
    { kind: 'text', selector: '[data-testid="countdown-summary"]' },
    { kind: 'svg', selector: ':scope > svg' },
    { kind: 'text', selector: '[data-testid="countdown-schedule"]' },
  ],
  swimlanes: [
    { kind: 'svg', selector: ':scope > svg' },
    { kind: 'text', selector: ':scope > .legend' },
  ],
  modules: [{ kind: 'svg', selector: ':scope > svg' }],
  dm: [
    { kind: 'svg', selector: ':scope > svg' },
    { kind: 'text', selector: ':scope > .legend' },
  ],
  board: [{ kind: 'feed', selector: '.board-list > li' }],
};

/**
 * The episode views of the page as a video can show them, with their dashboard cells (fractions of
 * the frame under the header): training curve, swimlanes and module bars on the left, the deadline
 * countdown, DM graph and message board on the right, as on the page.
 */
export const EPISODE_VIEWS: readonly VideoView[] = (Object.keys(PANEL_PARTS) as VideoViewId[]).map((id) => {
  const view = viewEntry(id);
  return { id, label: view.label, selector: `[data-testid="${view.testId}"]`, parts: PANEL_PARTS[id], cell: view.video };
});
