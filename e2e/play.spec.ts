import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportedTrace } from './traces';

test('an educator plays three days with every action, reloads and continues, ends, compares with the built-in tutors, and the CLI scores the export the same', async ({ page }) => {
  await page.goto('/#play');
  await expect(page.getByRole('heading', { name: 'Play the tutor' })).toBeVisible();
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByLabel('Seed', { exact: true }).fill('5');
  await page.getByLabel('Days', { exact: true }).fill('3');
  await page.getByLabel('Your name (optional, recorded with the run)').fill('Ms <b>Rivera</b>');
  await page.getByRole('button', { name: 'Start teaching' }).click();
  const wake = page.getByTestId('wake-text');
  await expect(wake).toContainText('of the 3-day course');

  // Read like an agent: the gradebook panel is a tool call of this turn.
  await page.getByRole('button', { name: 'Gradebook' }).click();
  await expect(page.getByTestId('read-result')).toContainText('Equation Solving');
  await expect(page.getByTestId('turn-status')).toContainText('1 tool calls');

  // Every write action and a message, each checked by the same tools and rules as an agent's.
  await page.getByLabel('Message', { exact: true }).fill('Hi! Today we practise equations. <script>alert(1)</script>');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByText('Sent.')).toBeVisible();
  await page.getByLabel('Chosen items').check();
  await page.getByRole('button', { name: /List this skill's items/ }).click();
  await page.locator('.pick').first().getByRole('checkbox').check();
  await page.locator('.pick').first().getByRole('button', { name: 'Preview' }).click();
  await expect(page.locator('.pick article.item').first()).toBeVisible();
  await page.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(page.getByText(/^Assigned: /)).toBeVisible();
  await page.getByLabel('Level', { exact: true }).selectOption('1');
  await page.getByRole('button', { name: 'Set level' }).click();
  await expect(page.getByText('Level set.')).toBeVisible();
  await page.getByLabel('Title', { exact: true }).fill('Undo the last step first');
  await page.getByLabel('Body ($…$ for math)').fill('To solve $2x + 3 = 11$, subtract 3 from both sides, then divide by 2.');
  await expect(page.getByLabel('Preview').locator('.katex').first()).toBeVisible();
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(page.getByText('Posted.')).toBeVisible();
  // A bad call gets the tool's own error next to its form, and nothing breaks.
  await page.getByLabel('About item (optional id)').fill('no-such-item');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'NOT_FOUND' })).toContainText('no item "no-such-item"');
  // The instructor's view is off until switched on (and switching is recorded).
  await expect(page.getByTestId('instructor-view')).toHaveCount(0);
  await page.getByLabel(/Instructor's view/).check();
  await expect(page.getByTestId('instructor-view')).toContainText('Mastery');
  await page.screenshot({ path: 'test-results/play-turn.png', fullPage: true });
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await page.getByRole('button', { name: 'End my turn' }).click();

  // An explicit silence on the next wake, then skip to day 2.
  await expect(page.getByTestId('end-turn')).toHaveText('Stay silent / end my turn');
  await page.getByTestId('end-turn').click();
  await page.getByRole('button', { name: 'Skip to tomorrow' }).click();
  await expect(page.getByRole('heading', { name: /Your turn · day [23] of 3/ })).toBeVisible();

  // The page goes away mid-run; the played run is kept and continues where it was.
  await page.reload();
  await page.getByRole('button', { name: /^Continue human\/Ms <b>Rivera<\/b>/ }).click();
  await expect(page.getByTestId('play-resumed')).toContainText('stored events replayed');
  await expect(wake).toBeVisible();
  await page.getByLabel('Message', { exact: true }).fill('Welcome back. What is the first step?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByText('Sent.')).toBeVisible();
  await page.getByRole('button', { name: 'Finish (skip to the end)' }).click();

  // The end: scores, then the built-in tutors on exactly this learner, seed, days and wake rule.
  await expect(page.getByRole('heading', { name: 'Your scores' })).toBeVisible({ timeout: 60_000 });
  const axes = page.getByRole('table', { name: 'Axis scores' });
  await expect(axes.locator('[data-axis="learningGain"]')).toContainText('pp/day');
  await page.getByRole('button', { name: 'Run the built-in tutors on this learner and seed' }).click();
  const compare = page.getByRole('table', { name: 'Comparison on this learner and seed' });
  await expect(compare.locator('tbody tr')).toHaveCount(4, { timeout: 60_000 });
  await expect(compare.locator('tr[data-tutor="answer-giver"] [data-axis="leakage"]')).not.toHaveText('…');
  await page.screenshot({ path: 'test-results/play-end.png', fullPage: true });

  // Export from the Lab and score with the CLI: the same numbers as the page shows.
  const shown = Object.fromEntries(await Promise.all(['learningGain', 'responsiveness', 'leakage', 'independence'].map(async (id) => [id, (await axes.locator(`[data-axis="${id}"]`).textContent())!.trim()] as const)));
  await page.getByRole('button', { name: /Open my run in the Lab/ }).click();
  const row = page.locator('tr[data-run-key^="default-prealgebra-after-school__human__s5@"]');
  await expect(row).toHaveAttribute('data-status', 'done');
  const text = await exportedTrace(page, row);
  // The display name is kept as typed, as text; the page never ran the script in the message.
  expect(text).toContain('"name":"Ms <b>Rivera</b>"');
  const file = join(mkdtempSync(join(tmpdir(), 'educlaw-play-')), 'played.jsonl');
  writeFileSync(file, text);
  const cli = execFileSync('npx', ['tsx', 'src/cli/main.ts', 'score', file], { encoding: 'utf8' });
  for (const [id, value] of Object.entries(shown)) expect(cli, id).toContain(value);
  const report = JSON.parse(execFileSync('npx', ['tsx', 'src/cli/main.ts', 'score', file, '--json'], { encoding: 'utf8' }));
  expect(report.tutor).toBe('human/Ms <b>Rivera</b>');
  expect(report.actions.assign_items + report.actions.adjust_level + report.actions.provide_content).toBeGreaterThanOrEqual(3);
  expect(report.actions.send_message).toBeGreaterThanOrEqual(2);
  expect(report.endReason).toBe('horizon_reached');
});
