/**
 * No-tutor controls in Node: the silent tutor's run (or the oracle's, the steady-learning reference) on exactly a trace's student and conditions
 * (core/engine/control.ts), kept in a cache directory under a hash of its record and engine
 * version, so each control runs once however many tutors, scores and reports ask for it.
 * Definitions: docs/analyses.md ("Value added over no tutor").
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONTROL_TUTOR, ENGINE_VERSION, controlKeyText, controlRecord, executeRun, recordFromTrace, type RunStartEvent, type TraceEvent } from '../../core/index';
import { nodeRunEnv, type NodeEnvOptions } from './run-env';
import { TraceAppender, readStoredTrace } from './trace-file';

/** Where controls are cached unless told otherwise (relative to the working directory). */
export const DEFAULT_CONTROL_CACHE = '.cache/controls';

/**
 * The cache file of a trace's control (`tutor`: the silent no-tutor control by default, or the
 * oracle whose curve is the steady-learning reference); null with the reason when the trace cannot
 * have one here.
 */
export function controlPath(events: readonly TraceEvent[], cacheDir: string, source = 'trace', tutor: string = CONTROL_TUTOR): { path: string } | { reason: string } {
  const start = events[0] as RunStartEvent | undefined;
  const what = tutor === CONTROL_TUTOR ? 'no-tutor control' : `${tutor} reference`;
  if (!start || start.type !== 'run_start') return { reason: `${source}: not a trace (no run_start)` };
  if (start.tutor.name === tutor) return { reason: `the run is itself the ${what}` };
  if ((start.learner as { kind?: unknown }).kind === 'real') return { reason: `a field run (a real student) has no simulated ${what}` };
  if (start.engine !== ENGINE_VERSION) return { reason: `${source} was written by engine ${start.engine}; this build runs ${ENGINE_VERSION}, so its ${what} would be another student: run the traces afresh` };
  const key = createHash('sha256').update(controlKeyText(recordFromTrace(events, source), tutor)).digest('hex').slice(0, 32);
  return { path: join(cacheDir, `${key}.jsonl`) };
}

/** The cached control (or other yardstick `tutor`) of a trace, if it was run before (a complete trace only). */
export function cachedControl(events: readonly TraceEvent[], cacheDir: string, source = 'trace', tutor: string = CONTROL_TUTOR): TraceEvent[] | null {
  const p = controlPath(events, cacheDir, source, tutor);
  if (!('path' in p) || !existsSync(p.path)) return null;
  const t = readStoredTrace(p.path);
  return t.events.some((e) => e.type === 'run_end') ? t.events : null;
}

/**
 * The control of a trace: from the cache, or run now and cached (written event by event, then
 * complete). Throws with the reason when the trace cannot have one here (another engine, a field
 * run) or the run fails (an LLM voice without its --llm-config).
 */
export async function ensureControl(events: readonly TraceEvent[], cacheDir: string, env: NodeEnvOptions = {}, source = 'trace', tutor: string = CONTROL_TUTOR): Promise<{ events: TraceEvent[]; path: string; ran: boolean }> {
  const p = controlPath(events, cacheDir, source, tutor);
  if (!('path' in p)) throw new Error(p.reason);
  const cached = cachedControl(events, cacheDir, source, tutor);
  if (cached) return { events: cached, path: p.path, ran: false };
  mkdirSync(cacheDir, { recursive: true });
  const out = new TraceAppender(p.path, 0);
  try {
    const res = await executeRun(controlRecord(recordFromTrace(events, source), tutor), nodeRunEnv(env), { onEvent: (e) => out.append(e) });
    if (res.reason !== 'horizon_reached') throw new Error(`${source}: its ${tutor === CONTROL_TUTOR ? 'no-tutor control' : `${tutor} reference`} stopped early (${res.reason}${res.message ? `: ${res.message}` : ''})`);
    return { events: res.events, path: p.path, ran: true };
  } finally {
    out.close();
  }
}
