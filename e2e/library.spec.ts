import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MINI = 'scenarios/fixtures/mini-3day.yaml';

/** CLI traces of the 3-day fixture: three withholder seeds (a sweep), a planner run, and that planner run cut short. */
async function cliTraces(): Promise<{ files: string[]; cut: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'educlaw-library-'));
  await Promise.all([
    run('npx', ['tsx', 'src/cli/main.ts', 'sweep', '--scenarios', MINI, '--tutor', 'withholder', '--seeds', '1-3', '--jobs', '2', '--out', join(dir, 'sweep'), '--quiet']),
    run('npx', ['tsx', 'src/cli/main.ts', 'run', '--scenario', MINI, '--tutor', 'planner', '--seed', '1', '--tracer', 'bkt', '--out', join(dir, 'planner.jsonl'), '--quiet']),
  ]);
  // A trace cut short (a killed process): its first 60% of lines, no run_end.
  const lines = readFileSync(join(dir, 'planner.jsonl'), 'utf8').trimEnd().split('\n');
  const cut = join(dir, 'planner-cut.jsonl');
  writeFileSync(cut, `${lines.slice(0, Math.floor(lines.length * 0.6)).join('\n')}\n`);
  return { files: [1, 2, 3].map((s) => join(dir, 'sweep', 'traces', `mini-3day__withholder__s${s}.jsonl`)).concat(join(dir, 'planner.jsonl')), cut };
}

const rows = (page: Page) => page.locator('table[aria-label="Saved runs"] tr[data-run-key]');
const row = (page: Page, prefix: string) => page.locator(`tr[data-run-key^="${prefix}@"]`);

async function importTrace(page: Page, file: string) {
  await page.getByTestId('import-trace').setInputFiles(file);
  await expect(page.locator('.notice')).toContainText(`Imported ${file.split('/').pop()}`);
}

/** How far the page scrolls sideways (a wide table may scroll inside its panel), and the outermost elements that stick out. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > w + 1 && el.parentElement!.getBoundingClientRect().right <= w + 1)
      .map((el) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
    return { by: document.documentElement.scrollWidth - w, culprits: culprits.slice(0, 5) };
  });

test('the run library: import, filter, sort, group, partial and failed runs, delete with undo, storage, keyboard, phone and tablet', async ({ page }) => {
  test.setTimeout(240_000);
  const traces = cliTraces();
  await page.goto('/#lab');

  // Skip link: the first Tab stop; it moves focus to the content without changing the view.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#content')).toBeFocused();
  await expect(page).not.toHaveURL(/#content/);

  // A run made here, on the 3-day fixture (its run record gives persona, schedule, voice).
  await page.locator('input[type="file"][accept=".yaml,.yml"]').setInputFiles(MINI);
  await expect(page.locator('.notice')).toContainText('Loaded scenario mini-3day');
  await page.getByRole('checkbox', { name: /Then run the same student with no tutor/ }).uncheck(); // this journey counts and reloads its own runs (the control: e2e/value-added.spec.ts)
  await page.getByLabel('Tutor', { exact: true }).selectOption('planner');
  await page.getByLabel('Seed', { exact: true }).fill('9');
  await page.getByRole('button', { name: 'Start run' }).click();
  // Focus follows the run: Start is disabled while it runs, so focus goes to its progress.
  await expect(page.getByTestId('progress-text')).toBeFocused();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 60_000 });

  // A run that fails: the learner model it asks for cannot be loaded.
  await page.route('**/models/akt/akt_readout.onnx', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.getByLabel('Learner model', { exact: true }).selectOption('akt');
  await page.getByLabel('Seed', { exact: true }).fill('10');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Failed', { timeout: 60_000 });
  await page.getByLabel('Learner model', { exact: true }).selectOption('bkt');

  const { files, cut } = await traces;
  for (const f of [...files, cut]) await importTrace(page, f);
  await expect(rows(page)).toHaveCount(7);

  // Storage: the counts, and the browser's estimate (127.0.0.1 is a secure context, so Chromium gives one).
  const storage = page.getByTestId('storage-usage');
  await expect(storage).toContainText('7 runs');
  await expect(storage).toContainText(/\d[\d,]* events/);
  await expect(page.getByTestId('storage-estimate')).toContainText(/This site uses [\d.]+ [kMG]?B of the [\d.]+ [kMGT]?B the browser allows/);

  // Partial and failed runs are marked, and their scores are not shown as results.
  const cutRow = page.locator('tr[data-run-key^="mini-3day__planner__s1@"]').filter({ hasText: 'incomplete' });
  await expect(cutRow.getByTestId('run-status')).toHaveText('imported, incomplete');
  await expect(cutRow.getByTestId('run-gain')).toContainText('partial');
  await expect(cutRow.locator('td.gain')).toHaveAttribute('title', /not a result/);
  const failed = row(page, 'mini-3day__planner__s10');
  await expect(failed).toHaveAttribute('data-status', 'failed');
  await expect(failed.getByTestId('run-status')).toHaveText(/^failed: /);
  await expect(failed.getByTestId('run-gain')).toHaveText('—');
  const done = row(page, 'mini-3day__planner__s9');
  await expect(done.getByTestId('run-status')).toHaveText('done');
  await expect(done.getByTestId('run-gain')).not.toContainText('partial');
  await expect(done.getByTestId('run-gain')).toHaveText(/^[+-]\d+\.\d\d$/);

  // Filter by a fact, then search within it; the count says how many match.
  await page.locator('details.facets > summary').click();
  await page.getByTestId('facet-tutor').selectOption('withholder');
  await expect(rows(page)).toHaveCount(3);
  await expect(page.getByTestId('run-count')).toContainText('3 of 7 runs match');
  await page.getByTestId('run-search').fill('s2');
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, 'mini-3day__withholder__s2')).toHaveCount(1);
  await page.getByRole('button', { name: 'Clear search and filters' }).click();
  await expect(rows(page)).toHaveCount(7);
  await page.getByTestId('facet-status').selectOption('failed');
  await expect(rows(page)).toHaveCount(1);
  await page.getByTestId('facet-status').selectOption('');

  // Sort by seed, and by learning gain: the partial and failed runs come last whatever their scores.
  await page.getByTestId('run-sort').selectOption('seed');
  const seeds = await rows(page).evaluateAll((trs) => trs.map((tr) => Number(/__s(\d+)@/.exec(tr.getAttribute('data-run-key')!)![1])));
  expect(seeds).toEqual([...seeds].sort((a, b) => a - b));
  await page.getByTestId('run-sort').selectOption('gain-desc');
  const statuses = await rows(page).locator('[data-testid="run-status"]').allTextContents();
  const lastTwo = statuses.slice(-2);
  expect(lastTwo).toContain('imported, incomplete');
  expect(lastTwo.some((x) => x.startsWith('failed'))).toBe(true);
  await page.getByTestId('run-sort').selectOption('newest');

  // Group by tutor: a heading per tutor; inside the planner group each row says what sets it apart.
  await page.getByTestId('run-group').selectOption('tutor');
  await expect(page.locator('tr.group-row')).toHaveCount(2);
  await expect(page.locator('tr.group-row[data-group="planner"]')).toContainText('4 runs');
  await expect(page.locator('tr.group-row[data-group="withholder"]')).toContainText('3 runs');
  await expect(done.locator('.chips')).toContainText('voice templates');
  await expect(done.locator('.chips')).toContainText('persona help-seeker');
  await expect(failed.locator('.chips')).toContainText('learner akt');
  await expect(row(page, 'mini-3day__withholder__s1').locator('.chips')).toHaveCount(0); // the three imports differ in nothing the list knows but the seed
  await page.locator('section.library').screenshot({ path: 'test-results/library-1280.png' });
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await page.getByTestId('run-group').selectOption('none');

  // The export's file name says the tutor (with harness and model, for an LLM tutor) and the seed.
  const [download] = await Promise.all([page.waitForEvent('download'), done.getByRole('button', { name: /Export run/ }).click()]);
  expect(download.suggestedFilename()).toBe('mini-3day__planner__s9.jsonl');

  // Delete with Undo, by keyboard: focus goes to Undo; Enter puts the run back, focus on its row.
  const s2 = row(page, 'mini-3day__withholder__s2');
  await s2.getByRole('button', { name: /Delete run/ }).focus();
  await page.keyboard.press('Enter');
  await expect(s2).toHaveCount(0);
  await expect(rows(page)).toHaveCount(6);
  const undo = page.getByRole('button', { name: 'Undo' });
  await expect(undo).toBeFocused();
  await expect(page.getByTestId('undo-bar')).toContainText(/Deleted withholder · seed 2 \(\d+ events\)/);
  await page.keyboard.press('Enter');
  await expect(s2).toHaveCount(1);
  await expect(s2.locator('button.link')).toBeFocused();
  await expect(page.getByTestId('undo-bar')).toBeEmpty();
  // The restored run is whole: select it and its scores show.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('table', { name: 'Axis scores' })).toBeVisible();

  // Deleted and not undone: gone for good, after a reload too.
  await row(page, 'mini-3day__withholder__s3').getByRole('button', { name: /Delete run/ }).click();
  await page.getByRole('button', { name: /^Dismiss/ }).click();
  await expect(page.getByTestId('undo-bar')).toBeEmpty();
  await page.reload();
  await expect(rows(page)).toHaveCount(6);
  await expect(row(page, 'mini-3day__withholder__s3')).toHaveCount(0);
  await expect(row(page, 'mini-3day__withholder__s2')).toHaveCount(1);
  await expect(page.getByTestId('storage-usage')).toContainText('6 runs');

  // Keyboard through the Lab: every control of the library is reachable by Tab, in order.
  await page.getByTestId('run-search').focus();
  await page.keyboard.type('planner');
  await expect(rows(page)).toHaveCount(4);
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('run-sort')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('run-group')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.locator('details.facets > summary')).toBeFocused();
  await page.getByTestId('run-search').fill('');

  // A view change moves focus to the new view's main heading.
  await page.getByTestId('run-group').selectOption('tutor');
  await page.getByRole('link', { name: 'Items' }).click();
  await expect(page.getByRole('heading', { name: 'Item bank' })).toBeFocused();
  await page.getByRole('link', { name: 'Lab', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Run a tutor' })).toBeFocused();
  // The grouping is kept across the switch.
  await expect(page.getByTestId('run-group')).toHaveValue('tutor');
  await page.getByTestId('run-group').selectOption('none');

  // Tablet and phone: no view scrolls sideways.
  const views = ['lab', 'play', 'benchmark', 'items', 'calibration', 'settings'];
  const wide: string[] = [];
  for (const width of [820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const v of views) {
      await page.goto(`/#${v}`);
      await expect(page.locator('main h2').first()).toBeVisible();
      const over = await overflow(page);
      if (over.by > 0) wide.push(`${v} at ${width} px: ${over.by} px too wide (${over.culprits.join('; ')})`);
    }
    await page.goto('/#lab');
    await expect(rows(page)).toHaveCount(6);
    await page.screenshot({ path: `test-results/lab-top-${width}.png` });
    await page.locator('section.library').screenshot({ path: `test-results/library-${width}.png` });
  }
  expect(wide).toEqual([]);
});
