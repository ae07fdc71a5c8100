/**
 * One gesture on a slider is one change: while a pointer drags it (down to up), or while keys move
 * it in a burst (presses less than `burstMs` apart), the value shown follows, and the change is
 * reported once at the end, from the value before the gesture to the value after it. So a drag of
 * the deadline's end from 80 to 30 is one setting change for the trainer and one marker on the
 * curve ("deadline end 80 → 30"), not one per value the thumb passed.
 */
export interface GestureHandlers {
  /** Reports the gesture's final value (only when it differs from the value it started at). */
  commit: (value: number) => void;
  /** Called with the value to show whenever it changes (the draft, or null for the committed value). */
  show: (draft: number | null) => void;
  /** The value the slider holds now (its prop). */
  committed: () => number;
}

/** The timers a burst waits on (the window's, called as functions: a browser refuses setTimeout called as a method of another object). */
export interface Timers {
  set: (fn: () => void, ms: number) => unknown;
  clear: (timer: unknown) => void;
}

export class SliderGesture {
  private draft: number | null = null;
  private dragging = false;
  private timer: unknown = null;

  constructor(
    private handlers: GestureHandlers = { commit: () => {}, show: () => {}, committed: () => NaN },
    private readonly burstMs = 700,
    private readonly timers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (t) => clearTimeout(t as ReturnType<typeof setTimeout>) },
  ) {}

  /** The slider's current handlers (its props change between renders). */
  setHandlers(handlers: GestureHandlers): void {
    this.handlers = handlers;
  }

  /** A pointer went down on the slider: a drag starts. */
  pointerDown(): void {
    this.dragging = true;
  }

  /** The slider's value moved to `value`; `byKey` when a key moved it (a burst ends after a pause). */
  input(value: number, byKey: boolean): void {
    this.draft = value;
    this.handlers.show(value);
    this.cancelTimer();
    if (byKey && !this.dragging) this.timer = this.timers.set(() => this.end(), this.burstMs);
  }

  /** The browser's `change` event: the end of a drag (pointer up), or a value set at once (not by a key). */
  change(byKey: boolean): void {
    if (byKey && !this.dragging) return;
    this.end();
  }

  /** The pointer was released, or the slider lost the focus: the gesture ends now. */
  end(): void {
    this.dragging = false;
    this.cancelTimer();
    const v = this.draft;
    this.draft = null;
    this.handlers.show(null);
    if (v !== null && v !== this.handlers.committed()) this.handlers.commit(v);
  }

  /** Stops a pending burst without reporting it (the slider went away). */
  dispose(): void {
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
  }
}
