import { useCallback, useLayoutEffect, useRef, type RefObject } from 'react';
import './travellingDots.css';

/** A dot travelling from (x1, y1) to (x2, y2), in the user units of the SVG it is drawn over. */
export interface TravellingDot {
  key: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Extra class names (e.g. `useful`, `faded`). */
  className: string;
}

/** One trip along a segment, then it starts again. */
const TRIP_MS = 1600;
/** Successive dots start this far apart in their trips, so they do not move in step. */
const STAGGER_MS = 370;

/**
 * Dots moving along segments over an SVG (`over`, a block-level sibling just before it), drawn
 * as HTML elements whose `transform` is animated with the Web Animations API. Such animations run
 * on the compositor: the page's main thread neither styles nor paints anything per frame, where
 * SVG `<animateMotion>` made it repaint the whole document every frame (a third of the main
 * thread while training, measured with a Chromium trace). New dots or a resize restart the
 * animations, in phase with the document's clock; the SVG's size comes from a ResizeObserver, so
 * nothing here forces a layout.
 */
export function TravellingDots({ dots, over, width, height }: { dots: readonly TravellingDot[]; over: RefObject<SVGSVGElement | null>; width: number; height: number }) {
  const layer = useRef<HTMLDivElement>(null);
  /** The SVG's size as the last resize observation gave it (reading it from the element would force a layout). */
  const size = useRef<{ w: number; h: number } | null>(null);
  const animations = useRef<Animation[]>([]);
  const segment = (d: TravellingDot) => `${d.x1.toFixed(1)} ${d.y1.toFixed(1)} ${d.x2.toFixed(1)} ${d.y2.toFixed(1)}`;
  // Stands for what the animations depend on: an unchanged set of dots keeps its animations.
  const signature = dots.map((d) => `${d.key}:${segment(d)}`).join(',');

  /** (Re)starts one animation per dot from the segments on the dots' elements, at the last known size. */
  const place = useCallback(() => {
    const box = layer.current;
    for (const a of animations.current) a.cancel();
    animations.current = [];
    if (!box || !size.current) return;
    const sx = size.current.w / width;
    const sy = size.current.h / height;
    // The layer sits just below the SVG, at its left edge: the dots go up by its height.
    const top = -size.current.h;
    const now = Number(document.timeline.currentTime ?? 0);
    animations.current = [...box.children].map((el, i) => {
      const [x1, y1, x2, y2] = (el.getAttribute('data-segment') ?? '0 0 0 0').split(' ').map(Number);
      const a = el.animate([{ transform: `translate(${x1 * sx}px, ${top + y1 * sy}px)` }, { transform: `translate(${x2 * sx}px, ${top + y2 * sy}px)` }], { duration: TRIP_MS, iterations: Infinity });
      a.currentTime = (now + i * STAGGER_MS) % TRIP_MS;
      return a;
    });
  }, [width, height]);

  useLayoutEffect(() => {
    const svg = over.current;
    if (!svg) return;
    const observer = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].contentRect;
      size.current = { w: box.width, h: box.height };
      place();
    });
    observer.observe(svg);
    return () => {
      observer.disconnect();
      for (const a of animations.current) a.cancel();
      animations.current = [];
    };
  }, [over, place]);

  useLayoutEffect(() => place(), [signature, place]);

  return (
    <div className="travel-layer" ref={layer} aria-hidden="true">
      {dots.map((d) => (
        <span key={d.key} className={`travel-dot ${d.className}`} data-segment={segment(d)} />
      ))}
    </div>
  );
}
