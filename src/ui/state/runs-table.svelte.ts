/**
 * What the Runs view shows (sort, filter, ticked runs), kept for the page so that other views can
 * open it on a set of runs (the Benchmark's "its runs in the run table") and so that it survives
 * visits to other views.
 */
import type { TableFilter, TableSort } from '../components/compare/run-table';

export const runsTable = $state<{ sort: TableSort; filter: TableFilter; chosen: string[] }>({
  sort: { column: 'learningGain', dir: 'desc' },
  filter: { text: '', ranges: {} },
  chosen: [],
});

/** Opens the Runs view filtered by these words (a benchmark's name, a tutor, a scenario). */
export function showRuns(text: string): void {
  runsTable.filter = { text, ranges: {} };
  runsTable.chosen = [];
  location.hash = '#runs';
}

/** Opens the Runs view on exactly these runs (storage keys), saying what they are (the runs behind a result). */
export function showRunKeys(keys: readonly string[], what: string): void {
  runsTable.filter = { text: '', ranges: {}, keys: { keys: [...keys], what } };
  runsTable.chosen = [];
  location.hash = '#runs';
}
