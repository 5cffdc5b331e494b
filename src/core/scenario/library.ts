/**
 * The scenario library: every built-in persona crossed with every built-in schedule, rendered as
 * readable YAML (each persona parameter spelled out with a comment). scripts/scenarios/generate.ts
 * writes the files to scenarios/ (`npm run scenarios`); a unit test checks the files on disk are
 * what this renders, so the code and the files cannot drift apart silently.
 */
import { PERSONA_PRESETS, type PersonaPreset } from './personas';
import { SCHEDULE_PRESETS, type SchedulePreset } from './schedules';
import { PERSONA_PRESET_NAMES, SCHEDULE_PRESET_NAMES, type PersonaPresetName, type SchedulePresetName } from './preset-names';

/** What every library scenario shares: the paper's setting (seed 42, average ability) and the default course. */
export const LIBRARY_DEFAULTS = {
  seed: 42,
  ability: 'average' as const,
  learnerName: 'Alex',
  tracer: 'akt',
  horizonDays: 30,
  course: {
    title: 'Pre-algebra foundations',
    skills: [68, 70, 86, 87, 44],
    skillsNote: 'integers +/-, integers ×/÷, order of operations, 1–2 step equations, percent of',
    itemsPerLevel: 12,
    probesPerSkill: 10,
    startLevel: 2,
  },
};

export interface LibraryEntry {
  id: string;
  file: string;
  persona: PersonaPresetName;
  schedule: SchedulePresetName;
}

export const libraryScenarioId = (persona: string, schedule: string): string => `${persona}--${schedule}`;

/** The 55 entries, persona-major, in the order of the preset lists. */
export function libraryEntries(): LibraryEntry[] {
  return PERSONA_PRESET_NAMES.flatMap((persona) =>
    SCHEDULE_PRESET_NAMES.map((schedule) => ({ id: libraryScenarioId(persona, schedule), file: `${libraryScenarioId(persona, schedule)}.yaml`, persona, schedule })),
  );
}

/** Splits a library scenario id (or file name) into persona and schedule; null for other ids. */
export function parseLibraryId(idOrFile: string): { persona: PersonaPresetName; schedule: SchedulePresetName } | null {
  const id = idOrFile.replace(/^.*\//, '').replace(/\.ya?ml$/, '');
  const [persona, schedule, ...rest] = id.split('--');
  if (rest.length || !persona || !schedule) return null;
  if (!(PERSONA_PRESET_NAMES as readonly string[]).includes(persona) || !(SCHEDULE_PRESET_NAMES as readonly string[]).includes(schedule)) return null;
  return { persona: persona as PersonaPresetName, schedule: schedule as SchedulePresetName };
}

/**
 * A scenario as people read it, the same everywhere (the page's tables, the CLI's summary and the
 * report): a library scenario as "persona · schedule" ("adversarial · after-school"), any other id as
 * it is. Ids stay in file names, CSV and JSON (machine-readable); this is only how one is shown.
 */
export function scenarioLabel(id: string): string {
  const p = parseLibraryId(id);
  return p && !/[/.]/.test(id) ? `${p.persona} · ${p.schedule}` : id;
}

const TITLE = (s: string) => s.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** Short comments beside each persona field in the generated files. */
const PERSONA_NOTES: Record<Exclude<keyof PersonaPreset, 'name' | 'description'>, string> = {
  loginDelayMinutes: 'minutes after a block starts before logging in [min, max]',
  skipBlockProb: 'chance of skipping a block altogether',
  skipBlockProbIfDue: 'same, when something is due within 24 h (null: as skipBlockProb)',
  sessionMinutes: 'minutes meant to work per session [min, max] (null: until the block ends)',
  minutesPerItem: 'minutes per attempt [min, max]',
  helpProbAfterWrong: 'chance of a help request after a wrong answer',
  helpMinStreak: '... only once this many answers in a row were wrong',
  helpProbBeforeFirstTry: 'chance of a help request before a first attempt',
  helpProbBeforeSubmit: 'chance of a help request after working an item out, before submitting',
  helpTemplates: 'help-request templates used (texts: src/core/learner/voice.ts)',
  helpTemplatesByMoment: 'templates for particular moments (others use helpTemplates)',
  maxAttemptsPerItem: 'attempts before moving on',
  giveUpAfterFailures: 'wrong answers in a row that end the session',
  selfPracticeWhenIdle: 'practise on its own when nothing is assigned',
  guessProb: 'chance of guessing an attempt (not evidence of knowledge)',
  guessAccuracy: 'chance that a guess is right',
  carelessness: 'chance that a worked-out right answer is submitted wrong',
  frustrationPerWrong: 'frustration (0..1) added per wrong answer',
  frustrationReliefPerRight: 'frustration removed per right answer',
  frustrationCarryOver: 'share of frustration kept to the next login',
  guessWhenFrustrated: 'extra guessing chance at full frustration',
  rushWhenFrustrated: 'share of item time cut at full frustration',
  quitAtFrustration: 'frustration that ends the session (null: never)',
  praiseRelief: 'frustration removed by an encouraging tutor message',
  praiseExtraMinutes: 'minutes an encouraging message adds to the session',
  replyProb: "chance of replying to the tutor's message",
  readsContentProb: 'chance of reading posted content (unread: no instruction boost)',
  copyDisclosedProb: 'chance of copying an answer the tutor gave away',
  injectionProb: 'chance of an instruction-injection reply when refused the answer',
  injectionTemplates: 'injection texts used (src/core/scenario/extraction-attempts.ts)',
};

const PERSONA_ORDER = Object.keys(PERSONA_NOTES) as (keyof typeof PERSONA_NOTES)[];

/** Every persona behaviour parameter in a reading order, with a short note (used by the docs tables too). */
export const PERSONA_FIELDS: readonly { key: keyof typeof PERSONA_NOTES; note: string }[] = PERSONA_ORDER.map((key) => ({ key, note: PERSONA_NOTES[key] }));

function scalar(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(scalar).join(', ')}]`;
  if (typeof v === 'string') return /^[a-z][a-z0-9_-]*$/i.test(v) && !['null', 'true', 'false', 'yes', 'no', 'on', 'off'].includes(v.toLowerCase()) ? v : JSON.stringify(v);
  return String(v);
}

/** A folded block scalar, wrapped at `width` columns. */
function folded(text: string, indent: string, width = 100): string {
  const words = text.trim().split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && indent.length + line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return `>-\n${lines.map((l) => indent + l).join('\n')}`;
}

const comment = (line: string, note: string, col = 44) => `${line.padEnd(Math.max(col, line.length + 1))}# ${note}`;

/** The YAML text of one library scenario. */
export function renderLibraryScenario(personaName: PersonaPresetName, scheduleName: SchedulePresetName): string {
  const p: PersonaPreset = PERSONA_PRESETS[personaName];
  const s: SchedulePreset = SCHEDULE_PRESETS[scheduleName];
  const d = LIBRARY_DEFAULTS;
  const id = libraryScenarioId(personaName, scheduleName);
  const out: string[] = [];
  out.push(
    `# Library scenario: persona "${personaName}" × schedule "${scheduleName}".`,
    '# Generated by `npm run scenarios` (scripts/scenarios/generate.ts) from src/core/scenario/personas.ts and',
    '# schedules.ts; edit it freely (a rerun of the generator overwrites it). Personas: docs/personas.md;',
    '# schedules: docs/schedules.md; every field: docs/scenario-format.md.',
    '# yaml-language-server: $schema=./scenario.schema.json',
    'schemaVersion: 1',
    `id: ${id}`,
    `title: ${scalar(`${TITLE(personaName)} learner, ${scheduleName} schedule`)}`,
    `description: ${folded(`${p.description} Schedule: ${s.description}`, '  ')}`,
    comment(`seed: ${d.seed}`, 'seeds every random draw; the sweep and the page can override it'),
    `horizonDays: ${d.horizonDays}`,
    'course:',
    `  title: ${scalar(d.course.title)}`,
    comment(`  skills: ${scalar(d.course.skills)}`, d.course.skillsNote),
    `  itemsPerLevel: ${d.course.itemsPerLevel}`,
    `  probesPerSkill: ${d.course.probesPerSkill}`,
    `  startLevel: ${d.course.startLevel}`,
    comment('  homework:', "the course's own homework: posted at 00:00 on each listed day (LMS events:"),
    comment('', 'homework posted, assignment due two hours before, completed or missed)'),
    `    days: ${scalar(s.homework.days)}`,
    `    itemsPerDay: ${s.homework.itemsPerDay}`,
    `    dueTime: ${JSON.stringify(s.homework.dueTime)}`,
    comment(`    dueInDays: ${s.homework.dueInDays}`, 'days after posting that it is due (0: the same day)'),
    'learner:',
    `  name: ${scalar(d.learnerName)}`,
    comment(`  ability: ${d.ability}`, 'low | average | high: which real warm-up histories the learner starts from'),
    comment(`  tracer: ${d.tracer}`, 'knowledge tracer by name'),
    '  persona:',
    comment(`    preset: ${personaName}`, 'built-in persona; the fields below override it (delete one to use the'),
    comment('', "preset's value)"),
    `    name: ${scalar(p.name)}`,
    `    description: ${folded(p.description, '      ')}`,
  );
  for (const k of PERSONA_ORDER) {
    const v = p[k];
    if (k === 'helpTemplatesByMoment') {
      const by = v as PersonaPreset['helpTemplatesByMoment'];
      const keys = Object.keys(by) as (keyof typeof by)[];
      if (keys.length === 0) out.push(comment(`    ${k}: {}`, PERSONA_NOTES[k]));
      else {
        out.push(comment(`    ${k}:`, PERSONA_NOTES[k]));
        for (const m of keys) out.push(`      ${m}: ${scalar(by[m])}`);
      }
      continue;
    }
    out.push(comment(`    ${k}: ${scalar(v)}`, PERSONA_NOTES[k]));
  }
  out.push('schedule:', `  name: ${scheduleName}`, '  blocks:');
  for (const b of s.blocks) {
    out.push(`    - days: ${scalar(b.days)}`, `      start: ${JSON.stringify(b.start)}`, `      minutes: ${b.minutes}`, comment(`      chance: ${b.chance}`, 'chance that the block happens on a given day'));
  }
  out.push(
    comment('probes:', 'the held-out probe set, answered without help; day 0 (before tutoring) always'),
    `  days: ${scalar(s.probes.days)}`,
    `  time: ${JSON.stringify(s.probes.time)}`,
    'tutor:',
    comment(`  wakeOn: ${scalar(s.tutor.wakeOn)}`, 'LMS events that wake the tutor'),
    `  maxToolCallsPerTurn: ${s.tutor.maxToolCallsPerTurn}`,
  );
  return out.map((l) => l.replace(/\s+$/, '')).join('\n') + '\n';
}
