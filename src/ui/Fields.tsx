import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { SliderGesture } from './sliderCommit';

/** A labelled drop-down over a fixed list of string options. */
export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  testId,
  labels,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (v: T) => void;
  testId?: string;
  labels?: Partial<Record<T, string>>;
}) {
  return (
    <label className="select">
      <span>{label}</span>
      <select value={value} data-testid={testId} onChange={(e) => onChange(e.currentTarget.value as T)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? o}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A labelled whole-number input that only reports values inside [min, max]; others are clamped. */
export function IntegerField({
  label,
  value,
  min,
  max,
  onChange,
  testId,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (v: number) => void;
  testId?: string;
}) {
  return (
    <label className="select">
      <span>{label}</span>
      <input
        type="number"
        min={min}
        max={max}
        value={value}
        data-testid={testId}
        onChange={(e) => {
          const v = Math.round(Number(e.currentTarget.value));
          if (e.currentTarget.value !== '' && Number.isFinite(v)) onChange(Math.min(max, Math.max(min, v)));
        }}
      />
    </label>
  );
}

/**
 * A labelled range slider with its value beside the label; `step` defaults to whole numbers. One
 * drag (or one burst of arrow keys) reports one change, at its end (SliderGesture); `onDraft` hears
 * the value while the gesture goes on (null at its end), for a preview.
 */
export function Slider({
  label,
  value,
  min,
  max,
  step = 1,
  onChange,
  onDraft,
  testId,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step?: number;
  onChange: (v: number) => void;
  onDraft?: (v: number | null) => void;
  testId: string;
}) {
  const [draft, setDraft] = useState<number | null>(null);
  const byKey = useRef(false);
  const [gesture] = useState(() => new SliderGesture());
  useLayoutEffect(() => {
    gesture.setHandlers({
      commit: onChange,
      show: (d) => {
        setDraft(d);
        onDraft?.(d);
      },
      committed: () => value,
    });
  });
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const el = input.current;
    if (!el) return;
    // React's onChange is the input event; the browser's change event ends a drag.
    const onChangeEvent = () => {
      gesture.change(byKey.current);
      byKey.current = false;
    };
    el.addEventListener('change', onChangeEvent);
    return () => {
      el.removeEventListener('change', onChangeEvent);
      gesture.dispose();
    };
  }, [gesture]);
  const shown = draft ?? value;
  return (
    <label className="slider">
      <span>
        {label} <output>{shown}</output>
      </span>
      <input
        ref={input}
        type="range"
        min={min}
        max={max}
        step={step}
        value={shown}
        data-testid={testId}
        onPointerDown={() => {
          byKey.current = false;
          gesture.pointerDown();
        }}
        onPointerUp={() => gesture.end()}
        onKeyDown={() => {
          byKey.current = true;
        }}
        onBlur={() => gesture.end()}
        onChange={(e) => {
          gesture.input(Number(e.currentTarget.value), byKey.current);
        }}
      />
    </label>
  );
}
