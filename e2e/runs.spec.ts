/**
 * Journey: the run table and runs side by side. Three CLI traces (the answer-giver, the hint-giver
 * and the planner on the 3-day fixture, BKT) imported in the Lab; in Runs, sort by an axis, filter
 * by a range, tick two runs and compare them (curves, axes, days aligned with the leak flag where
 * it happened), then follow an event into the trace viewer. Screenshots at 390/820/1280; axe.
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function trace(tutor: string): string {
  const out = join(mkdtempSync(join(tmpdir(), 'educlaw-runs-')), `${tutor}.jsonl`);
  execFileSync('npx', ['tsx', 'src/cli/main.ts', 'run', '--scenario', 'scenarios/fixtures/mini-3day.yaml', '--tutor', tutor, '--seed', '5', '--tracer', 'bkt', '--out', out, '--quiet'], { stdio: 'inherit' });
  return out;
}

async function axe(page: Page) {
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('sort the run table by an axis, filter by a range, compare two runs side by side, follow an event to the trace', async ({ page }) => {
  const files = ['answer-giver', 'withholder', 'planner'].map(trace);
  await page.goto('/#lab');
  for (const f of files) {
    await page.getByTestId('import-trace').setInputFiles(f);
    await expect(page.getByRole('status')).toContainText(`Imported ${f.split('/').pop()}`);
  }
  await page.getByRole('link', { name: 'Runs', exact: true }).click();
  const table = page.getByRole('table', { name: 'Run table' });
  await expect(table.locator('tbody tr')).toHaveCount(3);
  // A column per axis; sorting by leakage (highest first) puts the answer-giver on top.
  const leakHeader = table.locator('th[data-axis="leakage"]');
  await leakHeader.getByRole('button').click();
  await expect(leakHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(table.locator('tbody tr').first()).toContainText('answer-giver');
  await leakHeader.getByRole('button').click();
  await expect(leakHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(table.locator('tbody tr').last()).toContainText('answer-giver');
  // A range on leakage (in %): only runs that gave nothing away.
  await page.getByLabel('Axis', { exact: true }).selectOption('leakage');
  await page.getByLabel(/^Answer leakage: at most/).fill('0');
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(table.locator('tbody tr')).toHaveCount(3);

  await page.getByRole('checkbox', { name: /^Compare answer-giver/ }).check();
  await page.getByRole('checkbox', { name: /^Compare withholder/ }).check();
  await page.getByRole('button', { name: 'Compare 2 runs side by side' }).click();
  const cmp = page.getByTestId('compare');
  await expect(cmp.getByRole('figure', { name: 'Solve rate by day, per run' }).locator('canvas')).toHaveAttribute('data-series', '2');
  await expect(cmp.getByRole('table', { name: 'Axes of the compared runs' }).locator('tr[data-axis="leakage"] td')).toHaveText([/100\.0%/, /0\.0%/]);
  // The days line up: find the day the answer-giver gave an answer away, flagged where it happened.
  const daySelect = cmp.getByLabel('Day to compare');
  let found = false;
  for (const d of ['1', '2', '3']) {
    await daySelect.selectOption(d);
    if ((await cmp.locator('li.flagged', { hasText: 'gave an answer away' }).count()) > 0) {
      found = true;
      break;
    }
  }
  expect(found).toBe(true);
  await expect(cmp.locator('section.col')).toHaveCount(2);
  await axe(page);
  for (const [w, h] of [[390, 844], [820, 1180], [1280, 900]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `test-results/runs-compare-${w}.png`, fullPage: true });
  }
  await cmp.locator('li.flagged', { hasText: 'gave an answer away' }).first().getByRole('button').click();
  await expect(page).toHaveURL(/#lab$/);
  await expect(page.getByRole('region', { name: 'Trace viewer' }).locator('li.highlight')).toContainText('gave an answer away');
});
