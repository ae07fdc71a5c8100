import { useEffect } from 'react';
import { openPageSession } from '../app/pageSession';

/** Opens the page's training session while the app is mounted (the session itself knows nothing of React). */
export function useSession(): void {
  useEffect(() => openPageSession(), []);
}
