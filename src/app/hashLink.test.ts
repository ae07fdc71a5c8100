import { describe, expect, it } from 'vitest';
import { createAppStore } from '../store/store';
import { hashFromConfig } from '../store/urlConfig';
import { followHashLink } from './hashLink';

describe('followHashLink', () => {
  it('takes in a link that changes only the view, and reloads for one with other settings or another backend', () => {
    const store = createAppStore();
    const { config, view } = store.getState();
    let reloads = 0;
    const reload = () => void reloads++;
    followHashLink(store, hashFromConfig(config, 'auto', { ...view, lesson: 3, presenter: true }), reload);
    expect(reloads).toBe(0);
    expect(store.getState().view).toMatchObject({ lesson: 3, presenter: true });
    followHashLink(store, hashFromConfig({ ...config, agents: config.agents === 3 ? 4 : 3 }, 'auto', view), reload);
    followHashLink(store, hashFromConfig(config, 'wasm', view), reload);
    expect(reloads).toBe(2);
    expect(store.getState().config).toEqual(config);
  });
});
