import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { exportedTrace } from './traces';
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchmarkTutors } from './bench-form';

test('a benchmark of one tutor over two library scenarios × two seeds, the summary, a reload, a run identical to the CLI sweep, and the same summary in a fresh profile after export and import', async ({ page, browser }) => {
  await page.goto('/#sweep'); // the old address of the Benchmark view still works
  await expect(page.getByRole('heading', { name: 'Run a benchmark' })).toBeVisible();
  // It opens on a first benchmark: the reference tutors and the no-tutor control on the built-in student, 3 seeds.
  for (const t of ['answer-giver', 'withholder', 'planner']) await expect(page.getByRole('checkbox', { name: new RegExp(`^${t} `) })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^Built-in: Pre-algebra, average learner, after school/ })).toBeChecked();
  await expect(page.getByLabel('Seeds', { exact: true })).toHaveValue('1,2,3');
  await expect(page.getByRole('button', { name: 'Start benchmark (12 runs)' })).toBeEnabled();
  await benchmarkTutors(page, ['withholder']);
  await page.getByLabel('Seeds', { exact: true }).fill('1,2');
  // The grid is one tab stop; the arrow keys move in it and Space ticks.
  await page.getByLabel('steady-worker × after-school').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByLabel('confused-productive × after-school')).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByLabel('confused-productive × self-directed')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByLabel('confused-productive × self-directed')).toBeChecked();
  await page.keyboard.press('Space');
  await expect(page.getByLabel('confused-productive × self-directed')).not.toBeChecked();
  await expect(page.locator('input[data-scenario][tabindex="0"]')).toHaveCount(1);
  await page.getByLabel('adversarial × after-school').check();
  await page.getByLabel('disengaged × weekend-warrior').check();
  await page.getByRole('checkbox', { name: /Include the no-tutor control/ }).uncheck(); // the tutors alone (the control: e2e/value-added.spec.ts)
  await expect(page.getByRole('button', { name: 'Start benchmark (4 runs)' })).toBeEnabled();
  await page.getByRole('button', { name: /Start benchmark/ }).click();
  await expect(page.getByTestId('bench-progress')).toHaveText('Done: 4 runs', { timeout: 90_000 });

  const summary = page.getByRole('table', { name: 'Sweep summary' });
  await expect(summary.locator('tbody tr')).toHaveCount(2);
  const adversarial = summary.locator('tr[data-scenario="adversarial--after-school"]');
  await expect(adversarial.locator('td').first()).toHaveText('2');
  // The withholder gives nothing away to the adversarial student: leakage and extraction stay at 0.
  await expect(adversarial.locator('[data-axis="leakage"]')).toHaveText('0.0 [0.0, 0.0]');
  await expect(adversarial.locator('[data-axis="extraction"]')).toHaveText('0.0 [0.0, 0.0]');
  await expect(summary.locator('tr[data-scenario="overall"] [data-axis="learningGain"]')).toContainText('[');
  await page.screenshot({ path: 'test-results/benchmark-after-run.png', fullPage: true });

  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // After a reload the latest benchmark's summary is shown again, from the stored benchmark.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Sweep summary' }).locator('tbody tr')).toHaveCount(2);
  await expect(page.getByRole('button', { name: /withholder × 2 scenarios × seeds 1,2/ })).toBeVisible();

  // The runs are in the Lab's run library; one exported is byte-identical to the CLI sweep's trace.
  await page.getByRole('link', { name: 'Lab' }).click();
  const row = page.locator('tr[data-run-key^="adversarial--after-school__withholder__s2@"]');
  await expect(row).toHaveCount(1);
  const exported = await exportedTrace(page, row);
  const out = mkdtempSync(join(tmpdir(), 'educlaw-sweep-'));
  execFileSync('npx', ['tsx', 'src/cli/main.ts', 'sweep', '--scenarios', 'scenarios/adversarial--after-school.yaml', '--tutor', 'withholder', '--seeds', '2', '--jobs', '1', '--kt-runtime', 'wasm', '--out', out, '--quiet'], { stdio: 'inherit' });
  const cli = readFileSync(join(out, 'traces', 'adversarial--after-school__withholder__s2.jsonl'), 'utf8');
  expect(exported.length).toBe(cli.length);
  expect(exported === cli).toBe(true);

  // Export the benchmark and import it in a fresh browser profile: the same summary.
  await page.getByRole('link', { name: 'Benchmark' }).click();
  const summaryText = await page.getByRole('table', { name: 'Sweep summary' }).innerText();
  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export benchmark (zip)' }).click()]);
  // The results on the page and the CLI's report of the exported zip agree, cell for cell.
  const pageAxes = await page.locator('table[data-table="axes-by-tutor"]').innerText();
  const reportDir = mkdtempSync(join(tmpdir(), 'educlaw-report-'));
  execFileSync('npx', ['tsx', 'src/cli/main.ts', 'report', (await zip.path())!, '--out', reportDir], { stdio: 'inherit' });
  const csv = readFileSync(join(reportDir, 'csv', 'axes-by-tutor.csv'), 'utf8');
  const header = csv.split('\n')[0]!.split(',');
  const lg = csv.split('\n').find((l) => l.startsWith('withholder,learningGain,'))!.split(',');
  const col = (name: string) => Number(lg[header.indexOf(name)]) * Number(lg[header.indexOf('display_scale')]);
  const cell = (await page.locator('table[data-table="axes-by-tutor"] tbody tr').filter({ hasText: 'withholder' }).locator('td').nth(1).innerText()).trim();
  expect(cell).toMatch(new RegExp(`^${col('mean').toFixed(2)} \\[${col('lo').toFixed(2)}, ${col('hi').toFixed(2)}\\]`));
  expect(readFileSync(join(reportDir, 'report.md'), 'utf8')).toContain('withholder');
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto('/#benchmark');
  await expect(other.getByText('No benchmark yet')).toBeVisible();
  await other.getByTestId('import-benchmark').setInputFiles((await zip.path())!);
  await expect(other.getByRole('status').filter({ hasText: 'Imported' })).toContainText('4 of 4 runs');
  await expect(other.getByRole('table', { name: 'Sweep summary' })).toBeVisible();
  expect(await other.getByRole('table', { name: 'Sweep summary' }).innerText()).toBe(summaryText);
  // The imported benchmark's results are the exporting profile's, cell for cell.
  await expect(other.locator('table[data-table="axes-by-tutor"]')).toBeVisible();
  expect(await other.locator('table[data-table="axes-by-tutor"]').innerText()).toBe(pageAxes);
  // Importing it again adds nothing.
  await other.getByTestId('import-benchmark').setInputFiles((await zip.path())!);
  await other.getByRole('link', { name: 'Lab' }).click();
  await expect(other.locator('tr[data-run-key^="adversarial--after-school__withholder__s2@"]')).toHaveCount(1);
  await fresh.close();
});
