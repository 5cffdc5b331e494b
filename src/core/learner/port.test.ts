import { describe, expect, it } from 'vitest';
import { miniScenario, runWith } from '../../testing/fixtures';
import { SimulatedLearner, toJsonl, type LearnerAgent } from '../index';

describe('the learner port', () => {
  it('an environment can supply the learner agent; one that passes every call through gives the same trace', async () => {
    const plain = await runWith(miniScenario(), 'withholder', { seed: 3 });
    const calls: Record<string, number> = {};
    const count = (k: string) => (calls[k] = (calls[k] ?? 0) + 1);
    const wrapped = await runWith(miniScenario(), 'withholder', {
      seed: 3,
      env: {
        learner: (o) => {
          const sim = new SimulatedLearner(o);
          const agent: LearnerAgent = {
            tracer: sim.tracer,
            origin: sim.origin,
            voiceName: sim.voiceName,
            dayStarted: (day, io) => (count('dayStarted'), sim.dayStarted(day, io)),
            moment: (m, io) => (count(`moment:${m.k}`), sim.moment(m, io)),
            read: (t, w, c, io) => (count('read'), sim.read(t, w, c, io)),
            replyTo: (t, r, io) => (count('replyTo'), sim.replyTo(t, r, io)),
            sessionCut: () => (count('sessionCut'), sim.sessionCut()),
            probe: (d, p) => (count('probe'), sim.probe(d, p)),
            belief: (s) => (count('belief'), sim.belief(s)),
          };
          return agent;
        },
      },
    });
    expect(toJsonl(wrapped.events)).toBe(toJsonl(plain.events));
    const n = (type: string) => plain.events.filter((e) => e.type === type).length;
    expect(calls.dayStarted).toBe(3);
    expect(calls.probe).toBe(n('probe'));
    expect(calls.belief).toBe(n('mastery'));
    expect(calls['moment:login']).toBeGreaterThanOrEqual(plain.events.filter((e) => e.type === 'lms_event' && e.kind === 'login').length);
    expect(calls.replyTo).toBeGreaterThan(0);
  });
});
