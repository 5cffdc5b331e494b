/**
 * Evidence that every library scenario loads, runs the full 30 days and yields the deterministic
 * axes (here with the withholder on the fast BKT tracer; `npm run scenarios:check` runs every
 * file with its own tracer, AKT, and all three built-in tutors).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HELP_TEMPLATES, libraryEntries, parseScenario, summarizeRun } from '../index';
import { runWith } from '../../testing/fixtures';

const DIR = fileURLToPath(new URL('../../../scenarios/', import.meta.url));

describe('all 55 library scenarios run 30 days with the withholder', () => {
  for (const e of libraryEntries()) {
    it(e.id, async () => {
      const scenario = parseScenario(readFileSync(DIR + e.file, 'utf8'), e.file);
      const res = await runWith(scenario, 'withholder');
      expect(res.reason).toBe('horizon_reached');
      const s = summarizeRun(res.events, e.file);
      expect(s.activity.days).toBe(30);
      expect(typeof s.axes.learningGain).toBe('number');
      // Responsiveness and leakage are null only when there was nothing to score.
      if (s.axes.responsiveness === null) expect(s.activity.helpRequests).toBe(0);
      else expect(s.axes.responsiveness).toBe(1);
      if (s.axes.leakage !== null) expect(s.axes.leakage).toBe(0);
      expect(s.activity.preTutorSolveRate).toBeGreaterThan(0);
      expect(s.persona).toBe(e.persona);
      // Every help request is the exact text of its template, so responsiveness stays an exact match.
      for (const m of res.events) if (m.type === 'message' && m.help !== undefined) expect(m.text).toBe(HELP_TEMPLATES[m.help]);
      expect(s.schedule).toBe(e.schedule);
    });
  }
});
