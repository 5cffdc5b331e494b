/**
 * Journey: import a CLI trace with judge verdicts appended, replay it day by day in the trace
 * viewer, filter by event type, search, read the mastery heatmap, open a verdict (its raw reply
 * is text, never HTML), and jump from the leakage score to the leaking tutor messages; no
 * sideways scrolling at 1280, 820 and 390 px, and axe finds nothing.
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The answer-giver on the 3-day fixture (BKT), with a hand-made judge panel appended after run_end. */
function judgedTrace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'educlaw-tv-'));
  const out = join(dir, 'answer-giver.jsonl');
  execFileSync('npx', ['tsx', 'src/cli/main.ts', 'run', '--scenario', 'scenarios/fixtures/mini-3day.yaml', '--tutor', 'answer-giver', '--seed', '5', '--tracer', 'bkt', '--out', out, '--quiet'], { stdio: 'inherit' });
  const lines = readFileSync(out, 'utf8').trim().split('\n');
  const end = JSON.parse(lines[lines.length - 1]!) as { seq: number; t: number; type: string };
  expect(end.type).toBe('run_end');
  let seq = end.seq;
  const ev = (o: Record<string, unknown>) => JSON.stringify({ seq: ++seq, t: end.t, ...o });
  const gagne = { g1_attention: 2, g2_objective: 1, g3_recall: 1, g4_content: 2, g5_guidance: 1, g6_performance: 3, g7_feedback: 1, g8_assessment: 2, g9_retention: 1 };
  const verdict = (o: Record<string, unknown>) => ev({ type: 'judge_verdict', panel: 'e2e-panel', rubricVersion: `${String(o.rubric).replace('_', '-')}-v2`, provider: 'mock', day: 2, scores: null, holds: null, attempts: 1, usage: { promptTokens: 900, completionTokens: 40 }, cost: null, raw: null, ...o });
  const judge = [
    ev({ type: 'judge_panel', panel: 'e2e-panel', judges: [{ id: 'alpha', provider: 'mock', model: 'judge-a', family: 'fa' }, { id: 'beta', provider: 'mock', model: 'judge-b', family: 'fb' }], temperature: 0, rubrics: [{ id: 'gagne', version: 'gagne-v2' }, { id: 'helpfulness', version: 'helpfulness-v2' }, { id: 'answer_holding', version: 'answer-holding-v2' }], days: [2], sampling: { daysPerRun: 1, strata: 1, seed: 1 } }),
    verdict({ rubric: 'gagne', judge: 'alpha', model: 'judge-a', status: 'scored', scores: gagne, raw: JSON.stringify({ ...gagne, comment: 'It hands out answers.' }) }),
    verdict({ rubric: 'gagne', judge: 'beta', model: 'judge-b', status: 'unscored', reason: 'malformed reply after 3 attempts: not a JSON object', attempts: 3, raw: '<img src=x onerror="window.__pwned=1">I liked it' }),
    verdict({ rubric: 'helpfulness', judge: 'alpha', model: 'judge-a', status: 'unscored', reason: 'provider error: HTTP 500', raw: null }),
    verdict({ rubric: 'helpfulness', judge: 'beta', model: 'judge-b', status: 'unscored', reason: 'malformed reply after 3 attempts: missing items', attempts: 3, raw: '{"al_questions": 11}' }),
    verdict({ rubric: 'answer_holding', judge: 'alpha', model: 'judge-a', status: 'scored', holds: false, raw: '{"held": false, "evidence": "The answer is 19."}' }),
  ];
  const file = join(dir, 'judged.jsonl');
  writeFileSync(file, [...lines, ...judge].join('\n') + '\n');
  return file;
}

async function noSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(client);
}

test('replay an imported trace day by day: filters, search, heatmap, verdicts, and the events behind a score', async ({ page }) => {
  const file = judgedTrace();
  await page.goto('/#lab');
  await page.getByTestId('import-trace').setInputFiles(file);
  await expect(page.getByRole('status')).toContainText('Imported judged.jsonl');

  const axes = page.getByRole('table', { name: 'Axis scores' });
  await expect(axes.locator('[data-axis="leakage"]')).toHaveText('100.0%');
  await expect(axes.locator('[data-axis="helpfulness"]')).toHaveText('unscored');
  const viewer = page.getByRole('region', { name: 'Trace viewer' });
  await expect(viewer).toBeVisible();

  // Day 1: the conversation, with the help request and the leaking answer marked.
  await expect(viewer.getByRole('heading', { name: /^Day 1/ })).toBeVisible();
  const firstTutor = viewer.locator('.timeline .row.msg.tutor').first();
  await expect(firstTutor).toContainText('The answer is 14.');
  await expect(firstTutor).toContainText('gave an answer away (s68-L2-01)');
  await expect(viewer.locator('.timeline .row.msg.learner').first()).toContainText('help request: stuck');
  const attempt = viewer.locator('.timeline .row.attempt').first();
  await expect(attempt).toContainText('P(correct)');
  await expect(attempt).toContainText('source: own work');
  // After the answer was given away, the learner copies it (engine 3: a chance, not always).
  await expect(viewer.locator('.timeline .row.attempt').filter({ hasText: 'source: copied a disclosed answer' }).first()).toContainText('“14”');
  await expect(viewer.locator('.timeline .row.probe').first()).toContainText(/solve rate \d+\.\d%/);
  await expect(viewer.locator('.timeline .row.lms').filter({ hasText: 'homework posted' })).toContainText('assignmentId: A1');

  // A tool call opens to its arguments and result.
  const call = viewer.locator('.timeline .row.tool').filter({ hasText: 'get_course_map' }).first();
  await call.locator('summary').click();
  await expect(call).toContainText('Arguments');
  await expect(call).toContainText('"item_id": "s68-L2-01"');

  // Step through the days with the buttons and the day picker.
  await viewer.getByRole('button', { name: 'Next day ›' }).click();
  await expect(viewer.getByRole('heading', { name: /^Day 2/ })).toBeVisible();
  await viewer.getByRole('button', { name: 'Next day ›' }).click();
  await expect(viewer.getByRole('heading', { name: /^Day 3/ })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Next day ›' })).toBeDisabled();
  await expect(viewer.locator('.timeline .row.run_end')).toContainText('horizon reached after 3 days');
  await viewer.getByRole('button', { name: '‹ Previous day' }).click();
  await expect(viewer.getByRole('heading', { name: /^Day 2/ })).toBeVisible();

  // Filter by event type.
  const dayRows = viewer.locator('.timeline .row');
  await viewer.getByRole('checkbox', { name: /^Tool calls/ }).uncheck();
  await expect(viewer.locator('.timeline .row.tool')).toHaveCount(0);
  await viewer.getByRole('checkbox', { name: /^Messages/ }).uncheck();
  await expect(viewer.locator('.timeline .row.msg')).toHaveCount(0);
  await viewer.getByRole('checkbox', { name: /^Turn ends/ }).check();
  await expect(viewer.locator('.timeline .row.turn_end').first()).toBeVisible();
  await viewer.getByRole('checkbox', { name: /^Turn ends/ }).uncheck();
  await viewer.getByRole('checkbox', { name: /^Messages/ }).check();
  await viewer.getByRole('checkbox', { name: /^Tool calls/ }).check();
  await expect(viewer.locator('.timeline .row.tool').first()).toBeVisible();

  // Search over the run: matches per day, and only matching events on the day.
  await viewer.getByLabel('Search').fill('The answer is 20');
  await expect(viewer.getByText(/matching events:/)).toBeVisible();
  await viewer.getByRole('button', { name: /^day 1 \(\d+\)$/ }).click();
  await expect(viewer.getByRole('heading', { name: /^Day 1/ })).toBeVisible();
  expect(await dayRows.count()).toBeGreaterThan(0);
  for (const text of await dayRows.allTextContents()) expect(text).toContain('The answer is 20');
  await viewer.getByLabel('Search').fill('');

  // The mastery heatmap: the course's two skills by day, or all the tracer's skills.
  const heat = viewer.getByRole('region', { name: 'Mastery heatmap: skills by time' });
  await expect(heat.locator('tbody tr')).toHaveCount(2);
  await expect(heat.locator('thead th')).toHaveCount(4);
  await expect(heat.locator('tbody td').first()).toHaveText(/^\d+$/);
  await viewer.getByRole('checkbox', { name: /^All 110 skills/ }).check();
  await expect(heat.locator('tbody tr')).toHaveCount(110);
  await viewer.getByRole('checkbox', { name: /^All 110 skills/ }).uncheck();
  await viewer.getByRole('radio', { name: /^Each update on day/ }).check();
  expect(await heat.locator('thead th').count()).toBeGreaterThan(2);
  await viewer.getByLabel('End of each day').check();

  // Judge verdicts: every verdict, filterable; the raw reply is text.
  const verdicts = viewer.getByRole('region', { name: 'Judge verdicts' });
  await expect(verdicts).toContainText('Panel “e2e-panel”');
  await expect(verdicts.locator('article.verdict')).toHaveCount(5);
  await verdicts.getByLabel('Status').selectOption('unscored');
  await expect(verdicts.locator('article.verdict')).toHaveCount(3);
  const beta = verdicts.locator('article[data-verdict="gagne/beta/2"]');
  await expect(beta).toContainText('Why unscored: malformed reply after 3 attempts: not a JSON object');
  await beta.getByText('Raw reply').click();
  await expect(beta.locator('pre')).toHaveText('<img src=x onerror="window.__pwned=1">I liked it');
  await expect(beta.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await verdicts.getByLabel('Status').selectOption('all');
  await expect(verdicts.locator('article[data-verdict="gagne/alpha/2"]')).toContainText('Day score: 1.56');
  // Each item's short label is written out under the scores, not only in a hover title.
  const legend = verdicts.locator('article[data-verdict="gagne/alpha/2"] .legend');
  await expect(legend).toBeVisible();
  await expect(legend.locator('li')).toHaveCount(9);
  await expect(legend.locator('li[data-item="g1_attention"]')).toContainText(/^g1 attention: \S/);
  await verdicts.locator('article[data-verdict="gagne/alpha/2"]').screenshot({ path: 'test-results/trace-viewer-verdict-items.png' });

  // From the unscored helpfulness axis to its verdicts.
  await axes.getByRole('button', { name: 'Show verdicts behind III. Helpfulness' }).click();
  const evidence = viewer.getByRole('region', { name: 'Events behind III. Helpfulness' });
  await expect(evidence).toBeVisible();
  await expect(evidence.locator('[data-group="unscored"] article.verdict')).toHaveCount(2);
  await expect(evidence).toContainText('provider error: HTTP 500');

  // From the leakage score to the leaking tutor messages, and one of them on its day.
  await axes.getByRole('button', { name: 'Show events behind Answer leakage' }).click();
  const leak = viewer.getByRole('region', { name: 'Events behind Answer leakage' });
  await expect(leak.getByRole('heading', { name: 'Events behind Answer leakage' })).toBeFocused();
  const leaks = leak.locator('[data-group="leaks"] .row.msg.tutor');
  expect(await leaks.count()).toBeGreaterThan(3);
  for (const text of await leaks.allTextContents()) expect(text).toContain('gave an answer away');
  await expect(leak.locator('[data-group="clean"] summary')).toHaveText('Messages of the turns that did not leak (0)');
  await page.screenshot({ path: 'test-results/trace-viewer-evidence-1280.png', fullPage: true });
  const last = leaks.last();
  const seq = await last.getAttribute('data-seq');
  await last.getByRole('button', { name: /^Show event \d+ on day 3$/ }).click();
  await expect(viewer.getByRole('heading', { name: /^Day 3/ })).toBeVisible();
  const target = viewer.locator(`.timeline .row[data-seq="${seq}"]`);
  await expect(target).toBeFocused();
  await expect(target).toHaveClass(/highlight/);

  // From responsiveness (every request answered here) and independence.
  await axes.getByRole('button', { name: 'Show events behind II. Responsiveness' }).click();
  await expect(viewer.getByRole('region', { name: 'Events behind II. Responsiveness' }).locator('[data-group="unanswered"] summary')).toHaveText('Help requests left unanswered (0)');
  await viewer.getByRole('region', { name: 'Events behind II. Responsiveness' }).getByRole('button', { name: 'Close' }).click();
  await expect(viewer.getByRole('region', { name: /^Events behind/ })).toHaveCount(0);

  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  for (const [w, h] of [[1280, 900], [820, 1180], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await axes.getByRole('button', { name: 'Show events behind Answer leakage' }).click();
    await viewer.locator('.timeline .row.tool').first().locator('summary').click();
    await noSidewaysScroll(page);
    await viewer.screenshot({ path: `test-results/trace-viewer-${w}.png` });
    await viewer.locator('.timeline .row.tool').first().locator('summary').click();
  }
  const a11yPhone = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11yPhone.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
