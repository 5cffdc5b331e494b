/**
 * Journeys of the classroom: the real classroom server (a fresh data directory) serving the built
 * app; a teacher creates a study and codes; two students in two browser contexts work through a
 * session (quiz, items, a help request, chat), one of them losing the connection and coming back;
 * the teacher watches them live, ends the study, exports; the CLI scores the export beside
 * simulated runs of the same tutor, and the page compares them. Then the same with an LLM tutor
 * on the scripted test server: its key never reaches a student's browser.
 */
import { test, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockOpenAi, type MockServer } from '../src/testing/mock-openai-server';
import { cliTrace } from './traces';
import { strFromU8, unzipSync } from 'fflate';
import { parse } from 'csv-parse/sync';

const SECRET = 'e2e-teacher-secret-4471';
const KEY = 'sk-e2e-CLASSROOMKEY-98765';
const PORT = Number(process.env.E2E_PORT ?? 4173) + 17;
const BASE = `http://127.0.0.1:${PORT}`;
let server: ChildProcess;
let llm: MockServer;
let dir: string;
/** What the browser refused under the server's Content-Security-Policy (none expected: the built app runs under it). */
const cspViolations: string[] = [];
const watchCsp = (page: Page) =>
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(`${page.url()}: ${m.text()}`);
  });

test.beforeAll(async () => {
  llm = await startMockOpenAi();
  dir = mkdtempSync(join(tmpdir(), 'classroom-e2e-'));
  server = spawn('node', ['--import', 'tsx', 'src/server/main.ts', '--data', join(dir, 'data'), '--port', String(PORT), '--host', '127.0.0.1', '--teacher-secret', SECRET, '--static', 'dist'], {
    env: { ...process.env, OPENAI_BASE_URL: llm.url, OPENAI_API_KEY: KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((res, rej) => {
    let out = '';
    server.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('teacher opens')) res();
    });
    server.once('exit', (c) => rej(new Error(`the classroom server exited (${c}): ${out}`)));
  });
});
test.afterAll(async () => {
  // Wait for the server to stop (it makes its data private on the way out) before removing its directory.
  if (server && server.exitCode === null) await new Promise((r) => {
    server.once('exit', r);
    server.kill('SIGTERM');
  });
  await llm?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function teacher(browser: Browser): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ acceptDownloads: true });
  const page = await ctx.newPage();
  watchCsp(page);
  const res = await page.goto(`${BASE}/#classroom`);
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByTestId('classroom-mode')).toContainText('Classroom server');
  await page.getByTestId('teacher-secret').fill('wrong-secret');
  await page.getByTestId('teacher-signin').click();
  await expect(page.getByTestId('classroom-error')).toContainText('wrong teacher secret');
  await page.getByTestId('teacher-secret').fill(SECRET);
  await page.getByTestId('teacher-signin').click();
  await expect(page.getByTestId('study-form')).toBeVisible();
  return { ctx, page };
}

async function createStudy(page: Page, name: string, o: { llm?: boolean; codes?: number } = {}): Promise<string[]> {
  await page.getByTestId('study-pick').selectOption('');
  await page.getByTestId('study-name').fill(name);
  await page.getByTestId('skill-filter').fill('Addition and Subtraction Integers');
  await page.getByTestId('skill-option').first().check();
  if (o.llm) {
    await page.getByTestId('study-tutor').selectOption('llm');
    await page.getByTestId('study-provider').selectOption('default');
    await page.getByTestId('study-model').fill('mock-tutor');
  } else await page.getByTestId('study-tutor').selectOption('planner');
  await page.getByTestId('study-sessions').fill('1');
  await page.getByTestId('study-minutes').fill('20');
  await page.getByTestId('study-create').click();
  await expect(page.getByTestId('study-panel')).toContainText(name);
  await page.getByTestId('codes-n').fill(String(o.codes ?? 2));
  await page.getByTestId('codes-add').click();
  await expect(page.getByTestId('live-row')).toHaveCount(o.codes ?? 2);
  return (await page.getByTestId('live-row').locator('td code').allTextContents()).map((c) => c.trim());
}

async function student(browser: Browser, code: string, viewport?: { width: number; height: number }): Promise<{ ctx: BrowserContext; page: Page; received: string[] }> {
  const ctx = await browser.newContext(viewport ? { viewport, hasTouch: true, isMobile: viewport.width < 500 } : {});
  const page = await ctx.newPage();
  watchCsp(page);
  const received: string[] = [];
  page.on('response', async (r) => {
    try {
      received.push(`${r.url()} ${JSON.stringify(await r.allHeaders())} ${await r.text()}`);
    } catch {
      // a redirect or a body already gone
    }
  });
  await page.goto(`${BASE}/`);
  // A device at the server's address gets the student page, without the Lab's tabs.
  await expect(page.getByTestId('student-code')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Views' })).toHaveCount(0);
  await page.getByTestId('student-code').fill('NOPE2345');
  await page.getByTestId('student-join').click();
  await expect(page.getByTestId('student-error')).toContainText('no such code');
  await page.getByTestId('student-code').fill(code.toLowerCase());
  await page.getByTestId('student-join').click();
  await expect(page.getByTestId('consent-text')).toContainText('I agree to take part');
  await page.getByTestId('consent-agree').click();
  await page.getByTestId('session-start').click();
  // The quiz at the start of the first session.
  await expect(page.getByTestId('probe-form')).toBeVisible();
  const answers = page.getByTestId('probe-answer');
  for (let i = 0; i < (await answers.count()); i++) await answers.nth(i).fill(String(i + 1));
  await page.getByTestId('probe-submit').click();
  await expect(page.getByTestId('minutes-left')).toContainText('min left');
  return { ctx, page, received };
}

async function work(page: Page, text: string): Promise<void> {
  await page.getByTestId('open-item').first().click();
  await expect(page.getByTestId('current-item')).toBeVisible();
  await page.getByTestId('answer-input').fill('-3');
  await page.getByTestId('answer-submit').click();
  await expect(page.getByTestId('attempt-feedback')).toContainText('Your answer “-3” is');
  await page.getByTestId('help-select').selectOption({ index: 1 });
  await page.getByTestId('help-send').click();
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
  await expect(page.getByTestId('messages')).toContainText(text.replace(/<[^>]+>/g, '').trim().slice(-12));
}

async function finish(page: Page): Promise<void> {
  await page.getByTestId('session-end').click();
  // The last session ends with the quiz again.
  await expect(page.getByTestId('probe-form')).toContainText('before you finish');
  const answers = page.getByTestId('probe-answer');
  for (let i = 0; i < (await answers.count()); i++) await answers.nth(i).fill('2');
  await page.getByTestId('probe-submit').click();
  await expect(page.getByTestId('student-done')).toContainText('All sessions are done');
}

test('a field study: three students (laptop, tablet, phone), a dropped connection, live view, end, export, CLI report and CSV count 3 participants', async ({ browser }) => {
  test.setTimeout(480_000);
  const t = await teacher(browser);
  const codes = await createStudy(t.page, 'Integers, week 1', { codes: 3 });
  const a = await student(browser, codes[0]!);
  const b = await student(browser, codes[1]!, { width: 820, height: 1180 });
  const p = await student(browser, codes[2]!, { width: 390, height: 844 });
  // On the phone the question opens below the list: tapping it brings it into view.
  await p.page.getByTestId('open-item').first().click();
  await expect(p.page.getByTestId('current-item')).toBeInViewport();
  await work(p.page, 'on my phone: where do I start?');
  await p.page.screenshot({ path: test.info().outputPath('student-phone.png'), fullPage: true });
  await work(a.page, '<img src=x onerror="window.__xss=1">how do I start?');
  expect(await a.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(a.page.getByTestId('messages').locator('img')).toHaveCount(0);

  // B loses the connection mid-session: a clear notice, and nothing lost when it comes back.
  await work(b.page, 'is it the same as before?');
  await b.ctx.setOffline(true);
  await b.page.getByTestId('chat-input').fill('are you there?');
  await b.page.getByTestId('chat-send').click();
  await expect(b.page.getByTestId('student-offline')).toContainText('could not reach the classroom server');
  await expect(b.page.getByTestId('student-offline')).toContainText('was not saved');
  // The notice stays in view while the student scrolls to answer.
  await b.page.mouse.wheel(0, 3000);
  await expect(b.page.getByTestId('student-offline')).toBeInViewport();
  await b.ctx.setOffline(false);
  // The laptop is closed and opened again: the same session, where it was.
  await b.page.close();
  b.page = await b.ctx.newPage();
  await b.page.goto(`${BASE}/`);
  await expect(b.page.getByTestId('minutes-left')).toBeVisible();
  await expect(b.page.getByTestId('messages')).toContainText('is it the same as before?');
  await expect(b.page.getByTestId('messages')).not.toContainText('are you there?');
  await b.page.getByTestId('chat-input').fill('are you there?');
  await b.page.getByTestId('chat-send').click();
  await expect(b.page.getByTestId('messages')).toContainText('are you there?');

  // The same code on another device, while B is active, is refused.
  const c = await browser.newContext();
  const cp = await c.newPage();
  await cp.goto(`${BASE}/`);
  await cp.getByTestId('student-code').fill(codes[1]!);
  await cp.getByTestId('student-join').click();
  await expect(cp.getByTestId('student-error')).toContainText('in use on another device');
  await c.close();

  // The teacher sees both online, with their progress.
  await expect(t.page.getByTestId('live-table')).toContainText('● online');
  await expect(t.page.getByTestId('live-row').filter({ hasText: '● online' })).toHaveCount(3);
  // The teacher reads A's conversation as it happens; what A typed stays text.
  await t.page.getByTestId('live-row').filter({ hasText: codes[0]! }).getByTestId('participant-watch').click();
  await expect(t.page.getByTestId('conversation')).toContainText('how do I start?');
  await expect(t.page.getByTestId('conversation').locator('img')).toHaveCount(0);
  await t.page.screenshot({ path: test.info().outputPath('teacher-live.png'), fullPage: true });
  await a.page.screenshot({ path: test.info().outputPath('student.png'), fullPage: true });

  await finish(a.page);
  await finish(b.page);
  await finish(p.page);
  t.page.once('dialog', (d) => void d.accept());
  await t.page.getByTestId('study-end').click();
  await expect(t.page.getByTestId('study-status')).toHaveText('ended');
  const [dl] = await Promise.all([t.page.waitForEvent('download'), t.page.getByTestId('study-export').click()]);
  expect(dl.suggestedFilename()).toMatch(/^study-Integers-week-1-st-.+\.zip$/);
  const zip = join(dir, dl.suggestedFilename());
  await dl.saveAs(zip);

  // The CLI scores the export beside simulated runs of the same tutor: the field section is there.
  const sims = join(dir, 'sim');
  mkdirSync(sims, { recursive: true });
  for (const seed of [1, 2, 3]) writeFileSync(join(sims, `planner-${seed}.jsonl`), cliTrace(['--tutor', 'planner', '--seed', String(seed), '--horizon', '3']));
  const out = join(dir, 'report');
  execFileSync('npx', ['tsx', 'src/cli/main.ts', 'report', zip, sims, '--out', out, '--format', 'md'], { stdio: 'inherit' });
  const md = readFileSync(join(out, readdirSync(out).find((f) => f.endsWith('.md'))!), 'utf8');
  expect(md).toContain('Field against simulation');
  // Each student is a participant of their own (one run id each): 3, never 1.
  expect(md).toMatch(/planner \(field\) \| 3\b/);
  // The same participants as a table R or SPSS reads, and a codebook.
  const files = unzipSync(new Uint8Array(readFileSync(zip)));
  const rows = parse(strFromU8(files['sessions.csv']!), { columns: true }) as Record<string, string>[];
  expect(rows.map((r) => r.participant).sort()).toEqual([...codes].sort());
  expect(rows.every((r) => r.status === 'done' && r.pre_quiz !== '' && r.post_quiz !== '' && r.session_start !== '')).toBe(true);
  expect(strFromU8(files['codebook.md']!)).toContain('`participant`');

  // In the page: the simulated runs in the teacher's run library, then the comparison.
  await t.page.goto(`${BASE}/#lab`);
  for (const f of readdirSync(sims)) await t.page.getByTestId('import-trace').setInputFiles(join(sims, f));
  await t.page.goto(`${BASE}/#classroom`);
  await t.page.getByTestId('study-pick').selectOption({ label: 'Integers, week 1 (ended)' });
  await t.page.getByTestId('study-compare').click();
  await expect(t.page.getByTestId('study-comparison')).toContainText('3 field sessions of this study against 3 simulated runs');
  await expect(t.page.getByTestId('study-comparison')).toContainText('Field against simulation');
  // The export joins the run library as a benchmark of its two field runs.
  await t.page.getByTestId('study-library').click();
  await expect(t.page.getByTestId('classroom-notice')).toContainText('3 of 3 runs');
  await t.page.screenshot({ path: test.info().outputPath('teacher-compare.png'), fullPage: true });
  // The built app (teacher, three students, the Lab's import and the comparison) ran under the server's CSP.
  expect(cspViolations).toEqual([]);
  await Promise.all([t.ctx.close(), a.ctx.close(), b.ctx.close(), p.ctx.close()]);
});

test('teacher controls: pause and resume a session, +10 min, archive the ended study; the app runs under the CSP', async ({ browser }) => {
  test.setTimeout(240_000);
  const t = await teacher(browser);
  const [code] = await createStudy(t.page, 'Controls study', { codes: 1 });
  const a = await student(browser, code!);
  await expect(a.page.getByTestId('minutes-left')).toContainText('20 min left');
  const row = t.page.getByTestId('live-row').filter({ hasText: code! });
  await row.getByTestId('participant-pause').click();
  await expect(row).toContainText('paused');
  await expect(row.getByTestId('participant-pause')).toHaveText('Resume');
  // The student's page (it polls) says so, and offers nothing to do meanwhile.
  await expect(a.page.getByTestId('student-paused')).toContainText('Your teacher has paused this session');
  await expect(a.page.getByTestId('open-item')).toHaveCount(0);
  await expect(a.page.getByTestId('session-end')).toBeDisabled();
  for (const [name, size] of [['desktop', { width: 1280, height: 900 }], ['tablet', { width: 820, height: 1180 }], ['phone', { width: 390, height: 844 }]] as const) {
    await a.page.setViewportSize(size);
    await t.page.setViewportSize(size);
    expect(await a.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await t.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await a.page.screenshot({ path: test.info().outputPath(`student-paused-${name}.png`), fullPage: true });
    await t.page.screenshot({ path: test.info().outputPath(`teacher-paused-${name}.png`), fullPage: true });
  }
  await a.page.setViewportSize({ width: 1280, height: 900 });
  await t.page.setViewportSize({ width: 1280, height: 900 });
  await row.getByTestId('participant-pause').click();
  await expect(a.page.getByTestId('student-paused')).toHaveCount(0);
  await expect(a.page.getByTestId('minutes-left')).toContainText('20 min left');
  await row.getByTestId('participant-extend').click();
  await expect(t.page.getByTestId('classroom-notice')).toContainText('10 more minutes');
  await expect(a.page.getByTestId('minutes-left')).toContainText('30 min left');
  // An answer typed while offline waits in the page (said plainly: not saved yet) and is sent when the connection is back.
  await a.page.getByTestId('open-item').first().click();
  await expect(a.page.getByTestId('current-item')).toBeVisible();
  await a.ctx.setOffline(true);
  await a.page.getByTestId('answer-input').fill('5½');
  await a.page.getByTestId('answer-submit').click();
  await expect(a.page.getByTestId('student-offline')).toContainText('Your answer “5½” is waiting on this page');
  await expect(a.page.getByTestId('student-offline')).toContainText('not saved until then');
  await expect(a.page.getByTestId('student-offline')).toContainText('Only what the server confirmed before is saved');
  await a.page.screenshot({ path: test.info().outputPath('student-offline-queued.png'), fullPage: true });
  await a.ctx.setOffline(false);
  await expect(a.page.getByTestId('student-offline')).toHaveCount(0);
  // Sent and graded: read as 5 1/2, not the answer here, and the page says how answers are read.
  await expect(a.page.getByTestId('attempt-feedback')).toContainText('Your answer “5 1/2” is not correct');
  await expect(a.page.getByTestId('answer-forms')).toContainText('1½');
  await work(a.page, 'back after the pause');
  await finish(a.page);
  t.page.once('dialog', (d) => void d.accept());
  await t.page.getByTestId('study-end').click();
  await expect(t.page.getByTestId('study-status')).toHaveText('ended');
  await t.page.getByTestId('study-archive').click();
  await expect(t.page.getByTestId('study-status')).toHaveText('archived');
  // An archived study is listed apart: back to a new study, and it is not in the list until asked for.
  await t.page.getByTestId('study-pick').selectOption('');
  await expect(t.page.getByTestId('study-pick').locator('option', { hasText: 'Controls study' })).toHaveCount(0);
  await t.page.getByTestId('show-archived').check();
  await t.page.getByTestId('study-pick').selectOption({ label: 'Controls study (archived)' });
  await t.page.getByTestId('study-archive').click();
  await expect(t.page.getByTestId('study-status')).toHaveText('ended');
  // Its data are all there: the export has the participant's answers, with the pause recorded.
  const [dl] = await Promise.all([t.page.waitForEvent('download'), t.page.getByTestId('study-export').click()]);
  const zipped = unzipSync(new Uint8Array(readFileSync(await dl.path())));
  const rows = parse(strFromU8(zipped['sessions.csv']!), { columns: true }) as Record<string, string>[];
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ participant: code, extra_minutes: '10', status: 'done' });
  expect(Number(rows[0]!.paused_minutes)).toBeGreaterThan(0);
  expect(cspViolations).toEqual([]);
  // The policy is enforced (an injected inline script does not run) and the watcher above sees it.
  await t.page.evaluate(() => {
    const el = document.createElement('script');
    el.textContent = 'window.__inline = 1';
    document.body.append(el);
  });
  await expect.poll(() => cspViolations.length).toBe(1);
  expect(await t.page.evaluate(() => (window as unknown as { __inline?: number }).__inline)).toBeUndefined();
  expect(cspViolations[0]).toMatch(/inline script/);
  cspViolations.length = 0;
  await Promise.all([t.ctx.close(), a.ctx.close()]);
});

test('an LLM tutor on the classroom server: the key stays on the server', async ({ browser }) => {
  test.setTimeout(180_000);
  const t = await teacher(browser);
  const codes = await createStudy(t.page, 'LLM tutor study', { llm: true });
  const a = await student(browser, codes[0]!);
  await work(a.page, 'can you help me with this one?');
  // The tutor's reply arrives (the page polls).
  await expect(a.page.getByTestId('messages').locator('li.tutor').first()).toBeVisible({ timeout: 30_000 });
  await finish(a.page);
  expect(llm.requests.length).toBeGreaterThan(0);
  const all = a.received.join('\n');
  expect(all.length).toBeGreaterThan(1000);
  expect(all).not.toContain(KEY);
  expect(all).not.toContain(SECRET);
  await Promise.all([t.ctx.close(), a.ctx.close()]);
});

test('without a server: a study on one device, built-in tutors only, at phone and tablet sizes', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/#classroom');
  await expect(page.getByTestId('classroom-mode')).toContainText('On this device only');
  await expect(page.getByTestId('classroom-mode')).toContainText('an LLM tutor needs the classroom server');
  const tutors = await page.getByTestId('study-tutor').locator('option').allTextContents();
  expect(tutors).toContain('planner');
  expect(tutors.some((t) => /LLM|HTTP/.test(t))).toBe(false);
  const [code] = await createStudy(page, 'One laptop');
  // Printing gives the code slips only: one per code, with the address, nothing else of the page.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('code-slips').locator('.slip')).toHaveCount(2);
  await expect(page.getByTestId('code-slips').locator('.slip').first()).toContainText(code!);
  await expect(page.getByTestId('code-slips').locator('.slip').first()).toBeVisible();
  // Each slip has a QR code of the address students open (decoded in src/ui/components/classroom/qr.test.ts).
  const qr = page.getByTestId('code-slips').locator('.slip').first().locator('svg.qr');
  await expect(qr).toBeVisible();
  await expect(qr).toHaveAttribute('aria-label', /^QR code of http:\/\/.+#student$/);
  expect((await qr.boundingBox())!.width).toBeGreaterThanOrEqual(100);
  await expect(page.getByTestId('study-export')).toBeHidden();
  await page.screenshot({ path: test.info().outputPath('code-slips.png') });
  await page.screenshot({ path: 'test-results/code-slips-print.png' });
  await page.emulateMedia({ media: 'screen' });
  await page.goto('/#student');
  await page.getByTestId('student-code').fill(code!);
  await page.getByTestId('student-join').click();
  await page.getByTestId('consent-agree').click();
  await page.getByTestId('session-start').click();
  const answers = page.getByTestId('probe-answer');
  for (let i = 0; i < (await answers.count()); i++) await answers.nth(i).fill('1');
  await page.getByTestId('probe-submit').click();
  await work(page, 'what does the minus sign do here?');
  for (const [name, size] of [['phone', { width: 390, height: 844 }], ['tablet', { width: 820, height: 1180 }], ['desktop', { width: 1280, height: 900 }]] as const) {
    await page.setViewportSize(size);
    // Nothing wider than the screen: the page never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`student-${name}.png`), fullPage: true });
  }
  // A reload comes back to the same session.
  await page.reload();
  await expect(page.getByTestId('messages')).toContainText('what does the minus sign do here?');
  await finish(page);
  await page.goto('/#classroom');
  await page.getByTestId('study-pick').selectOption({ label: 'One laptop (open)' });
  await expect(page.getByTestId('live-row').first()).toContainText('done');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: test.info().outputPath('teacher-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('study-export').click()]);
  expect(dl.suggestedFilename()).toMatch(/^study-One-laptop-st-.+\.zip$/);
});

test('keyboard only: a student signs in, agrees, starts, answers the quiz and an item; both pages pass axe', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/#classroom');
  const [code] = await createStudy(page, 'Keyboard study');
  const axe = async () => (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(await axe()).toEqual([]);
  await page.goto('/#student');
  await page.getByTestId('student-code').focus();
  await page.keyboard.type(code!);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('consent-agree')).toBeVisible();
  expect(await axe()).toEqual([]);
  await page.getByTestId('consent-agree').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('session-start').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('probe-form')).toBeVisible();
  // Tab through the quiz: every answer field is reachable, then the hand-in button.
  const n = await page.getByTestId('probe-answer').count();
  await page.getByTestId('probe-answer').first().focus();
  for (let i = 0; i < n; i++) {
    await page.keyboard.type('1');
    if (i < n - 1) while (!(await page.getByTestId('probe-answer').nth(i + 1).evaluate((e) => e === document.activeElement))) await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('minutes-left')).toBeVisible();
  expect(await axe()).toEqual([]);
  await page.getByTestId('open-item').first().focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('answer-input').focus();
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('attempt-feedback')).toContainText('Your answer “5” is');
  await page.getByTestId('chat-input').focus();
  await page.keyboard.type('hello');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('messages')).toContainText('hello');
  expect(await axe()).toEqual([]);
});
