import { useMemo } from 'react';
import type { Config } from '../rl/config';
import { checkSettings, settingLabel } from '../rl/settingsCheck';
import { useApp } from '../store/store';

const selectConfig = (s: { config: Config }) => s.config;

/**
 * What the current settings will not do, said before training: settings that cannot run (too much
 * memory: training refuses to start) and settings that train nothing (a shrinking deadline, an
 * entropy bonus of 0). Updated as the settings change; nothing shows when all is well.
 */
export function SettingsWarnings() {
  const config = useApp(selectConfig);
  const { errors, warnings } = useMemo(() => checkSettings(config, settingLabel), [config]);
  if (!errors.length && !warnings.length) return null;
  return (
    <div className="notices" role="status" data-testid="settings-warnings">
      <p>{errors.length ? 'These settings cannot train:' : 'These settings may not train as you expect:'}</p>
      <ul>
        {[...errors, ...warnings].map((m) => (
          <li key={m} className={errors.includes(m) ? 'error' : undefined}>
            {m}
          </li>
        ))}
      </ul>
    </div>
  );
}
