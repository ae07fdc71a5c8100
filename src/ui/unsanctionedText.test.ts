import { describe, expect, it } from 'vitest';
import { policyOf, unsanctionedLine, unsanctionedShown } from './unsanctionedText';

const none = { sidePosts: false, sideShare: false, caught: false, attempts: false };

describe('unsanctioned traffic in the work panel', () => {
  it('shows nothing for an open run without a side board, nor for a run recorded before the channels', () => {
    expect(unsanctionedShown({ channels: 'preset', structure: 'flat', sideBoard: 'off' }, [{ sidePosts: 0, caught: 0, attempts: 0 }])).toEqual(none);
    expect(unsanctionedShown({}, [{}, {}])).toEqual(none);
    expect(unsanctionedLine({ update: 3 }, {}, none)).toBeNull();
  });

  it('shows what the rules can make: a side board its posts and share, a monitor its catches, a policy other than open its attempts', () => {
    expect(unsanctionedShown({ sideBoard: 'open' }, [])).toEqual({ sidePosts: true, sideShare: true, caught: false, attempts: false });
    expect(unsanctionedShown({ sideBoard: 'monitored' }, [])).toEqual({ sidePosts: true, sideShare: true, caught: true, attempts: false });
    // The CEO's own policy is hub; the flat structure's is open.
    expect(unsanctionedShown({ channels: 'preset', structure: 'ceo' }, [])).toEqual({ ...none, attempts: true });
    expect(unsanctionedShown({ channels: 'preset', structure: 'flat' }, [])).toEqual(none);
    expect(unsanctionedShown({ channels: 'board', structure: 'flat' }, [])).toEqual({ ...none, attempts: true });
    expect(policyOf({ channels: 'preset', structure: 'orchestrator' })).toBe('hub');
    expect(policyOf({})).toBe('open');
  });

  it('shows any counter that is not 0, whatever the settings say', () => {
    expect(unsanctionedShown({}, [{ attempts: 0 }, { attempts: 2 }])).toEqual({ ...none, attempts: true });
    expect(unsanctionedShown({}, [{ sidePosts: 1, caught: 1 }])).toEqual({ sidePosts: true, sideShare: true, caught: true, attempts: false });
  });

  it('says one update per episode, in the parts shown', () => {
    const shown = unsanctionedShown({ sideBoard: 'monitored', channels: 'hub' }, []);
    expect(unsanctionedLine({ update: 11, sidePosts: 3.5, sideShare: 0.123, caught: 1, attempts: 2 }, { channels: 'hub' }, shown)).toBe(
      'Update 12, per episode: 3.5 posts on the unofficial board (12% of messages), 1.0 caught; 2.0 messages blocked by the channel policy (hub: DMs only to or from agent 0; everyone posts and reads).',
    );
    expect(unsanctionedLine({ update: 0 }, { sideBoard: 'open' }, unsanctionedShown({ sideBoard: 'open' }, []))).toBe(
      'Update 1, per episode: 0.0 posts on the unofficial board (0% of messages).',
    );
  });
});
