/**
 * Value added over the no-tutor control in the page: the Lab runs a finished run's control (the
 * silent tutor on the same student) once, shows the value added with both gains, and reuses the
 * stored control when the run is re-opened and for another tutor on the same student; a benchmark
 * includes the control by default, so its results have value added, head-to-heads with no tutor
 * and pass^k; unticked, the report says it has no control.
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchmarkTutors } from './bench-form';

const rows = (page: Page) => page.locator('table[aria-label="Saved runs"] tr[data-run-key]');
const PP = /[+-]\d+\.\d\d pp\/day/;
const num = Number;

async function shoot(page: Page, name: string, target: ReturnType<Page['locator']>) {
  for (const [w, h, size] of [[1280, 900, 'desktop'], [820, 1100, 'tablet'], [390, 844, 'phone']] as const) {
    await page.setViewportSize({ width: w, height: h });
    await target.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300); // the charts redraw at the new width
    await page.screenshot({ path: `test-results/${name}-${size}.png` });
    const box = await target.boundingBox();
    expect(box!.x + box!.width, `${name} fits ${w} px`).toBeLessThanOrEqual(w);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the Lab shows value added over the same student with no tutor, runs that control once, and reuses it', async ({ page }) => {
  test.setTimeout(180_000);
  // The built-in scenario on 4 days (loaded as a file), on BKT.
  const dir = mkdtempSync(join(tmpdir(), 'educlaw-va-'));
  const yaml = join(dir, 'built-in-4-days.yaml');
  writeFileSync(yaml, readFileSync('scenarios/default.yaml', 'utf8').replace(/^horizonDays: 30$/m, 'horizonDays: 4'));
  await page.goto('/#lab');
  await page.locator('input[type="file"][accept=".yaml,.yml"]').setInputFiles(yaml);
  await expect(page.locator('.notice')).toContainText('Loaded scenario default-prealgebra-after-school');
  await page.getByLabel('Tutor', { exact: true }).selectOption('planner');
  await page.getByLabel('Learner model', { exact: true }).selectOption('bkt');
  await expect(page.getByRole('checkbox', { name: /Then run the same student with no tutor/ })).toBeChecked();
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 60_000 });

  // The control runs after it, and the value added shows with both gains and its direction.
  const va = page.getByTestId('value-added');
  await expect(va).toHaveAttribute('data-kind', 'found', { timeout: 60_000 });
  const line = (await va.locator('strong').textContent())!;
  const m = /^Value added over no tutor: ([+-]\d+\.\d\d) pp\/day \(this run ([+-]\d+\.\d\d) pp\/day, the same student with no tutor ([+-]\d+\.\d\d) pp\/day, through day 4\)\. Higher is better\.$/.exec(line);
  expect(m, line).not.toBeNull();
  const [added, own, none] = [num(m![1]!), num(m![2]!), num(m![3]!)];
  expect(Math.abs(added - (own - none))).toBeLessThanOrEqual(0.011);
  await expect(page.getByTestId('control-status')).toContainText('default-prealgebra-after-school__silent__s42');
  // The axis table's value-added row says the same.
  const cell = page.getByRole('table', { name: 'Axis scores' }).locator('[data-axis="valueAdded"]');
  await expect(cell).toContainText(m![1]!);
  await expect(rows(page)).toHaveCount(2);
  await expect(page.locator('tr[data-run-key^="default-prealgebra-after-school__silent__s42@"]')).toHaveAttribute('data-status', 'done');
  await shoot(page, 'value-added-lab', va);
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // The control, opened: it is the control.
  await va.getByRole('button', { name: 'Open the no-tutor control run' }).click();
  await expect(va).toHaveAttribute('data-kind', 'self');
  await expect(va).toContainText('This run is the no-tutor control (the silent tutor): its value added is 0 by definition.');

  // Re-opened after a reload: the same number from the stored control, nothing runs again.
  await page.reload();
  await page.locator('tr[data-run-key^="default-prealgebra-after-school__planner__s42@"] button.link').click();
  await expect(va).toHaveAttribute('data-kind', 'found');
  await expect(va.locator('strong')).toHaveText(line);
  await page.waitForTimeout(1000);
  await expect(rows(page)).toHaveCount(2);

  // Another tutor on the same student reuses it: one more run, not two.
  await page.locator('input[type="file"][accept=".yaml,.yml"]').setInputFiles(yaml);
  await page.getByLabel('Tutor', { exact: true }).selectOption('withholder');
  await page.getByLabel('Learner model', { exact: true }).selectOption('bkt');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 60_000 });
  await expect(va).toHaveAttribute('data-kind', 'found');
  await expect(va.locator('strong')).toContainText(`the same student with no tutor ${m![3]!} pp/day`);
  await expect(rows(page)).toHaveCount(3);

  // Unticked: a new student's run says its value added is unscored, and runs its control on a click.
  await page.getByRole('checkbox', { name: /Then run the same student with no tutor/ }).uncheck();
  await page.getByLabel('Seed', { exact: true }).fill('5');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 60_000 });
  await expect(va.locator('strong')).toHaveText('Value added over no tutor: unscored: the same student has not been run with no tutor yet.');
  await expect(page.getByRole('table', { name: 'Axis scores' }).locator('[data-axis="valueAdded"]')).toContainText('n/a');
  await expect(rows(page)).toHaveCount(4);
  await va.getByRole('button', { name: 'Run the no-tutor control' }).click();
  await expect(va).toHaveAttribute('data-kind', 'found', { timeout: 60_000 });
  await expect(va.locator('strong')).toContainText(PP);
  await expect(rows(page)).toHaveCount(5);
});

test('a benchmark includes the no-tutor control by default: value added, head-to-heads and pass^k; unticked, it says there is none', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/#benchmark');
  const control = page.getByRole('checkbox', { name: /Include the no-tutor control \(silent\) on the same students/ });
  await expect(control).toBeChecked();
  await benchmarkTutors(page, ['withholder']);
  await page.getByLabel('Seeds', { exact: true }).fill('1,2');
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByLabel('Days', { exact: true }).fill('3');
  await page.getByLabel('adversarial × after-school').check();
  await expect(page.getByTestId('bench-control')).toContainText('(2 runs of the 4)');
  await shoot(page, 'value-added-benchmark-form', page.getByRole('group', { name: 'Tutors' }));
  await page.getByRole('button', { name: 'Start benchmark (4 runs)' }).click();
  await expect(page.getByTestId('bench-progress')).toHaveText('Done: 4 runs', { timeout: 90_000 });

  const results = page.locator('section[aria-labelledby="results-title"]');
  const va = results.locator('table[data-table="value-added"]');
  await expect(va).toBeVisible();
  // The tutor's two runs each have their control (the column "With a control"), on two students.
  const withholder = va.getByRole('row', { name: /^withholder / });
  await expect(withholder.locator('td').nth(1)).toHaveText('2');
  await expect(withholder.locator('td').nth(2)).toHaveText('2');
  await expect(withholder.locator('td').nth(5)).toHaveText(/^-?\d+\.\d\d \[-?\d+\.\d\d, -?\d+\.\d\d\] \(n=2, s=2\)$/);
  // The control is in the set, its own value added 0.
  await expect(va.getByRole('row', { name: /^silent / }).locator('td').nth(5)).toHaveText('0.00 [0.00, 0.00] (n=2, s=2)');
  await expect(results.locator('section[data-section="value-added"]')).not.toContainText('No run in this set has its no-tutor control');
  await expect(results.locator('table[data-table="yardsticks"]')).toContainText('vs no tutor (silent)');
  await expect(results.locator('section[data-section="pass-k"]')).toContainText('valueAdded > 0.0005');
  // The table scrolls sideways inside its region on narrow screens; the region fits.
  await shoot(page, 'value-added-benchmark', results.getByRole('region', { name: /^Value added over no tutor .*\(scrolls sideways\)$/ }));

  // Unticked: the tutors alone, and the report says there is no control.
  await control.uncheck();
  await page.getByRole('button', { name: 'Start benchmark (2 runs)' }).click();
  await expect(page.getByTestId('bench-progress')).toHaveText('Done: 2 runs', { timeout: 90_000 });
  await expect(results.locator('section[data-section="value-added"]')).toContainText('No run in this set has its no-tutor control');
  // Without the oracle the curves have no steady-learning reference, and say why.
  const curves = results.locator('table[data-table="curve-summary"]');
  await expect(curves.getByRole('row', { name: /^withholder / })).toContainText('no oracle run on the same student');

  // The oracle ticked: its curve on the same students is the reference.
  await page.getByRole('checkbox', { name: /Include the oracle on the same students/ }).check();
  await page.getByRole('button', { name: 'Start benchmark (4 runs)' }).click();
  await expect(page.getByTestId('bench-progress')).toHaveText('Done: 4 runs', { timeout: 90_000 });
  const row = curves.getByRole('row', { name: /^withholder / });
  await expect(row).not.toContainText('no oracle run');
  // Share of the reference gain (a percent; the oracle's own is 100%).
  await expect(row.locator('td').nth(4)).toHaveText(/^-?\d+\.\d%/);
  await expect(curves.getByRole('row', { name: /^oracle / }).locator('td').nth(4)).toHaveText(/^100\.0% \[100\.0, 100\.0\]/);
});
