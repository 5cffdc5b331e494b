import { test, expect } from '@playwright/test';
import { cliTrace, exportedTrace } from './traces';

test('a run cut short by a reload is resumed and ends with the same trace as the CLI; a second tab leaves it alone', async ({ page, context }) => {
  await page.goto('/#lab');
  await page.getByLabel('Tutor', { exact: true }).selectOption('planner');
  await page.getByLabel('Seed', { exact: true }).fill('7');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText(/Day (6|7|8|9|1\d) of 30/, { timeout: 60_000 });

  // A second tab of the app sees the run as live elsewhere: it neither marks it interrupted nor offers to resume it.
  const other = await context.newPage();
  await other.goto('/#lab');
  const otherRow = other.locator('tr[data-run-key^="default-prealgebra-after-school__planner__s7@"]');
  await expect(otherRow).toContainText('running in another tab');
  await expect(otherRow.getByRole('button', { name: /Resume run/ })).toHaveCount(0);
  await other.close();

  // The page goes away mid-run: what was stored is kept and the run is offered for resuming.
  await page.reload();
  const row = page.locator('tr[data-run-key^="default-prealgebra-after-school__planner__s7@"]');
  await expect(row).toHaveAttribute('data-status', 'interrupted');
  await expect(row).toContainText('interrupted');
  await row.getByRole('button', { name: /Resume run/ }).click();
  await expect(page.getByTestId('resume-status')).toContainText('stored events replayed', { timeout: 60_000 });
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 120_000 });
  await expect(row).toHaveAttribute('data-status', 'done');
  await expect(page.getByRole('table', { name: 'Axis scores' })).toBeVisible();
  await page.screenshot({ path: 'test-results/resume-after.png', fullPage: true });

  // The resumed trace is the uninterrupted one, byte for byte.
  const exported = await exportedTrace(page, row);
  const cli = cliTrace(['--tutor', 'planner', '--seed', '7']);
  expect(exported.length).toBe(cli.length);
  expect(exported === cli).toBe(true);
});
