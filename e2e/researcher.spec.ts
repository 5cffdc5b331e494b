/**
 * Journey: a researcher's day (issue 37). Two LLM tutors (two models on a scripted chat-completions
 * server this test starts) × 3 library scenarios × 2 seeds, with the no-tutor control, on BKT for 3
 * days; judged from the Benchmark view by a panel of two judges; the helpfulness scatter and the
 * failure modes fill in; the run table sorted by a judged axis; two runs side by side; a pass^k
 * failure followed to its runs. Screenshots at 390/820/1280; axe on the results and the run table.
 */
import { test, expect, type Page } from '@playwright/test';
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

async function axe(page: Page) {
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function shootEl(page: Page, name: string, el: ReturnType<Page['locator']>) {
  for (const [w, h] of [[390, 844], [820, 1180], [1280, 900]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await el.screenshot({ path: `test-results/${name}-${w}.png` });
  }
}

async function shoot(page: Page, name: string) {
  for (const [w, h] of [[390, 844], [820, 1180], [1280, 900]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `test-results/${name}-${w}.png`, fullPage: true });
  }
}

test('2 LLM tutors × 3 scenarios × 2 seeds, judged by a 2-judge panel from the Benchmark; scatter and failure modes fill in; sort, compare, and a pass^k failure to its runs', async ({ page }) => {
  test.setTimeout(480_000);
  await mockProviderAndPanel(page, srv.url, 'sk-e2e-RESEARCHER-0000', [['judge-4', 'alpha'], ['judge-2', 'beta']]);

  // The benchmark: two LLM tutors, no built-in one, with the no-tutor control (ticked by default).
  await page.getByRole('link', { name: 'Benchmark' }).click();
  // It opens on a first benchmark: the reference tutors with the control on the built-in student.
  await expect(page.getByRole('button', { name: 'Start benchmark (12 runs)' })).toBeEnabled();
  await shootEl(page, 'researcher-form-scenarios', page.locator('fieldset.grid-box'));
  await benchmarkTutors(page, []);
  for (const [i, model] of [[1, 'tutor-a'], [2, 'tutor-b']] as const) {
    await page.getByRole('button', { name: /Add an LLM tutor/ }).click();
    await page.getByRole('group', { name: `LLM tutor ${i}` }).getByLabel('Model').fill(model);
  }
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByLabel('Days', { exact: true }).fill('3');
  await page.getByLabel('Seeds', { exact: true }).fill('1,2');
  for (const id of ['adversarial--after-school', 'gamer--homework-only', 'steady-worker--self-directed']) await page.locator(`input[data-scenario="${id}"]`).check();
  await page.getByLabel('Runs at once (LLM runs)').fill('4');
  await expect(page.getByTestId('bench-control')).toContainText('(6 runs of the 18)');
  await page.getByRole('button', { name: 'Start benchmark (18 runs)' }).click();
  await expect(page.getByTestId('bench-progress')).toHaveText('Done: 18 runs', { timeout: 180_000 });
  expect(await page.getByRole('alert').allTextContents()).toEqual([]);

  // Before judging: the helpfulness scatter has nothing to plot, and "no curriculum" is undecided.
  const results = page.locator('section[aria-labelledby="results-title"]');
  const tradeoff = results.locator('section[data-section="tradeoff"]');
  await expect(tradeoff).toContainText('Helpfulness: no run has both scored, nothing to plot');
  await expect(tradeoff.locator('figure[data-plot="responsiveness-vs-helpfulness"]')).toHaveCount(0);
  const failure = results.locator('table[data-table="failure-modes"]');
  await expect(failure.getByRole('row', { name: /^llm\/reactive\/tutor-a / }).locator('td').nth(1)).toHaveText('undecided');

  // Judge it from here: the panel of two, the calls before starting, then the results fill in.
  const judge = page.getByRole('region', { name: 'Judge this benchmark' });
  await expect(judge.getByRole('group', { name: 'Panel' }).getByRole('checkbox')).toHaveCount(2);
  await expect(judge.getByTestId('judge-plan')).toContainText(/\d+ judge calls for \d+ finished runs × 2 judges/);
  await judge.getByRole('button', { name: /^Judge \d+ runs \(\d+ calls\)$/ }).click();
  await expect(judge.getByTestId('judge-bench-progress')).toHaveText(/^Judged: (\d+) of \1 runs; \d+ verdicts scored, 0 unscored/, { timeout: 240_000 });
  const scatter = tradeoff.locator('figure[data-plot="responsiveness-vs-helpfulness"]');
  await expect(scatter.locator('svg[role="img"]')).toBeVisible({ timeout: 30_000 });
  // Its counts: the tutor's 6 runs, plotted where both axes are scored (a run with no help request has no responsiveness).
  const counts = results.locator('table[data-table="responsiveness-vs-helpfulness-counts"]').getByRole('row', { name: /^llm\/reactive\/tutor-a / }).locator('td');
  await expect(counts.nth(0)).toHaveText('6');
  await expect(counts.nth(1)).toHaveText(/^[1-6]$/);
  await expect(counts.nth(3)).toHaveText('0'); // helpfulness unscored: none
  // "No curriculum" is decided once the panel has scored Gagné: a count of runs, not "undecided".
  await expect(failure.getByRole('row', { name: /^llm\/reactive\/tutor-a / }).locator('td').nth(1)).toHaveText(/^\d+\/6 \(\d+\.\d%\)$/);
  await expect(results.locator('figure[data-plot="failure-modes"] svg[role="img"]')).toBeVisible();
  // Each failure mode opens the runs in it: the two LLM tutors add nothing over no tutor in 3 days on these students.
  const modeRuns = results.locator('table[data-table="failure-mode-runs"]');
  await expect(modeRuns.getByRole('row', { name: /^llm\/reactive\/tutor-a / }).locator('td[data-mode="noValueAdded"]').getByRole('button')).toHaveText(/^Open (the run|\d runs)$/);
  // One name for a benchmark's files: the zip, the report and a table's CSV sort together.
  const stem = 'llm-reactive-tutor-a-llm-reactive-tutor-b-silent-3-scenarios-seeds-1-2';
  const names: string[] = [];
  for (const button of [page.getByRole('button', { name: 'Export benchmark (zip)' }), results.locator('button[data-export="html"]'), results.locator('button[data-csv="failure-modes"]')]) {
    const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
    names.push(dl.suggestedFilename());
  }
  expect(names).toEqual([`${stem}.benchmark.zip`, `${stem}.report.html`, `${stem}.failure-modes.csv`]);
  await axe(page);
  await results.scrollIntoViewIfNeeded();
  await shoot(page, 'researcher-results');

  // A pass^k failure, followed to its runs: the failing task lists its failed trials.
  const failing = page.getByTestId('failing-tasks');
  await expect(failing).toBeVisible();
  // Many failing tasks (the silent control fails every one: it adds nothing): the list is folded; open it.
  if (!(await failing.evaluate((d) => (d as HTMLDetailsElement).open))) await failing.locator('summary').click();
  await shootEl(page, 'researcher-pass-k', results.locator('section[data-section="pass-k"]'));
  await shootEl(page, 'researcher-failure-modes', results.locator('section[data-section="failure-modes"]'));
  const first = failing.locator('tbody tr').filter({ has: page.locator('th', { hasText: 'llm/reactive/tutor-a' }) }).first();
  const passed = (await first.locator('td.num').innerText()).trim(); // "c of n"
  const [c, n] = passed.split(' of ').map(Number) as [number, number];
  expect(n).toBeGreaterThan(c);
  const task = (await first.locator('td').first().innerText()).trim();
  expect(task).toMatch(/^(adversarial · after-school|gamer · homework-only|steady-worker · self-directed) · bkt · /); // the scenario by name, not its slug
  await first.getByRole('button').click();
  if (n - c === 1) {
    await expect(page).toHaveURL(/#lab$/);
  } else {
    await expect(page).toHaveURL(/#runs$/);
    await expect(page.getByTestId('runs-behind')).toContainText(`(${n - c})`);
    await expect(page.getByRole('table', { name: 'Run table' }).locator('tbody tr')).toHaveCount(n - c);
    await shootEl(page, 'researcher-runs-behind', page.locator('section[aria-labelledby="runs-title"]'));
    await page.getByRole('table', { name: 'Run table' }).locator('tbody tr').first().getByRole('button').first().click();
    await expect(page).toHaveURL(/#lab$/);
  }
  const viewer = page.getByRole('region', { name: 'Trace viewer' });
  await expect(viewer).toBeVisible();
  await expect(page.getByRole('table', { name: 'Axis scores' })).toBeVisible();

  // The run table of the benchmark: a column per axis, the judged ones included; sort by value added.
  await page.getByRole('link', { name: 'Benchmark', exact: true }).click();
  await page.getByRole('button', { name: 'Its runs in the run table' }).click();
  await expect(page).toHaveURL(/#runs$/);
  const table = page.getByRole('table', { name: 'Run table' });
  await expect(table.locator('tbody tr')).toHaveCount(18);
  await expect(table.locator('tbody tr').first().locator('td[data-axis="helpfulness"]')).toHaveText(/^\d\.\d\d$/);
  const va = table.locator('th[data-axis="valueAdded"]');
  await va.getByRole('button').click();
  await expect(va).toHaveAttribute('aria-sort', 'descending');
  const texts = await table.locator('tbody td[data-axis="valueAdded"]').allInnerTexts();
  const values = texts.map((t) => Number(t.trim()));
  expect(texts.filter((t, i) => !Number.isFinite(values[i]))).toEqual([]);
  expect(values).toEqual([...values].sort((x, y) => y - x));
  await expect(table.locator('tbody tr').first()).toContainText(/adversarial · after-school|gamer · homework-only|steady-worker · self-directed/);

  // Two runs side by side: the two tutors on the same student.
  await page.getByRole('searchbox', { name: 'Search' }).fill('gamer seed 1');
  await page.getByRole('checkbox', { name: /^Compare llm\/reactive\/tutor-a · gamer · homework-only · seed 1$/ }).check();
  await page.getByRole('checkbox', { name: /^Compare llm\/reactive\/tutor-b · gamer · homework-only · seed 1$/ }).check();
  await page.getByRole('button', { name: 'Compare 2 runs side by side' }).click();
  const cmp = page.getByTestId('compare');
  await expect(cmp.getByRole('figure', { name: 'Solve rate by day, per run' }).locator('canvas')).toHaveAttribute('data-series', '2');
  await expect(cmp.getByRole('table', { name: 'Axes of the compared runs' }).locator('tr[data-axis="helpfulness"] td')).toHaveCount(2);
  // Value added against the benchmark's control on the same student, as in the run table (not "n/a").
  await expect(cmp.getByRole('table', { name: 'Axes of the compared runs' }).locator('tr[data-axis="valueAdded"] td')).toHaveText([/\d\.\d\d/, /\d\.\d\d/]);
  await expect(cmp.locator('section.col')).toHaveCount(2);
  await axe(page);
  await shoot(page, 'researcher-compare');
});
