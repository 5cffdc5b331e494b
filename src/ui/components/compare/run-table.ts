/**
 * The run table: every stored run with a column per axis (AXES, the order everywhere), sorted on
 * any column and filtered by words and by a range on any axis. Pure functions of stored runs (their
 * stored score reports); RunTable.svelte lays them out.
 */
import { AXES, scenarioLabel, type AnyAxis, type AxisId } from '../../../core/index';
import { attachControls } from '../../../core/analysis/index';
import type { StoredRun } from '../../../adapters/browser/run-store';

export interface TableRow {
  key: string;
  tutor: string;
  scenario: string;
  seed: number;
  status: string;
  /** Scores of a run that did not reach its last day are not results. */
  partial: boolean;
  benchmark: string | null;
  values: Record<AxisId, number | null>;
  haystack: string;
}

export type SortColumn = 'tutor' | 'scenario' | 'seed' | AxisId;
export interface TableSort {
  column: SortColumn;
  dir: 'asc' | 'desc';
}

/** A range on an axis, in the unit the table shows (pp/day, %, score): either end may be left open. */
export interface AxisRange {
  min: number | null;
  max: number | null;
}
export interface TableFilter {
  text: string;
  ranges: Partial<Record<AxisId, AxisRange>>;
  /** Only these runs (storage keys), and what they are in words: the runs behind a result, opened from the Benchmark. */
  keys?: { keys: string[]; what: string };
}

export const NO_TABLE_FILTER: TableFilter = { text: '', ranges: {} };

/**
 * Value added of each stored run against its no-tutor control among the stored runs (the same
 * student: attachControls), by storage key. A benchmark's runs do not carry it in their own score
 * report; the results report and this table pair them the same way.
 */
function valueAddedByKey(runs: readonly StoredRun[]): Map<string, number | null> {
  const withDigest = runs.filter((r) => r.digest);
  const attached = attachControls(withDigest.map((r) => r.digest!));
  return new Map(withDigest.map((r, i) => [r.key, attached[i]!.axes.valueAdded ?? null]));
}

export function tableRows(runs: readonly StoredRun[]): TableRow[] {
  const added = valueAddedByKey(runs);
  return runs.map((r) => {
    const rep = r.report;
    const values = Object.fromEntries(AXES.map((a) => [a.id, rep ? a.value(rep) : null])) as Record<AxisId, number | null>;
    if (values.valueAdded === null) values.valueAdded = added.get(r.key) ?? null;
    const partial = r.status !== 'done' && !(r.status === 'imported' && rep?.complete === true);
    return {
      key: r.key,
      tutor: r.tutor,
      scenario: scenarioLabel(r.scenarioId),
      seed: r.seed,
      status: r.status,
      partial,
      benchmark: r.benchmark?.name ?? null,
      values,
      haystack: `${r.tutor} ${r.scenarioId} ${scenarioLabel(r.scenarioId)} ${r.scenarioTitle} seed ${r.seed} ${r.status} ${r.benchmark?.name ?? ''}`.toLowerCase(),
    };
  });
}

/** The value in the unit the table shows (what a range is written in). */
export const inUnit = (a: AnyAxis, v: number): number => Number(a.number(v));

export function filterRows(rows: readonly TableRow[], f: TableFilter): TableRow[] {
  const words = f.text.toLowerCase().split(/\s+/).filter(Boolean);
  const ranges = (Object.entries(f.ranges) as [AxisId, AxisRange][]).filter(([, r]) => r.min !== null || r.max !== null);
  const only = f.keys ? new Set(f.keys.keys) : null;
  return rows.filter((row) => {
    if (only && !only.has(row.key)) return false;
    if (!words.every((w) => row.haystack.includes(w))) return false;
    return ranges.every(([id, r]) => {
      const v = row.values[id];
      if (v === null) return false;
      const x = inUnit(AXES.find((a) => a.id === id)!, v);
      return (r.min === null || x >= r.min) && (r.max === null || x <= r.max);
    });
  });
}

/** Sorted copy: results before partial runs, unscored values last whatever the direction, ties by tutor, scenario and seed. */
export function sortRows(rows: readonly TableRow[], s: TableSort): TableRow[] {
  const d = s.dir === 'asc' ? 1 : -1;
  const tie = (a: TableRow, b: TableRow) => a.tutor.localeCompare(b.tutor) || a.scenario.localeCompare(b.scenario) || a.seed - b.seed || a.key.localeCompare(b.key);
  const by = (a: TableRow, b: TableRow): number => {
    if (s.column === 'tutor') return d * a.tutor.localeCompare(b.tutor);
    if (s.column === 'scenario') return d * a.scenario.localeCompare(b.scenario);
    if (s.column === 'seed') return d * (a.seed - b.seed);
    const x = a.values[s.column];
    const y = b.values[s.column];
    if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0);
    return d * (x - y);
  };
  return [...rows].sort((a, b) => Number(a.partial) - Number(b.partial) || by(a, b) || tie(a, b));
}

/** The axes worth a column: the deterministic ones always, a judged one once any run has a value for it. */
export function tableAxes(rows: readonly TableRow[]): AnyAxis[] {
  return AXES.filter((a) => a.kind === 'deterministic' || rows.some((r) => r.values[a.id] !== null));
}
