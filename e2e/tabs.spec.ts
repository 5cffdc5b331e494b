import { test, expect } from '@playwright/test';
import { cliTrace, exportedTrace } from './traces';
import { benchmarkTutors } from './bench-form';

test('a run and a benchmark keep going, and keep reporting, while the user visits every other tab', async ({ page }) => {
  await page.goto('/#lab');
  await page.getByLabel('Tutor', { exact: true }).selectOption('withholder');
  await page.getByLabel('Seed', { exact: true }).fill('11');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText(/Day \d+ of 30/, { timeout: 60_000 });

  await page.getByRole('link', { name: 'Benchmark' }).click();
  await benchmarkTutors(page, ['answer-giver']);
  await page.getByLabel('Seeds', { exact: true }).fill('3');
  await page.getByLabel('gamer × homework-only').check();
  await page.getByLabel('steady-worker × self-directed').check();
  await page.getByRole('checkbox', { name: /Include the no-tutor control/ }).uncheck(); // the tutors alone (the control: e2e/value-added.spec.ts)
  await page.getByRole('button', { name: 'Start benchmark (2 runs)' }).click();
  await expect(page.getByTestId('bench-progress')).toHaveText(/of 2 runs/);

  // Every other view, and back: nothing is lost or marked interrupted.
  for (const tab of ['Play', 'Items', 'Calibration', 'LLM settings', 'Lab', 'Benchmark', 'Lab']) {
    await page.getByRole('link', { name: tab, exact: true }).click();
    await expect(page.getByRole('link', { name: tab, exact: true })).toHaveAttribute('aria-current', 'page');
  }
  await expect(page.getByText('interrupted')).toHaveCount(0);
  // Back on the Lab, the run is still live and its progress still moves (or, on a fast machine, it
  // has already finished in the background: its trace is checked against the CLI's below).
  const progress = page.getByTestId('progress-text');
  const before = (await progress.textContent()) ?? '';
  expect(before).toMatch(/^(Day \d+ of 30|Done)$/);
  if (before !== 'Done') await expect(progress).not.toHaveText(before, { timeout: 60_000 });
  await page.getByRole('link', { name: 'Benchmark', exact: true }).click();
  await expect(page.getByTestId('bench-progress')).toHaveText(/of 2 runs|Done: 2 runs/);

  // Then both finish with their results.
  await expect(page.getByTestId('bench-progress')).toHaveText('Done: 2 runs', { timeout: 180_000 });
  const summary = page.getByRole('table', { name: 'Sweep summary' });
  await expect(summary.locator('tbody tr')).toHaveCount(2);
  // The answer-giver leaks to these learners; the summary says so.
  await expect(summary.locator('tr[data-scenario="overall"] [data-axis="leakage"]')).not.toHaveText('0.0');
  await page.getByRole('link', { name: 'Lab', exact: true }).click();
  await expect(progress).toHaveText('Done', { timeout: 180_000 });
  await page.screenshot({ path: 'test-results/tabs-after.png', fullPage: true });
  const row = page.locator('tr[data-run-key^="default-prealgebra-after-school__withholder__s11@"]');
  await expect(row).toHaveAttribute('data-status', 'done');
  await expect(page.locator('tr[data-run-key^="gamer--homework-only__answer-giver__s3@"]')).toHaveAttribute('data-status', 'done');

  // The run that went on in the background is the CLI's run, byte for byte.
  expect((await exportedTrace(page, row)) === cliTrace(['--tutor', 'withholder', '--seed', '11'])).toBe(true);
});
