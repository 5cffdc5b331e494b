/**
 * Judging a whole benchmark from the Benchmark view: the chosen judges of the panel (LLM settings)
 * judge every finished run of it, one run after another through the run library's `judge` (so each
 * run's verdicts are stored with its trace and its report and results update as soon as it is
 * judged). Progress, pause and resume; the job (which runs, which judges, which are done, the
 * unscored verdicts with their reasons) is kept in localStorage, so a reload offers Resume and
 * continues with the runs not judged yet (a run whose judging the reload cut short is judged again).
 */
import { errorMessage, type EventOf } from '../../core/index';
import type { RunLibrary } from './library.svelte';

export interface UnscoredVerdict {
  run: string;
  judge: string;
  rubric: string;
  day: number;
  reason: string;
}

export interface JudgingJob {
  benchId: string;
  benchName: string;
  judges: string[];
  keys: string[];
  done: string[];
  failed: { key: string; error: string }[];
  unscored: UnscoredVerdict[];
  scored: number;
  state: 'running' | 'paused' | 'done';
  note: string | null;
}

const STORE_KEY = 'educlaw-lab.bench-judging';

function load(): JudgingJob | null {
  try {
    const raw = localStorage.getItem(STORE_KEY);
    if (!raw) return null;
    const j = JSON.parse(raw) as JudgingJob;
    if (!j || typeof j.benchId !== 'string' || !Array.isArray(j.keys) || !Array.isArray(j.done)) return null;
    // A job that was running when the page went away is paused: Resume continues it.
    return j.state === 'running' ? { ...j, state: 'paused', note: 'The page was reloaded while judging: Resume continues with the runs not judged yet.' } : j;
  } catch {
    return null;
  }
}

export class BenchJudging {
  readonly library: RunLibrary;
  job = $state.raw<JudgingJob | null>(load());
  /** Verdicts of the run being judged now ("12 of 40 verdicts"). */
  current = $state<string | null>(null);
  error = $state<string | null>(null);
  #abort: AbortController | null = null;

  constructor(library: RunLibrary) {
    this.library = library;
  }

  get active(): boolean {
    return this.job?.state === 'running';
  }

  #save(j: JudgingJob): void {
    this.job = j;
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify(j));
    } catch (e) {
      this.error = `The judging job could not be saved in this browser (${errorMessage(e)}): a reload would lose its progress (the verdicts already stored are kept with the runs).`;
    }
  }

  /** Starts judging these runs of a benchmark with these judges (ids "<model>@<provider>"). */
  start(bench: { id: string; name: string }, keys: readonly string[], judges: readonly string[]): void {
    if (this.active) return;
    if (judges.length === 0) {
      this.error = 'Choose at least one judge.';
      return;
    }
    if (keys.length === 0) {
      this.error = 'This benchmark has no finished run to judge.';
      return;
    }
    this.error = null;
    this.#save({ benchId: bench.id, benchName: bench.name, judges: [...judges], keys: [...keys], done: [], failed: [], unscored: [], scored: 0, state: 'running', note: null });
    void this.#loop();
  }

  resume(): void {
    const j = this.job;
    if (!j || j.state !== 'paused') return;
    this.error = null;
    this.#save({ ...j, state: 'running', note: null });
    void this.#loop();
  }

  /** Pauses after stopping the run being judged now (its verdicts so far are dropped; Resume judges it again). */
  pause(): void {
    const j = this.job;
    if (!j || j.state !== 'running') return;
    this.#save({ ...j, state: 'paused', note: 'Paused: Resume continues with the runs not judged yet.' });
    this.#abort?.abort();
  }

  /** Forgets a finished or paused job (the verdicts stored with the runs stay). */
  clear(): void {
    if (this.active) return;
    this.job = null;
    try {
      localStorage.removeItem(STORE_KEY);
    } catch {
      // nothing stored
    }
  }

  async #loop(): Promise<void> {
    for (;;) {
      const j = this.job;
      if (!j || j.state !== 'running') return;
      const next = j.keys.find((k) => !j.done.includes(k) && !j.failed.some((f) => f.key === k));
      if (next === undefined) {
        this.current = null;
        this.#save({ ...j, state: 'done', note: null });
        return;
      }
      const run = this.library.runs.find((r) => r.key === next);
      const label = run ? `${run.tutor} · ${run.scenarioId} · seed ${run.seed}` : next;
      this.#abort = new AbortController();
      this.current = `${label}: starting`;
      try {
        const out = await this.library.judge(next, { signal: this.#abort.signal, judges: j.judges, onProgress: (t) => (this.current = `${label}: ${t}`) });
        const verdicts = out.events.filter((e): e is EventOf<'judge_verdict'> => e.type === 'judge_verdict');
        const now = this.job!;
        if (now.state !== 'running') return; // paused while the last verdicts came in: judged again on resume
        this.#save({
          ...now,
          done: [...now.done, next],
          scored: now.scored + verdicts.filter((v) => v.status === 'scored').length,
          unscored: [...now.unscored, ...verdicts.filter((v) => v.status !== 'scored').map((v) => ({ run: label, judge: v.judge, rubric: v.rubric, day: v.day, reason: v.reason ?? 'no reason given' }))],
        });
      } catch (e) {
        const now = this.job!;
        if (now.state !== 'running') return;
        this.#save({ ...now, failed: [...now.failed, { key: next, error: `${label}: ${errorMessage(e)}` }] });
      }
    }
  }
}
