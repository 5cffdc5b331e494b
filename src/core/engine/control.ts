/**
 * The no-tutor control of a run, as a run record: the same record (scenario as run, seed, learner
 * model, ability, horizon, wake rule, voice, coupling) with the `silent` tutor. Its key names it
 * for a cache: the same key is the same control, so it is run once. Definitions: docs/analyses.md
 * ("Value added over no tutor"). The same holds for the oracle run that draws a run's
 * steady-learning reference (docs/analyses.md, "Learning curves").
 */
import { CONTROL_TUTOR } from '../scoring/value-added';
import { effectiveScenario, runRecord, type RunRecord } from './record';
import { ENGINE_VERSION } from './version';

/**
 * A yardstick tutor on exactly the run's student and conditions: the `silent` no-tutor control by
 * default, or the `oracle` (REFERENCE_TUTOR), whose curve is the steady-learning reference.
 */
export function controlRecord(r: RunRecord, tutor: string = CONTROL_TUTOR): RunRecord {
  return runRecord({ ...r, tutor: { name: tutor, config: {} } });
}

/** Keys sorted at every level, so that equal records give equal text. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
  return v;
}

/**
 * The text that identifies a run's control: the engine version and the control record as run
 * (its effective scenario, voice, coupling and chat rule; not where the scenario came from). Hash
 * it for a file name.
 */
export function controlKeyText(r: RunRecord, tutor: string = CONTROL_TUTOR): string {
  const c = controlRecord(r, tutor);
  // The silent control's key predates other yardsticks: it stays as it was, so cached controls stay valid.
  return JSON.stringify(canonical({ engine: ENGINE_VERSION, scenario: effectiveScenario(c), voice: c.voice, coupling: c.coupling ?? null, chatInstruction: c.chatInstruction ?? null, ...(tutor === CONTROL_TUTOR ? {} : { tutor }) }));
}
