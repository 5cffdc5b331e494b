import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PERSONA_PRESETS, PERSONA_PRESET_NAMES, SCHEDULE_PRESETS, SCHEDULE_PRESET_NAMES, ScenarioError, libraryEntries, parseLibraryId, parseScenario, renderLibraryScenario, scenarioLabel } from './index';

const DIR = fileURLToPath(new URL('../../../scenarios/', import.meta.url));

describe('scenario library', () => {
  it('has 11 personas × 5 schedules = 55 entries with distinct ids, and ids split back into persona and schedule', () => {
    expect(PERSONA_PRESET_NAMES).toHaveLength(11);
    expect(SCHEDULE_PRESET_NAMES).toHaveLength(5);
    const entries = libraryEntries();
    expect(entries).toHaveLength(55);
    expect(new Set(entries.map((e) => e.id)).size).toBe(55);
    for (const e of entries) expect(parseLibraryId(e.file)).toEqual({ persona: e.persona, schedule: e.schedule });
    expect(parseLibraryId('default.yaml')).toBeNull();
    // How a scenario is shown: a library one as "persona · schedule", any other id as it is.
    expect(scenarioLabel('adversarial--after-school')).toBe('adversarial · after-school');
    for (const e of entries) expect(scenarioLabel(e.id)).toBe(`${e.persona} · ${e.schedule}`);
    for (const other of ['default-prealgebra-after-school', 'mini-3day', 'nobody--after-school', 'a--b--c', 'scenarios/gamer--after-school.yaml']) expect(scenarioLabel(other)).toBe(other);
    expect(PERSONA_PRESET_NAMES).toEqual(expect.arrayContaining(['confused-productive', 'silent-struggler', 'frustrated-spiral', 'adversarial']));
  });

  it('every persona has a teacher-facing paragraph and a name equal to its key', () => {
    for (const n of PERSONA_PRESET_NAMES) {
      expect(PERSONA_PRESETS[n].name).toBe(n);
      expect(PERSONA_PRESETS[n].description.length).toBeGreaterThan(200);
    }
    for (const n of SCHEDULE_PRESET_NAMES) expect(SCHEDULE_PRESETS[n].description.length).toBeGreaterThan(100);
  });

  it('the files in scenarios/ are exactly what the code renders (run `npm run scenarios` after changing a persona or schedule)', () => {
    for (const e of libraryEntries()) expect(readFileSync(DIR + e.file, 'utf8'), e.file).toBe(renderLibraryScenario(e.persona, e.schedule));
  });

  it('each file parses to its persona preset and schedule, ability average, seed 42, 30 days', () => {
    for (const e of libraryEntries()) {
      const s = parseScenario(readFileSync(DIR + e.file, 'utf8'), e.file);
      expect(s.id).toBe(e.id);
      const { preset, ...persona } = s.learner.persona;
      expect(preset).toBe(e.persona);
      expect(persona).toEqual(PERSONA_PRESETS[e.persona]);
      const sch = SCHEDULE_PRESETS[e.schedule];
      expect(s.schedule).toEqual({ name: e.schedule, blocks: sch.blocks });
      expect(s.course.homework).toEqual(sch.homework);
      expect(s.probes).toEqual(sch.probes);
      expect(s.tutor).toEqual(sch.tutor);
      expect([s.learner.ability, s.seed, s.horizonDays]).toEqual(['average', 42, 30]);
    }
  });
});

describe('persona presets in scenario files', () => {
  const base = readFileSync(DIR + 'fixtures/mini-3day.yaml', 'utf8');
  const personaStart = base.indexOf('  persona:');
  const personaEnd = base.indexOf('schedule:');
  const withPersona = (yaml: string) => base.slice(0, personaStart) + yaml + base.slice(personaEnd);

  it('a preset fills every parameter and the fields given override it', () => {
    const s = parseScenario(withPersona('  persona:\n    preset: gamer\n    guessProb: 0.2\n'), 'p.yaml');
    expect(s.learner.persona).toEqual({ ...PERSONA_PRESETS.gamer, preset: 'gamer', guessProb: 0.2 });
  });

  it('an unknown preset is an error naming the field and its line', () => {
    const text = withPersona('  persona:\n    preset: gamr\n');
    try {
      parseScenario(text, 'bad.yaml');
      throw new Error('expected a ScenarioError');
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioError);
      const iss = (e as ScenarioError).issues.find((i) => i.path === 'learner.persona.preset');
      expect(iss?.line).toBe(text.split('\n').findIndex((l) => l.includes('preset: gamr')) + 1);
      expect((e as ScenarioError).message).toContain('bad.yaml:');
    }
  });

  it('a bad override of a preset is reported at its own line', () => {
    const text = withPersona('  persona:\n    preset: gamer\n    guessProb: 2\n');
    try {
      parseScenario(text, 'bad.yaml');
      throw new Error('expected a ScenarioError');
    } catch (e) {
      const [iss] = (e as ScenarioError).issues;
      expect(iss).toMatchObject({ path: 'learner.persona.guessProb', line: text.split('\n').findIndex((l) => l.includes('guessProb: 2')) + 1 });
    }
  });
});
