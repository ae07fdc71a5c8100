import { describe, expect, it, vi } from 'vitest';
import { defaultConfig, STRUCTURAL_KEYS, type Config } from '../rl/config';
import { channelFields, channelPolicyText } from './ChannelSettings';
import { CHANNEL_KEYS, SHOWN_ELSEWHERE } from './SettingsPanel';

describe('the channels settings', () => {
  it('shows the policy and the unofficial board, and the catch rate and cost only under a monitor', () => {
    expect(channelFields({ sideBoard: 'off' })).toEqual(['channels', 'sideBoard']);
    expect(channelFields({ sideBoard: 'open' })).toEqual(['channels', 'sideBoard']);
    expect(channelFields({ sideBoard: 'monitored' })).toEqual(['channels', 'sideBoard', 'catchRate', 'catchCost']);
  });

  it('says which policy a run plays under, its structure deciding under preset', () => {
    expect(channelPolicyText({ channels: 'preset', structure: 'ceo' })).toBe(
      "hub: DMs only to or from agent 0; everyone posts and reads (the ceo structure's own)",
    );
    expect(channelPolicyText({ channels: 'preset', structure: 'flat' })).toBe("open: everyone may DM everyone, post and read (the flat structure's own)");
    expect(channelPolicyText({ channels: 'board', structure: 'ceo' })).toBe('board: no DMs; everyone posts and reads');
  });

  it('are structural, and shown here instead of in the list of all settings', () => {
    for (const k of CHANNEL_KEYS) {
      expect(STRUCTURAL_KEYS).toContain(k);
      expect(SHOWN_ELSEWHERE).toContain(k);
    }
  });

  it('render with the schema help, and the monitor settings when monitored', async () => {
    const render = async (config: Config) => {
      vi.resetModules();
      const state = { config, actions: { configure: () => Promise.resolve() } };
      vi.doMock('../store/store', () => ({
        useApp: (sel: (s: typeof state) => unknown) => sel(state),
        selectConfig: (s: typeof state) => s.config,
        selectActions: (s: typeof state) => s.actions,
      }));
      const { createElement } = await import('react');
      const { renderToStaticMarkup } = await import('react-dom/server');
      const { ChannelSettings } = await import('./ChannelSettings');
      const html = renderToStaticMarkup(createElement(ChannelSettings));
      vi.doUnmock('../store/store');
      return html;
    };
    const off = await render(defaultConfig());
    expect(off).toContain('data-testid="setting-channels"');
    expect(off).toContain('data-testid="setting-sideBoard"');
    expect(off).not.toContain('data-testid="setting-catchRate"');
    expect(off).toContain('an unofficial board no policy lists');
    expect(off).toContain('(changing it starts a fresh run)');
    const monitored = await render({ ...defaultConfig(), sideBoard: 'monitored', structure: 'orchestrator' });
    expect(monitored).toContain('data-testid="setting-catchRate"');
    expect(monitored).toContain('data-testid="setting-catchCost"');
    expect(monitored).toContain('Plays under hub: DMs only to or from agent 0; everyone posts and reads (the orchestrator structure&#x27;s own).');
  });
});
