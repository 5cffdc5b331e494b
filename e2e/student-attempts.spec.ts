/**
 * Journey: the LLM student writes its own attempts (coupling "student-attempts") in the page. A
 * scripted student behind the scripted chat-completions server (src/testing/scripted-student.ts)
 * is the LLM student voice; the Lab runs the 3-day fixture with "Graded attempts: the LLM student
 * writes its attempts"; the trace viewer shows a written attempt and how it was graded; the
 * Calibration view reports the run per student model, apart from tracer-decides runs; the
 * Benchmark form plans one run per student model.
 */
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { spawn, type ChildProcess } from 'node:child_process';
import { benchmarkTutors } from './bench-form';

// The scripted students' server runs in a process of its own (Playwright's loader cannot load the core).
let server: ChildProcess;
let url: string;
test.beforeAll(async () => {
  server = spawn(process.execPath, ['--import', 'tsx', 'src/testing/scripted-student-server.ts', 'scenarios/fixtures/mini-3day.yaml', 'scenarios/adversarial--after-school.yaml:1'], { stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    server.once('exit', (code) => reject(new Error(`scripted student server exited (${code})`)));
  });
});
test.afterAll(() => {
  server?.kill();
});

test('the LLM student writes its attempts: a run in the Lab, its graded attempts, calibration per student model, several student models in a benchmark', async ({ page }) => {
  await page.goto('/#settings');
  await page.getByLabel('Name', { exact: true }).fill('mock');
  await page.getByLabel('Base URL', { exact: true }).fill(url);
  await page.getByRole('button', { name: 'Save provider' }).click();
  await expect(page.getByRole('status')).toContainText('Saved provider mock');
  await page.getByLabel('Voice provider').selectOption('mock');
  await page.getByLabel('Voice model').fill('student-calibrated');
  await page.getByRole('button', { name: 'Save voice' }).click();
  await expect(page.getByRole('status')).toContainText('student-calibrated');

  await page.getByRole('link', { name: 'Lab' }).click();
  await page.locator('input[type="file"][accept=".yaml,.yml"]').setInputFiles('scenarios/fixtures/mini-3day.yaml');
  await expect(page.getByRole('status')).toContainText('Loaded scenario mini-3day');
  await page.getByLabel('Tutor', { exact: true }).selectOption('withholder');
  // The mode needs the LLM student: refused with the templates, said plainly.
  await page.getByLabel('Graded attempts').selectOption('student-attempts');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByRole('alert')).toContainText('needs the LLM student voice');
  await page.getByLabel('Student voice').selectOption('llm');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 60_000 });
  await expect(page.locator('tr[data-run-key^="mini-3day__withholder__s7__voice-student-calibrated@"]')).toHaveCount(1);
  await expect(page.getByText(/written by the LLM student \(graded by the answer checker\)/).first()).toBeAttached();

  await page.getByRole('link', { name: 'Calibration' }).click();
  await page.getByRole('button', { name: 'Compute from my stored runs' }).click();
  await expect(page.getByTestId('sim-calibration')).toContainText('0 runs');
  await expect(page.getByTestId('student-calibration')).toContainText(/^1 runs, \d+ \(run, day\) pairs, \d+ attempts: ECE 0\.\d{4}, Brier 0\.\d{4}\./);
  const perModel = page.getByRole('table', { name: 'Calibration per student model' });
  await expect(perModel.getByRole('row', { name: /llm:mock\/student-calibrated/ })).toContainText(/\d+\.\d%/);
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // A benchmark names several student models: one run per model, the summary and the axes per student model.
  await page.getByRole('link', { name: 'Benchmark' }).click();
  await benchmarkTutors(page, ['withholder']);
  await page.getByRole('checkbox', { name: /LLM student/ }).check();
  await page.getByLabel(/More student models/).fill('student-overconfident');
  await expect(page.getByTestId('bench-voices')).toContainText('3 student voices');
  await page.getByLabel('Graded attempts').selectOption('student-attempts');
  await page.getByLabel('Seeds', { exact: true }).fill('1');
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByLabel('Days', { exact: true }).fill('2');
  await page.getByLabel('adversarial × after-school').check();
  await page.getByRole('button', { name: /Start benchmark/ }).click();
  await expect(page.getByRole('alert')).toContainText('needs LLM student voices only: untick Templates');
  await page.getByRole('checkbox', { name: 'Templates' }).uncheck();
  await expect(page.getByTestId('bench-voices')).toContainText('2 student voices');
  await page.getByRole('checkbox', { name: /Include the no-tutor control/ }).uncheck(); // the tutors alone (the control: e2e/value-added.spec.ts)
  await page.getByRole('button', { name: 'Start benchmark (2 runs)' }).click();
  await expect(page.getByTestId('bench-progress')).toHaveText('Done: 2 runs', { timeout: 90_000 });
  for (const model of ['student-calibrated', 'student-overconfident']) await expect(page.getByRole('heading', { name: `withholder · llm:mock/${model}` })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Axes per student model' })).toBeVisible();
});
