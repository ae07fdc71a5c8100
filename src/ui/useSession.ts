import { useEffect } from 'react';
import { openPageSession } from '../app/pageSession';
import { useApp } from '../store/store';

/** Opens the page's training session on the page's store while the app is mounted (the session itself knows nothing of React). */
export function useSession(): void {
  useEffect(() => openPageSession(useApp), []);
}
