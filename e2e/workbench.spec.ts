/**
 * Journey: the Benchmark view as a workbench. Two built-in tutors and an LLM tutor (a scripted
 * chat-completions server this test starts) × 3 library scenarios × 2 seeds, on BKT for 3 days;
 * a reload mid-benchmark, then Resume; the results with every plot; one LLM run judged by a panel
 * and opened in the trace viewer, from a score to its verdicts.
 */
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { startMockOpenAi, type MockServer } from '../src/testing/mock-openai-server';
import { benchmarkTutors } from './bench-form';
import { mockProviderAndPanel } from './settings-form';

let srv: MockServer;
test.beforeAll(async () => {
  srv = await startMockOpenAi();
});
test.afterAll(async () => {
  await srv.close();
});

test('a benchmark of 2 built-in tutors + 1 LLM tutor × 3 scenarios × 2 seeds survives a reload, shows every analysis and plot, and a judged run opens in the trace viewer', async ({ page }) => {
  await mockProviderAndPanel(page, srv.url, 'sk-e2e-WORKBENCH-0000', [['judge-4', 'alpha'], ['judge-2', 'beta'], ['judge-3', 'gamma']]);

  await page.getByRole('link', { name: 'Benchmark' }).click();
  await benchmarkTutors(page, ['withholder', 'planner']);
  await page.getByRole('button', { name: /Add an LLM tutor/ }).click();
  await page.getByRole('group', { name: 'LLM tutor 1' }).getByLabel('Model').fill('mock-tutor');
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByLabel('Days', { exact: true }).fill('3');
  await page.getByLabel('Seeds', { exact: true }).fill('1,2');
  for (const id of ['adversarial--after-school', 'gamer--homework-only', 'steady-worker--self-directed']) await page.locator(`input[data-scenario="${id}"]`).check();
  await page.getByLabel('Runs at once (built-in tutors)').fill('1');
  await page.getByLabel('Runs at once (LLM runs)').fill('2');
  // Before the start: the number of runs, and what the LLM tutor will cost (not measured yet here).
  await page.getByRole('checkbox', { name: /Include the no-tutor control/ }).uncheck(); // the tutors alone (the control: e2e/value-added.spec.ts)
  await expect(page.getByRole('button', { name: 'Start benchmark (18 runs)' })).toBeEnabled();
  await expect(page.getByLabel('Estimate for the LLM tutors')).toContainText('llm/reactive/mock-tutor, 6 runs: not measured yet');
  await page.getByRole('button', { name: /Start benchmark/ }).click();
  const progress = page.getByTestId('bench-progress');
  await expect(progress).toHaveText(/^([3-9]|1[0-7]) of 18 runs$/, { timeout: 60_000 });

  // The page goes away mid-benchmark: after the reload it is offered for resuming, and finishes.
  await page.reload();
  const resume = page.getByRole('button', { name: /^Resume benchmark / });
  await expect(resume).toBeVisible();
  await resume.click();
  await expect(progress).toHaveText('Done: 18 runs', { timeout: 120_000 });
  expect(await page.getByRole('alert').allTextContents()).toEqual([]);

  // Results: every analysis, with its plots drawn.
  const results = page.getByRole('region', { name: /^Results/ }).or(page.locator('section[aria-labelledby="results-title"]'));
  await expect(results.locator('table[data-table="axes-by-tutor"] tbody tr')).toHaveCount(3);
  for (const t of ['failure-modes', 'pass-k-seeds']) await expect(results.locator(`table[data-table^="${t}"]`).first()).toBeVisible();
  await expect(results.locator('svg[role="img"]').first()).toBeVisible({ timeout: 30_000 });
  expect(await results.locator('svg[role="img"]').count()).toBeGreaterThanOrEqual(5);
  await expect(results).toContainText('steady-learning reference');
  await expect(results).toContainText('llm/reactive/mock-tutor');
  await page.screenshot({ path: 'test-results/workbench-results.png', fullPage: true });
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // A run of the benchmark, judged and opened in the trace viewer: from a judged score to its verdicts.
  await page.getByRole('link', { name: 'Lab' }).click();
  const row = page.locator('tr[data-run-key^="gamer--homework-only__llm"]').first();
  await row.getByRole('button').first().click();
  await page.getByRole('button', { name: 'Judge this run' }).click();
  await expect(page.getByTestId('judge-progress')).toContainText('Judged:', { timeout: 60_000 });
  const axes = page.getByRole('table', { name: 'Axis scores' });
  await expect(axes.locator('[data-axis="gagne"]')).toHaveText('3.00');
  const viewer = page.getByRole('region', { name: 'Trace viewer' });
  await expect(viewer.getByRole('region', { name: 'Judge verdicts' }).locator('article.verdict').first()).toBeVisible();
  await axes.getByRole('button', { name: 'Show verdicts behind IVa. Gagné events' }).click();
  await expect(viewer.getByRole('region', { name: 'Events behind IVa. Gagné events' }).locator('article.verdict').first()).toBeVisible();
  // The viewer opens on the first day the tutor acted; from day 1, the next day is day 2.
  await viewer.getByLabel('Day', { exact: true }).selectOption('1');
  await viewer.getByRole('button', { name: 'Next day ›' }).click();
  await expect(viewer.getByRole('heading', { name: /^Day 2/ })).toBeVisible();
});
