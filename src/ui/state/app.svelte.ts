/**
 * The page's state, one instance for the whole app (App.svelte creates it and provides it through
 * Svelte context): the run library and the forms of the Lab, Benchmark and Play views. Views read it with
 * `useApp()` and never own run state themselves, so switching tabs loses nothing.
 */
import { RunLibrary } from './library.svelte';
import { Lab } from './lab.svelte';
import { BenchmarkState } from './benchmark.svelte';
import { PlayState } from './play.svelte';
import { BenchJudging } from './bench-judge.svelte';

export class AppState {
  readonly library: RunLibrary;
  readonly lab: Lab;
  readonly benchmark: BenchmarkState;
  readonly play: PlayState;
  /** Judging a whole benchmark (Benchmark view). */
  readonly judging: BenchJudging;

  constructor(library = new RunLibrary()) {
    this.library = library;
    this.lab = new Lab(library);
    this.benchmark = new BenchmarkState(library);
    this.play = new PlayState(library);
    this.judging = new BenchJudging(library);
  }

  async init(): Promise<void> {
    await this.library.init();
    await this.lab.init();
  }
}

