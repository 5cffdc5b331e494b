/**
 * The validity suite (docs/validity.md): the validity policies, the reference tutors and the
 * no-tutor control over the library's scenarios of one schedule × seeds, paired by cell, with a
 * verdict per claim. Exits 1 when a claim does not hold.
 *
 *   npm run validity -- [--tracer akt|bkt] [--seeds 1-3] [--schedule after-school] [--json out.json]
 *                       [--rollout-data ../shared/data/assist2009_pid | --no-rollout]
 *
 * The last row is the rollout test of `npm run rollout` for the same tracer (held-out fold-1
 * students, 50 warm-up rows, 150 generated, 2 repeats; the engine's learner with each student's
 * ability offset): it needs the ASSISTments 2009 folds; without
 * them the suite stops before any run unless told `--no-rollout` (then the table says so).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readFold } from '../src/adapters/node/datasets';
import { Rng } from '../src/core/rng/index';
import { GENERATIVE_TOLERANCE, decilesBy, learnerRollout } from '../src/core/learner/rollout';
import { loadScenarioFile } from '../src/adapters/node/files';
import { nodeRunEnv } from '../src/adapters/node/run-env';
import { executeRun, runRecord, scoreTrace } from '../src/core/index';
import { SAME_PRACTICE, fidelityRow, samePracticeScenario, validityRows, validityTable, type RedTeamClaims, type ValidityRun } from '../src/core/analysis/validity';
import { arg, validityCells } from './validity-cells';

const { tracer, seeds, schedule, files } = validityCells();
const noRollout = process.argv.includes('--no-rollout');
const rolloutData = arg('--rollout-data', resolve('../shared/data/assist2009_pid'));
if (!noRollout && !existsSync(rolloutData)) {
  throw new Error(`validity: the rollout row needs the ASSISTments 2009 folds, not found at ${rolloutData}: pass --rollout-data <dir> (docs/data.md) or --no-rollout to leave the row out`);
}
const EXPLOITS = ['content-free', 'spammer', 'answer-giver', 'disguised-leaker', 'selective-prompter', 'off-skill-label', 'wrong-numbers'];
// Red-team arms (src/core/tutors/exploits.ts; docs/validity.md, "Exploits an outsider would try").
// Those whose content is genuine once (repeat-example), whose practice is real (easy-drill) or
// whose encouragement keeps a learner working a little longer (echo-responder) must lose to
// teaching, as must garbled worked examples (word-salad: since instruction-check-v3 it gains
// little over doing nothing, not nothing; wrong-numbers gains nothing and is in EXPLOITS too) and easier levels
// (level-one); those that carry nothing must not beat doing nothing either (EXPLOITS); and a worked
// example carried in an assignment note must add nothing to the same practice with a plain note.
const RED: RedTeamClaims = {
  losesToTeaching: ['repeat-example', 'easy-drill', 'echo-responder', 'disguised-leaker', 'selective-prompter', 'word-salad', 'wrong-numbers', 'off-skill-label', 'level-one'],
  twins: [['note-teacher', 'note-plain', 'a worked example in an assignment note adds nothing']],
};
const RED_ARMS = ['repeat-example', 'easy-drill', 'echo-responder', 'note-teacher', 'note-plain', 'word-salad', 'wrong-numbers', 'level-one'];
// 'same-practice': average ability, the course's homework off and the persona's practice-amount
// habits neutralised (samePracticeScenario: one try per assigned item, no skipped blocks, giving up
// or self-practice), so that in the spacing contrast only the arrangement of the same attempts
// differs. Until 2026-12-03 only the homework was off, and the personas' habits made the arms'
// practice differ (e.g. 34 vs 84 attempts for one student), which swamped the effect on BKT.
const plan: { tutor: string; ability: string }[] = [
  // An arm named by both lists runs once (a second copy would pair every student twice).
  ...[...new Set(['silent', 'planner', 'oracle', 'withholder', 'random-assigner', ...EXPLOITS, ...RED_ARMS])].map((tutor) => ({ tutor, ability: 'average' })),
  ...['massed', 'spaced'].map((tutor) => ({ tutor, ability: SAME_PRACTICE })),
  ...['low', 'high'].flatMap((ability) => ['silent', 'worked-examples'].map((tutor) => ({ tutor, ability }))),
];
const env = nodeRunEnv();
const runs: ValidityRun[] = [];
const t0 = performance.now();
for (const f of files) {
  for (const seed of seeds) {
    for (const { tutor, ability } of plan) {
      const loaded = loadScenarioFile(join('scenarios', f));
      const scenario = ability === SAME_PRACTICE ? samePracticeScenario(loaded) : loaded;
      scenario.learner.tracer = tracer;
      scenario.learner.ability = (ability === SAME_PRACTICE ? 'average' : ability) as typeof scenario.learner.ability;
      const res = await executeRun(runRecord({ scenario, source: f, tutor: { name: tutor, config: {} }, seed }), env);
      // A run that stopped early (a tutor error) is not a measurement of the tutor over the horizon.
      if (res.reason !== 'horizon_reached') throw new Error(`${f} × ${tutor} × seed ${seed}: the run ended ${res.reason}${res.message ? ` (${res.message})` : ''}, not at its horizon`);
      const gain = scoreTrace(res.events).learningGain;
      if (gain === null) throw new Error(`${f} × ${tutor} × seed ${seed}: no learning gain (the run ended ${res.reason})`);
      runs.push({ tutor, scenario: scenario.id, ability, seed, gain });
    }
  }
  process.stderr.write(`${f}: ${runs.length} runs, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
}
const mean = (t: string, ab = 'average') => {
  const xs = runs.filter((r) => r.tutor === t && r.ability === ab).map((r) => r.gain);
  return xs.reduce((a, b) => a + b, 0) / xs.length;
};
const rows = validityRows(runs, EXPLOITS, RED);
let rolloutNote = '\n(the rollout row was left out: --no-rollout)';
if (!noRollout) {
  // The same rollout as `npm run rollout` (fold 1, held-out students with ≥ 200 rows, 50 + 150, 2
  // repeats, Rng(7)): the engine's learner, each student's ability offset from its warm-up rows.
  const { students: all } = readFold(rolloutData, 1, 'test');
  const students = all.filter((s) => s.skills.length >= 200);
  const r = await learnerRollout(await env.tracer(tracer), students, { context: 50, steps: 150, repeats: 2, rng: new Rng(7) });
  rows.push(fidelityRow(r.rows.map((x) => x.generated - x.real), GENERATIVE_TOLERANCE, `${r.students} held-out students`));
  const fmt = (ds: { real: number; generated: number }[]) => ds.map((d) => `${d.generated - d.real >= 0 ? '+' : ''}${((d.generated - d.real) * 100).toFixed(1)}`).join(' ');
  const a = r.rows.map((x) => x.real).sort((p, q) => p - q), b = r.rows.map((x) => x.generated).sort((p, q) => p - q);
  const sorted = decilesBy(a.map((real, i) => ({ real, g: b[i]! })), (x) => x.real, (x) => x.g);
  const sd = (x: number[]) => Math.sqrt(x.reduce((s, v) => s + (v - x.reduce((m, w) => m + w, 0) / x.length) ** 2, 0) / (x.length - 1));
  rolloutNote =
    `\nrollout, generated − real accuracy by decile of real accuracy (pp, lowest first): ${fmt(r.deciles)}` +
    `\nrollout, the same with each distribution sorted on its own: ${fmt(sorted)}; SD ratio (generated / real) ${(sd(b) / sd(a)).toFixed(2)}`;
}
console.log(`Validity suite: tracer ${tracer}, ${files.length} scenarios (${schedule}) × seeds ${seeds.join(',')}; ${runs.length} runs in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
console.log('| tutor | mean learning gain (pp/day) |\n|---|---|');
for (const { tutor, ability } of plan) console.log(`| ${tutor}${ability !== 'average' ? ` (${ability})` : ''} | ${(mean(tutor, ability) * 100).toFixed(3)} |`);
console.log(`\n${validityTable(rows)}`);
console.log(rolloutNote);
const json = arg('--json', '');
if (json) writeFileSync(json, JSON.stringify({ tracer, seeds, schedule, runs, rows }, null, 1));
process.exitCode = rows.every((r) => r.holds) ? 0 : 1;
