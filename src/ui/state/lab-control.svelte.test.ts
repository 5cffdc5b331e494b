/**
 * The Lab runs a finished run's no-tutor control through the page's run library once per student:
 * a second run of the same student, and the run re-opened, reuse the stored control.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { RunLibrary } from './library.svelte';
import { Lab } from './lab.svelte';
import { RunStore } from '../../adapters/browser/run-store';
import { CONTROL_TUTOR, runRecord, type RunRecord } from '../../core/index';
import { defaultScenario, onBkt } from '../../testing/fixtures';
import { bktPool, leases } from '../../testing/page-library';

const record = (tutor: string, seed = 42): RunRecord => runRecord({ scenario: onBkt(defaultScenario()), source: 'scenarios/default.yaml', tutor: { name: tutor, config: {} }, seed, horizonDays: 3 });

describe('the Lab and the no-tutor control', () => {
  it('runs the control once per student, and reuses it for the re-opened run and for another tutor on the same student', async () => {
    const lib = new RunLibrary({ store: new RunStore(`lab-control-${Math.random()}`), tracers: bktPool(), leases: leases('tab-1') });
    await lib.init();
    const lab = new Lab(lib);
    const planner = await lib.start(record('planner')).done;
    await lab.select(planner.key);
    expect(lab.control?.kind).toBe('needed');
    lab.runControl();
    expect(lab.control?.kind).toBe('running');
    // Asking again while it runs starts nothing.
    lab.runControl();
    expect(lib.live.size).toBe(2);
    const liveKey = lab.control?.kind === 'running' ? lab.control.key : '';
    const control = await lib.live.get(liveKey)!.done;
    expect(control.record?.tutor.name).toBe(CONTROL_TUTOR);
    expect(control.seed).toBe(42);
    expect(lab.control).toMatchObject({ kind: 'found', control: { key: control.key } });

    // Re-opened: found, nothing new runs.
    await lab.select(control.key);
    expect(lab.control).toEqual({ kind: 'self' });
    await lab.select(planner.key);
    expect(lab.control).toMatchObject({ kind: 'found', control: { key: control.key } });
    lab.runControl();
    expect(lib.runs).toHaveLength(2);

    // Another tutor on the same student reuses it; the same tutor on another seed needs its own.
    const withholder = await lib.start(record('withholder')).done;
    await lab.select(withholder.key);
    expect(lab.control).toMatchObject({ kind: 'found', control: { key: control.key } });
    const other = await lib.start(record('planner', 7)).done;
    await lab.select(other.key);
    expect(lab.control?.kind).toBe('needed');
    expect(lib.runs).toHaveLength(4);
  });
});
