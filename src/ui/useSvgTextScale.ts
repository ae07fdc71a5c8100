import { useEffect, type RefObject } from 'react';

/**
 * Keeps `--u` on every chart (top-level `svg`) inside `root`: viewBox units per CSS pixel as the
 * chart is drawn. A chart with a fixed viewBox is scaled into its box, so its text shrinks with it;
 * presenter mode sizes SVG text as `calc(16.5px * var(--u))` and it then reads at 16.5 CSS px (the
 * back row's least) whatever the scale. On only while `on` (presenter mode): it costs an observer.
 */
export function useSvgTextScale(root: RefObject<HTMLElement | null>, on: boolean): void {
  useEffect(() => {
    const el = root.current;
    if (!on || !el || typeof ResizeObserver === 'undefined') return;
    const scale = (svg: SVGSVGElement) => {
      const vb = svg.viewBox?.baseVal;
      const r = svg.getBoundingClientRect();
      if (!vb || !(vb.width > 0) || !(vb.height > 0) || !(r.width > 0) || !(r.height > 0)) return;
      // preserveAspectRatio "meet" (the default): the smaller of the two scales is the one drawn.
      const s = Math.min(r.width / vb.width, r.height / vb.height);
      const u = (1 / s).toFixed(4);
      if (svg.style.getPropertyValue('--u') !== u) svg.style.setProperty('--u', u);
    };
    const seen = new WeakSet<SVGSVGElement>();
    const resize = new ResizeObserver((entries) => {
      for (const e of entries) if (e.target instanceof SVGSVGElement) scale(e.target);
    });
    const scan = () => {
      for (const svg of el.querySelectorAll<SVGSVGElement>('svg:not(svg svg)')) {
        if (!seen.has(svg)) {
          seen.add(svg);
          resize.observe(svg);
        }
        scale(svg);
      }
    };
    // New charts (a view that had no data yet) and new viewBoxes (a chart redrawn for its new box).
    const mutations = new MutationObserver((records) => {
      if (
        records.some((r) =>
          r.type === 'childList'
            ? [...r.addedNodes].some((n) => n instanceof Element && (n.matches('svg') || n.querySelector('svg')))
            : r.target instanceof SVGSVGElement,
        )
      )
        scan();
    });
    mutations.observe(el, { subtree: true, childList: true, attributes: true, attributeFilter: ['viewBox'] });
    scan();
    return () => {
      mutations.disconnect();
      resize.disconnect();
      for (const svg of el.querySelectorAll<SVGSVGElement>('svg')) svg.style.removeProperty('--u');
    };
  }, [root, on]);
}
