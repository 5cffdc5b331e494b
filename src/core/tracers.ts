/**
 * The knowledge tracers, declared once: name, label (as the page's learner-model pickers show it),
 * description (as the scenario schema and the docs say it) and what each needs beyond the core.
 * Everything that names tracers reads this list: the scenario schema (`learner.tracer`, its
 * default and its description), the CLI's `--tracer` choices, the Node and browser adapters'
 * factory tables (`Record<TracerName, …>`: the compiler names an entry without a factory) and the
 * page's pickers and state. To add a tracer: its implementation in `learner/kt/`, an entry here,
 * a factory in each adapter table (CONTRIBUTING.md, "A tracer").
 *
 * A top-level file of the core that imports only `errors.ts`: the scenario schema, which the
 * tutors and the tutor registry (`registry.ts`) sit above, must be able to read it.
 */
import { SimError } from './errors';

/**
 * What a tracer needs beyond the pure core: `model-files`, trained weights the host loads
 * (AKT: `public/models/akt/`, run on ONNX Runtime by an adapter). A tracer that needs nothing
 * runs from the core alone (BKT: its parameters are bundled data).
 */
export type TracerNeed = 'model-files';

export interface TracerDeclaration {
  /** The name a scenario, the CLI and a trace's `run_start.tracer.name` use. */
  readonly name: string;
  /** The page's learner-model pickers. */
  readonly label: string;
  /** One phrase: what it is and its role (the scenario schema's description of `learner.tracer`). */
  readonly description: string;
  readonly needs: readonly TracerNeed[];
}

export const TRACERS = [
  { name: 'akt', label: 'AKT (trained on real students)', description: 'Attentive Knowledge Tracing, the default', needs: ['model-files'] },
  { name: 'bkt', label: 'BKT (ablation)', description: 'Bayesian Knowledge Tracing, an ablation', needs: [] },
] as const satisfies readonly TracerDeclaration[];

export type TracerName = (typeof TRACERS)[number]['name'];

/** The tracer names, in declaration order (the CLI's `--tracer` choices, the scenario schema's check). */
export const TRACER_NAMES: readonly TracerName[] = TRACERS.map((t) => t.name);

/** The tracer a scenario gets when it names none. */
export const DEFAULT_TRACER: TracerName = 'akt';

export function isTracerName(name: string): name is TracerName {
  return (TRACER_NAMES as readonly string[]).includes(name);
}

/** The declaration of a tracer by name; an unknown name is an `UNKNOWN_TRACER` error naming the ones there are. */
export function tracerDeclaration(name: string): (typeof TRACERS)[number] {
  const t = TRACERS.find((x) => x.name === name);
  if (!t) throw new SimError('UNKNOWN_TRACER', `unknown tracer "${name}" (tracers: ${TRACER_NAMES.join(', ')})`);
  return t;
}
