import type { Config } from '../rl/config';
import { CHANNEL_TEXT, channelPolicyOf } from '../sim/channels';
import { selectActions, selectConfig, useApp } from '../store/store';
import { Explain } from './Explain';
import { CHANNEL_KEYS, SchemaField } from './SettingsPanel';

/** The settings shown for the channels: the policy and the unofficial board, and the monitor's two where it watches. */
export function channelFields(c: Pick<Config, 'sideBoard'>): (keyof Config)[] {
  return CHANNEL_KEYS.filter((k) => c.sideBoard === 'monitored' || (k !== 'catchRate' && k !== 'catchCost'));
}

/** The policy a config plays under, in words: "hub: DMs only to or from agent 0; ... (the ceo structure's own)". */
export function channelPolicyText(c: Pick<Config, 'channels' | 'structure'>): string {
  const p = channelPolicyOf(c.channels, c.structure);
  return `${p}: ${CHANNEL_TEXT[p]}${c.channels === 'preset' ? ` (the ${c.structure} structure's own)` : ''}`;
}

/**
 * Who may talk where (sim/channels.ts), beside the structure: the channel policy, the unofficial
 * board, and under a monitor its catch rate and cost. Each is a structural setting: changing one
 * starts a fresh run.
 */
export function ChannelSettings() {
  const controls = useApp(selectActions);
  const c = useApp(selectConfig);
  return (
    <fieldset className="channel-settings" data-testid="channel-settings">
      <legend>
        Channels{' '}
        <Explain>
          Who may message whom and post on the board. A message the policy does not allow is an attempt: the sender&apos;s minute is lost and nothing is
          delivered. The unofficial board is a second board no policy lists: an agent posts there by messaging itself, and the post reaches every teammate at
          once. Under a monitor some posts are caught, and each caught post costs the team part of its return at the deadline.
        </Explain>
      </legend>
      <p className="channel-policy" data-testid="channel-policy">
        Plays under {channelPolicyText(c)}.
      </p>
      <div className="channel-grid">
        {channelFields(c).map((k) => (
          <SchemaField key={k} name={k} value={c[k]} onChange={controls.configure} />
        ))}
      </div>
    </fieldset>
  );
}
