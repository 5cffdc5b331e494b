/**
 * The XSS corpus (issue 16): 60 payloads (HTML, attribute and URL vectors, SVG, template and
 * KaTeX commands) through every field of a trace that reaches the page: the scenario's title and
 * description, tutor and learner messages (rendered with math), tool-call arguments and results,
 * error and run-end messages, model replies, judge verdicts' reasons and raw replies. The trace is
 * imported, then shown in the Lab, the run list and the trace viewer day by day with every tool
 * call and verdict opened, and searched. A detector counts payloads that ran (each sets
 * window.__xss or calls alert/confirm/prompt), dialogs, and elements with event handlers or
 * javascript: URLs inside the app. `npm run test:faults` adds its tally to the table
 * (docs/reliability.md).
 */
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUN = `window.__xss=(window.__xss||0)+1`;
const PAYLOADS: string[] = [
  `<script>${RUN}</script>`,
  `<img src=x onerror="${RUN}">`,
  `<svg onload="${RUN}">`,
  `<svg><script>${RUN}</script></svg>`,
  `<iframe src="javascript:${RUN}"></iframe>`,
  `<a href="javascript:${RUN}">click</a>`,
  `<body onload="${RUN}">`,
  `<input autofocus onfocus="${RUN}">`,
  `<details open ontoggle="${RUN}">`,
  `<video><source onerror="${RUN}"></video>`,
  `<audio src=x onerror="${RUN}">`,
  `<marquee onstart="${RUN}">`,
  `<object data="javascript:${RUN}">`,
  `<embed src="javascript:${RUN}">`,
  `<math><mtext><img src=x onerror="${RUN}"></mtext></math>`,
  `"><img src=x onerror="${RUN}">`,
  `'><svg onload='${RUN}'>`,
  `</textarea><img src=x onerror="${RUN}">`,
  `</title><img src=x onerror="${RUN}">`,
  `<style>@import 'javascript:${RUN}';</style>`,
  `<div style="background:url(javascript:${RUN})">`,
  `<img src="x" onerror="alert(1)">`,
  `<img src=x oNeRrOr=alert(1)>`,
  `<IMG SRC=javascript:alert('XSS')>`,
  `<img src=x:alert(1) onerror=eval(src)>`,
  `<svg><animate onbegin="${RUN}" attributeName=x dur=1s>`,
  `<form><button formaction="javascript:${RUN}">x</button></form>`,
  `<base href="javascript:${RUN}//">`,
  `<meta http-equiv="refresh" content="0;url=javascript:${RUN}">`,
  `<link rel=import href="data:text/html,<script>${RUN}</script>">`,
  `javascript:${RUN}`,
  `data:text/html,<script>${RUN}</script>`,
  `{{constructor.constructor('${RUN}')()}}`,
  `\${${RUN}}`,
  `<template><img src=x onerror="${RUN}"></template>`,
  `<noscript><p title="</noscript><img src=x onerror=${RUN}>">`,
  `<select><option><img src=x onerror="${RUN}"></option></select>`,
  `<table><td background="javascript:${RUN}">`,
  `&lt;img src=x onerror="${RUN}"&gt;`,
  `%3Cimg%20src%3Dx%20onerror%3D${RUN}%3E`,
  `<img src=x onerror=&#x61;&#x6c;&#x65;&#x72;&#x74;(1)>`,
  `<scr<script>ipt>${RUN}</scr</script>ipt>`,
  `<svg><a xlink:href="javascript:${RUN}"><text x=1 y=20>x</text></a></svg>`,
  `<isindex type=image src=1 onerror=${RUN}>`,
  `<keygen autofocus onfocus=${RUN}>`,
  // KaTeX commands in math (rendered without trust).
  `$\\href{javascript:${RUN}}{click me}$`,
  `$\\url{javascript:${RUN}}$`,
  `$\\htmlId{x" onmouseover="${RUN}}{y}$`,
  `$\\htmlClass{x" onclick="${RUN}}{y}$`,
  `$\\htmlStyle{background:url(javascript:${RUN})}{y}$`,
  `$\\htmlData{foo=bar" onclick="${RUN}}{y}$`,
  `$\\includegraphics{javascript:${RUN}}$`,
  `$$\\href{javascript:${RUN}}{x}$$`,
  `$\\text{<img src=x onerror=${RUN}>}$`,
  `$x</span><img src=x onerror=${RUN}>$`,
  `$\\def\\a{\\href{javascript:${RUN}}{a}}\\a$`,
  `$\\color{red" onload="${RUN}}{x}$`,
  `$\\verb|<script>${RUN}</script>|$`,
  `$\\raisebox{1em}{<img src=x onerror=${RUN}>}$`,
  `$\\operatorname{<svg onload=${RUN}>}$`,
];

function hostileTrace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'educlaw-xss-'));
  const out = join(dir, 'base.jsonl');
  execFileSync('npx', ['tsx', 'src/cli/main.ts', 'run', '--scenario', 'scenarios/fixtures/mini-3day.yaml', '--tutor', 'answer-giver', '--seed', '5', '--tracer', 'bkt', '--out', out, '--quiet'], { stdio: 'inherit' });
  const events = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  let k = 0;
  const next = () => PAYLOADS[k++ % PAYLOADS.length]!;
  const start = events[0] as { scenario: { title: string; description: string } };
  start.scenario.title = next().slice(0, 200);
  start.scenario.description = PAYLOADS.join(' ');
  for (const e of events) {
    if (e.type === 'message') e.text = `${String(e.text)} ${next()}`;
    else if (e.type === 'tool_call') {
      e.args = { ...(e.args as object), note: next() };
      const r = e.result as { ok: boolean; error?: { message: string } };
      if (!r.ok && r.error) r.error.message = next();
    }
  }
  const end = events[events.length - 1] as { seq: number; t: number; type: string; message?: string };
  end.message = next();
  let seq = end.seq;
  const ev = (o: Record<string, unknown>) => ({ seq: ++seq, t: end.t, ...o });
  // One verdict per judge, rubric and day (the trace validator refuses a second): 20 judges on one rubric and day.
  const verdicts = PAYLOADS.slice(0, 20).map((p, i) => ev({ type: 'judge_verdict', panel: 'xss', rubric: 'helpfulness', rubricVersion: 'helpfulness-v2', judge: `j${i}`, provider: 'mock', model: 'm', day: 2, status: 'unscored', scores: null, holds: null, reason: p, attempts: 3, usage: null, cost: null, raw: PAYLOADS[(i + 20) % PAYLOADS.length] }));
  const all = [...events, ev({ type: 'judge_panel', panel: 'xss', judges: verdicts.map((_, i) => ({ id: `j${i}`, provider: 'mock', model: 'm', family: null })), temperature: 0, rubrics: [{ id: 'helpfulness', version: 'helpfulness-v2' }], days: [2], sampling: { daysPerRun: 1, strata: 1, seed: 1 } }), ...verdicts.map((v, i) => ({ ...v, seq: seq - verdicts.length + 1 + i + 1 }))];
  // Sequence numbers in order (the panel came first).
  all.forEach((e, i) => (e.seq = i));
  const file = join(dir, 'hostile.jsonl');
  writeFileSync(file, all.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return file;
}

// About 20 s: part of `npm run test:faults` (which sets FAULTS_OUT), not of the e2e journeys of `npm test`; `FAULTS_OUT=/tmp/x npx playwright test e2e/xss.spec.ts` runs it alone.
test.skip(!process.env.FAULTS_OUT, 'the XSS corpus runs with npm run test:faults');

test(`${PAYLOADS.length} XSS payloads through every field of an imported trace execute none`, async ({ page }) => {
  expect(PAYLOADS.length).toBeGreaterThanOrEqual(50);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.addInitScript(() => {
    (window as unknown as { __xss: number }).__xss = 0;
  });
  const file = hostileTrace();
  await page.goto('/#lab');
  await page.getByTestId('import-trace').setInputFiles(file);
  await expect(page.getByRole('status')).toContainText('Imported hostile.jsonl');
  const viewer = page.getByRole('region', { name: 'Trace viewer' });
  await expect(viewer).toBeVisible();
  for (let day = 1; day <= 3; day++) {
    await expect(viewer.getByRole('heading', { name: new RegExp(`^Day ${day}`) })).toBeVisible();
    for (const s of await viewer.locator('details summary').all()) await s.click().catch(() => undefined);
    await page.mouse.move(10, 10);
    await page.mouse.move(400, 400);
    if (day < 3) await viewer.getByRole('button', { name: 'Next day ›' }).click();
  }
  await expect(viewer.locator('.timeline .row.run_end')).toBeVisible();
  for (const raw of await page.getByText('Raw reply').all()) await raw.click().catch(() => undefined);
  await page.waitForTimeout(500);
  const found = await page.evaluate(() => {
    const app = document.body;
    const handlers = [...app.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name) || (/^(href|src|action|formaction|xlink:href|data)$/i.test(a.name) && /^\s*javascript:/i.test(a.value))));
    const scripts = [...app.querySelectorAll('script')].filter((s) => !s.src);
    return { ran: (window as unknown as { __xss: number }).__xss, handlers: handlers.map((h) => h.outerHTML.slice(0, 120)), scripts: scripts.length };
  });
  const tally = { name: `XSS payloads through an imported trace, in Chromium (${PAYLOADS.length} payloads)`, tried: PAYLOADS.length, completed: 0, clearError: 0, crashed: 0, silentlyWrong: 0, dataLost: 0, counterexamples: [] as string[], notes: [] as string[], fired: PAYLOADS.length /* every payload reached the page (the viewer showed the trace; the control above shows one running when inserted as HTML) */ };
  const ran = found.ran > 0 || dialogs.length > 0 || found.handlers.length > 0 || found.scripts > 0;
  if (ran) {
    tally.silentlyWrong = PAYLOADS.length;
    tally.notes.push(`silentlyWrong: ran ${found.ran}, dialogs ${dialogs.length}, handlers ${found.handlers.join(' | ')}, inline scripts ${found.scripts}`);
  } else tally.completed = PAYLOADS.length;
  const outDir = process.env.FAULTS_OUT!;
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, '5-xss.json'), JSON.stringify([tally], null, 2) + '\n');
  expect({ ran: found.ran, dialogs, handlers: found.handlers, scripts: found.scripts }).toEqual({ ran: 0, dialogs: [], handlers: [], scripts: 0 });
  // The detector works: the same payload put into the page as HTML does run.
  await page.evaluate((html) => {
    const d = document.createElement('div');
    d.innerHTML = html;
    document.body.append(d);
  }, PAYLOADS[1]!);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(1);
});
