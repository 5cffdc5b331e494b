import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportedTrace } from './traces';

/** Starts a short played run on the built-in student (BKT, so it is quick). */
async function start(page: Page, opts: { days: number; seed: number; name?: string }) {
  await page.goto('/#play');
  await expect(page.getByRole('heading', { name: 'Play the tutor' })).toBeVisible();
  await page.getByText('Research settings').click();
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByLabel('Seed', { exact: true }).fill(String(opts.seed));
  await page.getByLabel('Days', { exact: true }).fill(String(opts.days));
  if (opts.name) await page.getByLabel('Your name (optional, recorded with the run)').fill(opts.name);
  await page.getByRole('button', { name: 'Start teaching' }).click();
  await expect(page.getByTestId('wake-text')).toBeVisible({ timeout: 60_000 });
}

/** Ends turns (saying nothing) until the learner asks for help. */
async function untilHelp(page: Page) {
  const wake = page.getByTestId('wake-text');
  for (let i = 0; i < 60; i++) {
    if ((await wake.textContent())?.includes('asks for help')) return;
    // The next turn may come in the same minute (a help request right after logging in): wait for the wake or the time to change.
    const now = async () => `${await page.locator('#turn-title').textContent()} | ${await wake.textContent()}`;
    const turn = await now();
    await page.getByTestId('end-turn').click();
    await expect.poll(now).not.toBe(turn);
    await expect(wake).toBeVisible();
  }
  throw new Error('no help request in 60 turns');
}

async function noSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(client);
}

async function axe(page: Page) {
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Reply, then post a worked example of a similar problem, and see both in the conversation. */
async function replyAndWorkedExample(page: Page) {
  await page.getByLabel('Your reply to Sam').fill('Look at the problem again: what is $75\\%$ as a fraction? <script>alert(1)</script>');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('act-outcome')).toHaveText('Sent to Sam.');
  await page.getByRole('button', { name: 'Worked example' }).click();
  await page.getByRole('button', { name: "Start from a similar problem's worked solution" }).click();
  await page.getByRole('list', { name: 'Similar problems' }).getByRole('button', { name: 'Work this one' }).first().click();
  await expect(page.getByLabel('The worked example ($…$ for math)')).toHaveValue(/\n1\. /);
  await expect(page.getByLabel('Title')).toHaveValue('A similar problem, worked');
  await page.getByRole('button', { name: 'Post it' }).click();
  await expect(page.getByTestId('act-outcome')).toHaveText('Worked example posted to Sam.');
  const convo = page.getByRole('region', { name: 'Conversation with Sam' });
  await expect(convo.locator('[data-kind="tutor"]').last()).toContainText('as a fraction?');
  await expect(convo.locator('[data-kind="tutor"]').last().locator('.katex').first()).toBeVisible();
  await expect(convo.locator('[data-kind="content"]').last()).toContainText(/You posted a worked example on .+A similar problem, worked/s);
}

test('a teacher at tablet size: a help request with its problem on screen, a reply and a worked example, a skipped day and its digest, a reload, Finish that warns, and a debrief against no tutor and the built-in tutors; the CLI scores the export the same', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 820, height: 1180 });
  await start(page, { days: 5, seed: 5, name: 'Ms <b>Rivera</b>' });
  // The first turn's heading has the focus; nothing hidden from an agent is on the page.
  await expect(page.locator('#turn-title')).toBeFocused();
  await expect(page.getByText(/probe|solve rate|learning gain|mastery/i).filter({ visible: true })).toHaveCount(0);
  await expect(page.getByTestId('instructor-view')).toHaveCount(0);

  await untilHelp(page);
  // The problem is on screen without a click, rendered, with Sam's answers and words; no read was made for it.
  const card = page.getByTestId('problem-card');
  await expect(card.getByRole('heading', { name: 'The problem Sam is on' })).toBeVisible();
  await expect(card.locator('article.item .stem')).toBeVisible();
  // Engine 3's learner may ask before trying: the card then says there is no answer yet.
  await expect(card).toContainText(/Sam's answers|No answer yet\./);
  await expect(card).toContainText('asking for help');
  await expect(card.getByText('Answer:')).toHaveCount(0);
  await expect(page.getByTestId('turn-announcement')).toContainText('asks for help');
  await expect(page.locator('#turn-title')).toBeFocused();
  await page.screenshot({ path: 'test-results/play-820-help.png', fullPage: true });
  await axe(page);

  await replyAndWorkedExample(page);
  // Researchers can see the tool behind each act; teachers see words.
  const convo = page.getByRole('region', { name: 'Conversation with Sam' });
  await expect(convo.locator('code.tool')).toHaveCount(0);
  await page.getByLabel('Researcher details (tool names, ids, raw results)').check();
  await expect(convo.locator('[data-kind="tutor"] code.tool').last()).toHaveText('send_message');
  await expect(page.getByText(/Turn \d+: 4 tool calls, 46 left; 2 actions/)).toBeVisible();
  await page.getByLabel('Researcher details (tool names, ids, raw results)').uncheck();
  // The record in a teacher's words.
  await page.getByRole('button', { name: 'Assignments', exact: true }).click();
  await expect(page.getByTestId('record-look')).toContainText(/Homework of \w+day/);
  await expect(page.getByTestId('record-look')).toContainText(/due \w+day 9 pm/);
  await expect(page.getByTestId('record-look')).toContainText(/(open|done|missed): \d of 3 solved/);
  await expect(page.getByTestId('record-look')).not.toContainText(/minute|s\d+-L\d/);
  await page.getByRole('button', { name: 'Gradebook', exact: true }).click();
  await expect(page.getByTestId('record-look')).toContainText(/\d+ of \d+ right|not tried yet/);
  // Practice where Sam struggles, chosen from rendered problems (the gradebook read ordered the skills, weakest first).
  await page.getByRole('button', { name: 'Assign practice' }).click();
  await expect(page.getByLabel('Skill', { exact: true }).locator('option').first()).toContainText('(this problem)');
  await expect(page.getByLabel('Skill', { exact: true }).locator('option').nth(1)).toContainText(/\(\d+ of \d+ right|not tried yet\)/);
  await page.getByLabel('Choose them myself').check();
  await page.getByRole('button', { name: /^Show .+ problems$/ }).click();
  const picker = page.getByRole('group', { name: /Problems \(\d chosen\)/ });
  await expect(picker.locator('article.item').first()).toBeVisible();
  await picker.getByRole('checkbox').nth(0).check();
  await picker.getByRole('checkbox').nth(1).check();
  await expect(page.getByRole('group', { name: 'Problems (2 chosen)' })).toBeVisible();
  await page.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(page.getByTestId('act-outcome')).toHaveText('Practice assigned to Sam.');
  await expect(convo.locator('[data-kind="action"]').last()).toContainText(/You assigned 2 problems \(.+\), due \w+day 9 pm \(tomorrow\)/);
  await page.screenshot({ path: 'test-results/play-820-taught.png', fullPage: true });
  await axe(page);
  await page.getByRole('button', { name: 'End my turn' }).click();
  await expect(page.locator('#turn-title')).toBeFocused();

  // Skip a day: the digest says what happened meanwhile.
  await page.getByRole('button', { name: 'Skip to tomorrow' }).click();
  const digest = page.getByTestId('digest');
  await expect(digest).toContainText('While you skipped ahead');
  await expect(digest).toContainText(/Sam logged in \d+ times?\./);
  await expect(digest).toContainText(/(No deadline was missed\.|\d deadlines? missed:)/);
  await expect(digest).toContainText(/(No help requests\.|\d+ help requests? left unanswered)/);
  await expect(convo.locator('[data-kind="skipped"]').last()).toContainText('You skipped ahead to');
  await page.screenshot({ path: 'test-results/play-820-digest.png', fullPage: true });

  // The page goes away; the played run is kept and continues where it was, saying so once.
  await page.reload();
  await expect(page.getByText(/stopped on \w+day, day \d at .*, \d+ events stored/)).toBeVisible();
  await page.getByRole('button', { name: /^Continue Pre-algebra, average learner, after school, taught by Ms <b>Rivera<\/b>, seed 5$/ }).click();
  await expect(page.getByTestId('play-resumed')).toContainText('Continued where you stopped');
  await expect(page.getByTestId('wake-text')).toBeVisible();

  // Finish: what counts against you, before anything runs.
  await page.getByRole('button', { name: 'Finish…' }).click();
  const dialog = page.getByRole('dialog', { name: /Finish teaching Sam/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'End the run here' })).toBeVisible();
  await expect(dialog.getByRole('heading', { name: /Let the \d remaining days? run out with no tutor/ })).toBeVisible();
  await expect(dialog).toContainText(/scored on the \d days? played/);
  await expect(dialog).toContainText('counts against your responsiveness');
  await page.screenshot({ path: 'test-results/play-820-finish.png' });
  await axe(page);
  await dialog.getByRole('button', { name: 'Keep teaching' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Finish…' }).click();
  await dialog.getByTestId('end-here').click();

  // The debrief: scores with yardsticks run on exactly this learner, value added, the moments, the trace.
  const debrief = page.getByTestId('debrief');
  await expect(debrief.getByRole('heading', { name: /How it went: \d days? with Sam/ })).toBeFocused({ timeout: 60_000 });
  await expect(debrief).toContainText(/You ended the run on \w+day, day \d; it is scored on the \d days? played\./);
  const table = page.getByRole('table', { name: 'Your scores and their yardsticks' });
  for (const t of ['silent', 'planner', 'withholder', 'answer-giver']) await expect(table.locator(`tr[data-tutor="${t}"] [data-axis="leakage"]`)).not.toHaveText('…', { timeout: 90_000 });
  await expect(table.locator('tr[data-tutor="answer-giver"] [data-axis="leakage"]')).toHaveText('100.0%');
  await expect(page.getByTestId('value-added')).toContainText(/Value added by your teaching: [+-−]?\d+\.\d\d pp\/day \(with you .* with no tutor .*\)/);
  const moments = page.getByTestId('moments');
  await expect(moments.locator('[data-kind="help-answered"]').first()).toContainText("you answered Sam's help request");
  await expect(moments.locator('[data-kind^="practice"]').first()).toContainText(/your practice on .+: \d of 2 solved/);
  await moments.locator('[data-kind="help-answered"]').first().getByRole('button', { name: 'Show in the trace' }).click();
  await expect(page.locator('li.row.highlight[data-type="message"]')).toBeFocused();
  await page.screenshot({ path: 'test-results/play-820-debrief.png', fullPage: true });
  await axe(page);

  // Export from the Lab and score with the CLI: the same numbers as the debrief shows for you.
  const shown = Object.fromEntries(await Promise.all(['learningGain', 'responsiveness', 'leakage', 'independence'].map(async (id) => [id, (await table.locator(`tr[data-tutor="you"] [data-axis="${id}"]`).textContent())!.trim()] as const)));
  await page.getByRole('button', { name: /Open the run in the Lab/ }).click();
  const row = page.locator('tr[data-run-key^="default-prealgebra-after-school__human__s5@"]');
  await expect(row).toHaveAttribute('data-status', 'done');
  const text = await exportedTrace(page, row);
  expect(text).toContain('"name":"Ms <b>Rivera</b>"');
  const file = join(mkdtempSync(join(tmpdir(), 'educlaw-play-')), 'played.jsonl');
  writeFileSync(file, text);
  const cli = execFileSync('npx', ['tsx', 'src/cli/main.ts', 'score', file], { encoding: 'utf8' });
  for (const [id, value] of Object.entries(shown)) expect(cli, id).toContain(value);
  const report = JSON.parse(execFileSync('npx', ['tsx', 'src/cli/main.ts', 'score', file, '--json'], { encoding: 'utf8' }));
  expect(report.tutor).toBe('human/Ms <b>Rivera</b>');
  expect(report.endReason).toBe('ended_by_tutor');
  expect(report.complete).toBe(true);
  expect(report.actions.provide_content).toBeGreaterThanOrEqual(1);
  expect(report.actions.send_message).toBeGreaterThanOrEqual(1);
});

test('a teacher on a phone: no sideways scroll, the problem first, the conversation, the digest, and the debrief', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await start(page, { days: 4, seed: 5 });
  await noSidewaysScroll(page);
  await untilHelp(page);
  // On a phone the problem comes right after what woke you, before the conversation.
  const card = page.getByTestId('problem-card');
  await expect(card.locator('article.item .stem')).toBeVisible();
  const [cardTop, convoTop] = await Promise.all([card.boundingBox(), page.getByRole('region', { name: 'Conversation with Sam' }).boundingBox()]);
  expect(cardTop!.y).toBeLessThan(convoTop!.y);
  await noSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/play-390-help.png', fullPage: true });
  await replyAndWorkedExample(page);
  // Easier: the level shown follows the change at once.
  await page.getByRole('button', { name: 'Easier or harder' }).click();
  const level = page.locator('[data-act="level"]');
  await expect(level).toContainText(/is at level 2 of 3/);
  await level.getByRole('button', { name: 'Make it easier' }).click();
  await expect(page.getByTestId('act-outcome')).toHaveText(/ is now at level 1 \(easiest\)\.$/);
  await expect(level).toContainText(/is at level 1 \(easiest\) of 3/);
  await expect(level.getByRole('button', { name: 'Make it easier' })).toBeDisabled();
  await page.getByRole('button', { name: 'Assignments', exact: true }).click();
  await expect(page.getByTestId('record-look')).toContainText(/solved/);
  await noSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/play-390-taught.png', fullPage: true });
  await axe(page);
  await page.getByRole('button', { name: 'End my turn' }).click();
  await page.getByRole('button', { name: 'Skip to tomorrow' }).click();
  await expect(page.getByTestId('digest')).toContainText('While you skipped ahead');
  await noSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/play-390-digest.png', fullPage: true });
  // The instructor's view is off until switched on, and switching it is part of the record.
  await expect(page.getByTestId('instructor-view')).toHaveCount(0);
  await page.getByLabel(/Instructor's view/).check();
  await expect(page.getByTestId('instructor-view')).toContainText('Mastery');
  await expect(page.getByRole('region', { name: 'Conversation with Sam' }).locator('[data-kind="note"]').last()).toHaveText(/You switched the instructor's view on \(recorded\)/);
  await page.getByRole('button', { name: 'Finish…' }).click();
  await noSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/play-390-finish.png' });
  await page.getByTestId('end-here').click();
  const cards = page.getByRole('list', { name: 'Your scores and their yardsticks, by tutor' });
  for (const t of ['silent', 'planner', 'withholder', 'answer-giver']) await expect(cards.locator(`li[data-tutor="${t}"] [data-axis="learningGain"]`)).not.toHaveText('…', { timeout: 90_000 });
  await expect(page.getByTestId('value-added')).toContainText('Value added by your teaching');
  await noSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/play-390-debrief.png', fullPage: true });
  await axe(page);
});
