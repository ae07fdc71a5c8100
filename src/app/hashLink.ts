import type { AppStore } from '../store/store';
import { configFromHash, hashFromConfig } from '../store/urlConfig';

/**
 * Follows a change of the page's hash: a link within the page (a lesson step's) changes only the
 * view, without reloading; a link with other settings or another backend is opened as it would be
 * in a fresh tab (`reload`: its settings, and notices on what it could not use) instead of being
 * overwritten by the settings on screen.
 */
export function followHashLink(store: AppStore, hash: string, reload: () => void): void {
  const s = store.getState();
  const link = configFromHash(hash);
  if (hashFromConfig(link.config, link.backend, s.view) !== hashFromConfig(s.config, s.backendChoice, s.view)) reload();
  else s.setView(link.view);
}
