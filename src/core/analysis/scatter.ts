/**
 * One point per run on two axes (responsiveness against helpfulness, the paper's trade-off): runs
 * where either axis is unscored are not plotted, and are counted per tutor with the reason.
 */
import type { AxisId } from '../scoring/axes';
import type { RunDigest } from './digest';
import { byText } from './stats';

export interface ScatterPoint {
  runId: string;
  tutor: string;
  scenarioId: string;
  seed: number;
  voice: string | null;
  x: number;
  y: number;
}

export interface ScatterData {
  x: AxisId;
  y: AxisId;
  points: ScatterPoint[];
  /** Per tutor: runs, plotted, and the runs left out because x or y (or both) is unscored. */
  tutors: { tutor: string; runs: number; plotted: number; xUnscored: number; yUnscored: number }[];
}

export function axisScatter(digests: readonly RunDigest[], x: AxisId, y: AxisId): ScatterData {
  const points: ScatterPoint[] = [];
  const tutors = new Map<string, { tutor: string; runs: number; plotted: number; xUnscored: number; yUnscored: number }>();
  for (const d of digests) {
    let t = tutors.get(d.tutor);
    if (!t) tutors.set(d.tutor, (t = { tutor: d.tutor, runs: 0, plotted: 0, xUnscored: 0, yUnscored: 0 }));
    t.runs++;
    const vx = d.axes[x];
    const vy = d.axes[y];
    if (vx === null) t.xUnscored++;
    if (vy === null) t.yUnscored++;
    if (vx === null || vy === null) continue;
    t.plotted++;
    points.push({ runId: d.runId, tutor: d.tutor, scenarioId: d.scenarioId, seed: d.seed, voice: d.voice, x: vx, y: vy });
  }
  return { x, y, points, tutors: [...tutors.values()].sort((a, b) => byText(a.tutor, b.tutor)) };
}
