/**
 * Journey: judge a benchmark from the Benchmark view. Two built-in tutors × 1 scenario × 2 seeds
 * (BKT, 3 days); a panel of two judges on a scripted chat-completions server (one answers in
 * scores, the other with a malformed reply: its verdicts are unscored, with the reason); the
 * number of calls shown before starting; a reload mid-judging, then Resume; the judged axes fill
 * the results and the run table. Screenshots at 390/820/1280; axe.
 */
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { startMockOpenAi, policyReply, type MockServer } from '../src/testing/mock-openai-server';
import { benchmarkTutors } from './bench-form';
import { mockProviderAndPanel } from './settings-form';

let srv: MockServer;
test.beforeAll(async () => {
  srv = await startMockOpenAi((req) => (req.model === 'judge-bad' ? { kind: 'chat', content: 'I liked it.' } : { kind: 'delay', ms: 400, then: policyReply(req) }));
});
test.afterAll(async () => {
  await srv.close();
});

test('judge a whole benchmark: calls before starting, progress, a reload and Resume, unscored verdicts with reasons, results filled in', async ({ page }) => {
  test.setTimeout(300_000);
  await mockProviderAndPanel(page, srv.url, 'sk-e2e-JUDGEBENCH-0000', [['judge-4', 'alpha'], ['judge-bad', 'beta']]);

  await page.getByRole('link', { name: 'Benchmark' }).click();
  await benchmarkTutors(page, ['withholder', 'answer-giver']);
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByLabel('Days', { exact: true }).fill('3');
  await page.getByLabel('Seeds', { exact: true }).fill('1,2');
  await page.locator('input[data-scenario="gamer--homework-only"]').check();
  await page.getByRole('checkbox', { name: /Include the no-tutor control/ }).uncheck(); // the tutors alone (the control: e2e/value-added.spec.ts)
  await page.getByRole('button', { name: 'Start benchmark (4 runs)' }).click();
  await expect(page.getByTestId('bench-progress')).toHaveText('Done: 4 runs', { timeout: 120_000 });

  // Before starting: the panel, and the number of calls.
  const judge = page.getByRole('region', { name: 'Judge this benchmark' });
  await expect(judge.getByRole('group', { name: 'Panel' }).getByRole('checkbox')).toHaveCount(2);
  await expect(judge.getByTestId('judge-plan')).toContainText(/\d+ judge calls for 4 finished runs × 2 judges/);
  await expect(judge.getByTestId('judge-plan')).toContainText('not measured yet');
  await judge.getByRole('button', { name: /^Judge 4 runs \(\d+ calls\)$/ }).click();
  const progress = judge.getByTestId('judge-bench-progress');
  await expect(progress).toHaveText(/^[1-3] of 4 runs judged/, { timeout: 120_000 });

  // A reload mid-judging: offered for resuming, and finishes.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Judge this benchmark' }).getByText(/The page was reloaded while judging/)).toBeVisible();
  await page.getByRole('button', { name: 'Resume judging' }).click();
  await expect(progress).toHaveText(/^Judged: 4 of 4 runs; \d+ verdicts scored, \d+ unscored/, { timeout: 180_000 });
  // Many unscored verdicts: the list is folded; open it.
  await judge.getByText(/^Unscored verdicts \(\d+\), with the reason$/).click();
  const unscored = judge.getByRole('table', { name: 'Unscored verdicts' });
  await expect(unscored.locator('tbody tr').first()).toContainText('judge-bad@mock');
  await expect(unscored.locator('tbody tr').first()).toContainText(/malformed|not JSON|JSON/i);
  // Once judged, the plan says what a call measured.
  await expect(judge.getByTestId('judge-plan')).toContainText(/measured: [\d,]+ \+ [\d,]+ per call/);

  // The results fill in: the judged axes are scored.
  const results = page.locator('section[aria-labelledby="results-title"]');
  await expect(results.locator('table[data-table="axes-by-tutor"]')).not.toContainText('unscored');
  await expect(page.getByRole('alert')).toHaveCount(0);
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  for (const [w, h] of [[390, 844], [820, 1180], [1280, 900]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await judge.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/bench-judge-${w}.png` });
  }

  // The run table has the judged axes as columns: sort by one.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Runs', exact: true }).click();
  const table = page.getByRole('table', { name: 'Run table' });
  await expect(table.locator('tbody tr')).toHaveCount(4);
  const gagne = table.locator('th[data-axis="gagne"]');
  await gagne.getByRole('button').click();
  await expect(gagne).toHaveAttribute('aria-sort', 'descending');
  await expect(table.locator('tbody tr').first().locator('td[data-axis="gagne"]')).toHaveText('4.00');
});
