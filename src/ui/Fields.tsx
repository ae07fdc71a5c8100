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

/** A labelled range slider with its value beside the label; `step` defaults to whole numbers. */
export function Slider({
  label,
  value,
  min,
  max,
  step = 1,
  onChange,
  testId,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step?: number;
  onChange: (v: number) => void;
  testId: string;
}) {
  return (
    <label className="slider">
      <span>
        {label} <output>{value}</output>
      </span>
      <input type="range" min={min} max={max} step={step} value={value} data-testid={testId} onChange={(e) => onChange(Number(e.currentTarget.value))} />
    </label>
  );
}
