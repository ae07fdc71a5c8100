import { selectBackend, useApp } from '../store/store';
import { backendDetails, summarizeBackend } from './backendSummary';
import './BackendBadge.css';

/**
 * Which backend trains, in plain language ("Fast: WebAssembly, 2 threads"); a click or Enter opens
 * the technical reason (timings, threads, what failed) beneath it.
 */
export function BackendBadge() {
  const b = useApp(selectBackend);
  if (!b) {
    return (
      <p className="badge" data-testid="backend-badge">
        Choosing how to compute…
      </p>
    );
  }
  const summary = summarizeBackend(b);
  return (
    <details className={`badge backend-badge speed-${summary.speed}`}>
      <summary data-testid="backend-badge" title="Why this backend">
        {summary.label}
      </summary>
      <ul className="backend-details" data-testid="backend-details">
        {backendDetails(b).map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
    </details>
  );
}
