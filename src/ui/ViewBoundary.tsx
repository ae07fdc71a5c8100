import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** The view's name, shown in the message ("The swimlanes could not be drawn"). */
  name: string;
  /** When this value changes (a new run, a new replay) a failed view tries again on its own. */
  resetKey?: unknown;
  children: ReactNode;
}

interface State {
  error: Error | null;
  resetKey: unknown;
}

/**
 * An error boundary around one view: a value that makes the view throw replaces that view with a
 * short message (rendered as text) and a "Try again" button, and the rest of the page keeps working.
 */
export class ViewBoundary extends Component<Props, State> {
  state: State = { error: null, resetKey: this.props.resetKey };

  /** Records the error so the next render shows the message instead of the view. */
  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  /** A changed `resetKey` clears a recorded error, so new data gets a fresh try. */
  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (Object.is(props.resetKey, state.resetKey)) return null;
    return { resetKey: props.resetKey, error: null };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`${this.props.name} failed:`, error, info.componentStack);
  }

  render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="panel view-error" role="alert" data-testid="view-error">
        <p>
          <strong>{this.props.name}</strong> could not be drawn from this data: {error.message.slice(0, 300)}
        </p>
        <p>The rest of the page still works; the run itself is unchanged.</p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </section>
    );
  }
}
