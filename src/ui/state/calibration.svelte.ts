/** The Calibration view's state: the model's calibration on real students (a derived file) and on this browser's runs. */
import { calibrationByMode, errorMessage, type CalibrationReport, type ReliabilityBin, type StudentModelCalibration } from '../../core/index';
import type { RunStore } from '../../adapters/browser/run-store';

/** public/data/calibration.json, written by `npm run calibration:real`. */
export interface RealCalibrationFile {
  command: string;
  data: string;
  fold: number;
  reference: { source: string; ece: number; brier: number };
  tracers: { tracer: string; model: string; students: number; rows: number; auc: number; acc: number; ece: number; brier: number; reliability: ReliabilityBin[] }[];
  /** Calibration of a reference sweep's simulated runs (npm run calibration:sim). */
  simulated?: CalibrationReport & { label: string; tracers: string[]; command: string };
}

export class CalibrationState {
  real = $state.raw<RealCalibrationFile | null>(null);
  realError = $state<string | null>(null);
  /** tracer-decides runs: the tracer against draws from itself. */
  sim = $state.raw<CalibrationReport | null>(null);
  /** student-attempts runs: predicted mastery against the LLM student's observed accuracy, all and per student model. */
  student = $state.raw<{ all: CalibrationReport; byModel: StudentModelCalibration[] } | null>(null);
  simTracers = $state.raw<string[]>([]);
  simError = $state<string | null>(null);
  busy = $state(false);
  #store: RunStore;

  constructor(store: RunStore) {
    this.#store = store;
  }

  async loadReal(): Promise<void> {
    try {
      const res = await fetch(new URL('data/calibration.json', new URL(import.meta.env.BASE_URL, location.href)));
      if (!res.ok) throw new Error(`data/calibration.json: HTTP ${res.status}`);
      this.real = (await res.json()) as RealCalibrationFile;
    } catch (e) {
      this.realError = `Could not load the calibration on real students: ${errorMessage(e)}`;
    }
  }

  /** Calibration over every finished run stored in this browser. */
  async computeSim(): Promise<void> {
    this.busy = true;
    this.simError = null;
    try {
      const runs = (await this.#store.listRuns()).filter((r) => r.status === 'done' || r.status === 'imported');
      const traces = [];
      for (const r of runs) traces.push(await this.#store.getEvents(r.key));
      const c = calibrationByMode(traces);
      this.sim = c.tracerDecides;
      this.student = c.studentAttempts;
      this.simTracers = [...new Set(runs.map((r) => r.tracer))];
    } catch (e) {
      this.simError = errorMessage(e);
    } finally {
      this.busy = false;
    }
  }
}
