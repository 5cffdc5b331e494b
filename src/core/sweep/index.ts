/**
 * Sweeps: one tutor or several over many scenarios × seeds. The pure part shared by the CLI (worker threads)
 * and the page (web workers): the job list (`plan.ts`), the cost estimate that orders dispatch (`cost.ts`), the per-run summary and the aggregate
 * table (`summary.ts`), and the persona and schedule tables measured from sweep runs
 * (`persona-tables.ts`). How runs are executed is the adapters' business. See README.md.
 */
export { parseSeedList, planSweep, type SweepJob, type SweepBase } from './plan';
export { estimateRunCost, longestFirst } from './cost';
export { summarizeRun, summarizeSweep, formatSweepSummary, SWEEP_AXES, type SweepSummaryOptions, type RunSummary, type ScenarioRow, type SweepSummary, type AxisStat, type SweepAxis } from './summary';
export { personaTableMarkdown, abilityTableMarkdown, personaParameterMarkdown, personaDescriptionsMarkdown, scheduleTablesMarkdown, aggregateBy, PERSONA_MEASURES, type PersonaMeasures } from './persona-tables';
