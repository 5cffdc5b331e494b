import { Option, type Command } from 'commander';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { DEFAULT_TRACER, TRACER_NAMES, accuracy, brier, ece, loadBktTracer, reliability, rocAuc, tracerDeclaration, type Interaction, type TracerName } from '../../core/index';
import { readTestFold, type StudentSequence } from '../../adapters/node/datasets';
import { DEFAULT_AKT_DIR, KT_RUNTIME_LABEL, loadNodeAkt } from '../../adapters/node/akt';
import { teacherForcedAkt } from '../../adapters/ort/akt-backend';
import { ROOT } from '../../adapters/node/files';
import { int } from './common';
import { addKtRuntimeOption } from './kt-runtime';

export interface KtEvalResult {
  tracer: string;
  model: string;
  data: string;
  fold: number;
  students: number;
  rows: number;
  auc: number;
  acc: number;
  ece: number;
  brier: number;
  reliability: ReturnType<typeof reliability>;
  seconds: number;
}

/** AKT: sequences cut into pieces of `seqlen` rows (as AKT's own evaluation does), every row predicted from the rows before it in its piece. */
async function evalAkt(students: StudentSequence[], modelDir: string, batch: number): Promise<{ pred: number[]; lab: number[]; model: string }> {
  const { backend, meta, runtime } = await loadNodeAkt(modelDir, true);
  const seqlen = Number((meta.hyperparameters as { seqlen?: number }).seqlen ?? 200);
  const pred: number[] = [];
  const lab: number[] = [];
  await teacherForcedAkt(backend, students, { seqlen, nQuestions: meta.n_questions, batch }, (p, t, x) => {
    pred.push(x);
    lab.push(p.responses[t]!);
  });
  await backend.release();
  return { pred, lab, model: `${modelDir} (${(meta as { exported?: string }).exported ?? 'unknown export'}) on ${KT_RUNTIME_LABEL[runtime]}` };
}

/** BKT: the whole sequence, every row predicted from the rows before it. */
async function evalBkt(students: StudentSequence[]): Promise<{ pred: number[]; lab: number[]; model: string }> {
  const tracer = await loadBktTracer();
  const pred: number[] = [];
  const lab: number[] = [];
  for (const st of students) {
    const h: Interaction[] = [];
    for (let t = 0; t < st.skills.length; t++) {
      const [p] = tracer.predictSync(h, [{ skill: st.skills[t]!, question: 0, level: 0 }]);
      pred.push(p!);
      lab.push(st.responses[t]!);
      h.push({ skill: st.skills[t]!, question: st.questions[t]!, correct: st.responses[t] === 1 });
    }
  }
  return { pred, lab, model: tracer.info.version };
}

type Evaluated = { pred: number[]; lab: number[]; model: string };
/** One evaluation per declared tracer (core/tracers.ts): a tracer declared without one here does not compile. */
const EVALUATORS: Record<TracerName, (students: StudentSequence[], o: { model: string; batch: number }) => Promise<Evaluated>> = {
  akt: (students, o) => evalAkt(students, resolve(o.model), o.batch),
  bkt: (students) => evalBkt(students),
};

/** Evaluates a tracer on the held-out fold of a data set directory. */
export async function runKtEval(o: { data: string; fold: number; tracer: string; model: string; batch: number }): Promise<KtEvalResult> {
  const t0 = performance.now();
  const evaluate = EVALUATORS[tracerDeclaration(o.tracer).name];
  const { students, source } = readTestFold(o.data, o.fold);
  const r = await evaluate(students, o);
  return {
    tracer: o.tracer,
    model: r.model,
    data: source,
    fold: o.fold,
    students: students.length,
    rows: r.pred.length,
    auc: rocAuc(r.pred, r.lab),
    acc: accuracy(r.pred, r.lab),
    ece: ece(r.pred, r.lab),
    brier: brier(r.pred, r.lab),
    reliability: reliability(r.pred, r.lab),
    seconds: (performance.now() - t0) / 1000,
  };
}

export function registerKt(program: Command): void {
  const kt = program.command('kt').description('Knowledge-tracing models: evaluate on held-out students, train.');
  addKtRuntimeOption(kt.command('eval'))
    .description("Evaluate a tracer on a data set's held-out fold: AUC, accuracy, ECE (10 bins), Brier.")
    .requiredOption('--data <dir>', 'data set directory (AKT fold files or sequences.csv[.gz])')
    .option('--fold <k>', 'test fold', int('--fold'), 1)
    .addOption(new Option('--tracer <name>', 'the tracer to evaluate').choices([...TRACER_NAMES]).default(DEFAULT_TRACER))
    .option('--model <dir>', 'AKT model directory (meta.json + ONNX graphs)', DEFAULT_AKT_DIR)
    .option('--batch <n>', 'sequences per forward pass (AKT)', int('--batch'), 32)
    .option('--json', 'print JSON')
    .action(async (o: { data: string; fold: number; tracer: string; model: string; batch: number; json?: boolean }) => {
      const res = await runKtEval(o);
      if (o.json) console.log(JSON.stringify(res, null, 2));
      else {
        console.log(`${res.tracer} on ${res.data}: ${res.students} students, ${res.rows} rows`);
        console.log(`AUC ${res.auc.toFixed(4)}  ACC ${res.acc.toFixed(4)}  ECE ${res.ece.toFixed(4)}  Brier ${res.brier.toFixed(4)}  (${res.seconds.toFixed(1)} s)`);
        console.log('reliability (predicted → observed, count):');
        for (const b of res.reliability) if (b.count) console.log(`  ${b.lo.toFixed(1)}–${b.hi.toFixed(1)}: ${b.meanPred.toFixed(3)} → ${b.meanObs.toFixed(3)}  (${b.count})`);
      }
    });
  kt.command('train')
    .description('Train an AKT-Rasch model with the PyTorch pipeline in training/akt (needs python3-torch; see docs/kt/model-card.md). Extra options go to train.py.')
    .requiredOption('--data <dir>', 'data set directory')
    .requiredOption('--out <dir>', 'output directory (checkpoint, metrics)')
    .option('--python <path>', 'Python with torch', '/usr/bin/python3')
    .allowUnknownOption(true)
    .action((o: { data: string; out: string; python: string }, cmd: Command) => {
      const extra = cmd.args;
      const r = spawnSync(o.python, [resolve(ROOT, 'training/akt/train.py'), '--data', o.data, '--out', o.out, ...extra], { stdio: 'inherit' });
      if (r.error) throw new Error(`could not start ${o.python}: ${r.error.message}`);
      process.exitCode = r.status ?? 1;
    });
}
