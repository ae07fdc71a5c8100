import { SCHEMA, type Config } from '../rl/config';
import { selectActions, selectConfig, useApp } from '../store/store';
import { Explain } from './Explain';
import { SelectField } from './Fields';
import { SchemaField } from './SettingsPanel';

type Structure = Config['structure'];

/** What each structure is, in words a student follows, and what to watch. */
export const STRUCTURE_TEXT: Record<Structure, string> = {
  flat: 'Flat: every agent may message every other and the board is open to all. The swarm has to find its own division of labour.',
  ceo: 'CEO: agent 0 starts alone and hires (activates) or fires agents by messaging them. Every active agent spends one agent-minute of the compute budget per minute, so a bigger team finishes sooner but spends the budget faster. Watch the head count under the swimlanes.',
  islands:
    "Islands: the swarm splits into groups; each island works its own variant of the task and talks only inside itself. The best island's share of passing tests is the return, like best-of-N with teams. The DM graph draws each island as a cluster.",
  orchestrator:
    "Orchestrator: agent 0 is the only one that learns. The workers run a frozen policy (the scripted worker, or a snapshot of the policy) and do what they are assigned: the orchestrator claims a module and hands it to a worker. Latency counts in critical steps: per stage, the orchestrator's minutes plus the slowest worker's.",
};

/** The settings each structure adds. */
const STRUCTURE_FIELDS: Record<Structure, (keyof Config)[]> = {
  flat: [],
  ceo: ['budget'],
  islands: ['islands'],
  orchestrator: ['workerPolicy', 'snapshotAt', 'shaping', 'shapingAnneal'],
};

const STRUCTURES = (SCHEMA.structure as { values: readonly Structure[] }).values;

/** Chooses the organisation structure (a fresh run), explains it, and shows its own settings. */
export function StructurePicker() {
  const controls = useApp(selectActions);
  const c = useApp(selectConfig);
  return (
    <div className="structure-picker" data-testid="structure-picker">
      <div className="structure-row">
        <SelectField
          label="structure"
          testId="structure"
          value={c.structure}
          options={STRUCTURES}
          onChange={(structure) => controls.configure({ structure })}
        />
        <Explain>{STRUCTURE_TEXT[c.structure]}</Explain>
        {STRUCTURE_FIELDS[c.structure].map((k) => (
          <SchemaField key={k} name={k} value={c[k]} onChange={controls.configure} />
        ))}
      </div>
      <p className="structure-help" data-testid="structure-help">
        {STRUCTURE_TEXT[c.structure]}
      </p>
    </div>
  );
}
