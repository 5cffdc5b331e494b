/**
 * The engine's behaviour version, recorded in every trace's run_start. A deliberate change of what
 * a run does (learner behaviour, world rules, event order, RNG use) bumps it, is listed in the
 * commit and docs/trace-format.md, and re-pins the reference traces (`npm run pins -- --write`).
 * A refactor keeps it and keeps every pinned trace byte for byte.
 */
export const ENGINE_VERSION = 'educlaw-lab-engine-5';
