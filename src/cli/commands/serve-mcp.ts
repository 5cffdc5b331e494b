/**
 * `serve-mcp`: the LMS of a run as an MCP server, so that any MCP-capable agent framework is the
 * tutor (src/cli/mcp/server.ts; docs/bring-your-own-tutor.md#mcp).
 *
 *   npm run cli -- serve-mcp --scenario scenarios/fixtures/mini-3day.yaml --seed 1 --out runs/agent.jsonl            # stdio
 *   npm run cli -- serve-mcp --transport http --port 3700 --out runs/agent.jsonl                                      # http://127.0.0.1:3700/mcp
 *   npm run cli -- serve-mcp --scenarios 'scenarios/*--after-school.yaml' --seeds 1-3 --out runs/agent-sweep         # a series of runs
 *   npm run cli -- serve-mcp --resume runs/agent.jsonl                                                                # continue a stopped run
 *
 * Over stdio, stdout is the MCP channel: everything else goes to stderr.
 */
import { Option, type Command } from 'commander';
import { existsSync, mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { formatSweepSummary, parseSeedList, planSweep, recordFromTrace, runRecord, summarizeRun, summarizeSweep, tutorLabel, type McpTutorConfig, type RunRecord, type Scenario, type VoiceSpec } from '../../core/index';
import { DEFAULT_SCENARIO_PATH, loadScenarioFile, writeFileAtomic } from '../../adapters/node/files';
import { nodeRunEnv } from '../../adapters/node/run-env';
import { readStoredTrace, resumeFile } from '../../adapters/node/trace-file';
import { expandScenarioPaths } from '../../adapters/node/scenario-paths';
import { loadLlmConfig, pickProvider } from '../../adapters/node/llm-config';
import { int } from './common';
import { McpTutorHost, serveHttp, serveStdio, type HostedRun } from '../mcp/server';
import { onStopSignals } from '../signals';
import { addKtRuntimeOption } from './kt-runtime';

interface ServeMcpOptions {
  scenario?: string;
  scenarios?: string[];
  seed?: number;
  seeds?: string;
  tracer?: string;
  ability?: 'low' | 'average' | 'high';
  horizon?: number;
  out?: string;
  resume?: string | true;
  transport: 'stdio' | 'http';
  host: string;
  port: number;
  idleTimeout: number;
  sessions: number;
  strictSchemas?: boolean;
  allowOrigin?: string[];
  model?: string;
  agentName?: string;
  agentVersion?: string;
  voice: 'templates' | 'llm';
  voiceModel?: string;
  voiceProvider?: string;
  llmConfig?: string[];
  quiet?: boolean;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

export function registerServeMcp(program: Command): void {
  addKtRuntimeOption(program
    .command('serve-mcp'))
    .usage('[--scenario <file> --seed <n> | --scenarios <paths...> --seeds <list>] --out <file|dir> [--transport stdio|http] [options]\n       educlaw serve-mcp --resume <trace.jsonl> [--transport http]')
    .description(
      'Serve the LMS of a run (or of a series of runs) as an MCP server: an MCP-capable agent is the tutor. It gets the ten LMS tools with the same JSON Schemas and errors as an LLM tutor, plus wait_for_event (the next wake), end_turn and get_turn_status. The trace is written as the run goes; its tutor is "mcp" with the client\'s name and version.\n\n' +
        'A client that goes away (stdin closed, the HTTP session deleted, or no request for --idle-timeout seconds) stops the open run with run_end "aborted"; --resume <trace> continues it for the same agent. Ctrl-C does the same. Over stdio, stdout is the MCP channel and everything else goes to stderr. Protocol: docs/bring-your-own-tutor.md.',
    )
    .option('--scenario <file>', 'scenario YAML for one run (default: the built-in scenarios/default.yaml)')
    .option('--scenarios <paths...>', 'a series of runs: scenario files, directories or patterns (with --seeds: every scenario × seed); --out is then a directory')
    .option('--seed <n>', "seed of the one run (default: the scenario's)", int('--seed'))
    .option('--seeds <list>', "seeds for --scenarios, e.g. 1-3 (default: each scenario's own)")
    .option('--tracer <name>', "knowledge tracer (default: the scenario's)")
    .addOption(new Option('--ability <level>', "ability level (default: the scenario's)").choices(['low', 'average', 'high']))
    .option('--horizon <days>', "days per run (default: the scenario's)", int('--horizon'))
    .option('--out <path>', 'trace file (one run) or output directory (--scenarios: traces/<runId>.jsonl, summary.json, summary.txt)')
    .option('--resume [trace]', 'continue the stopped run in this trace (appending to it); with --scenarios and no value: keep the complete traces in --out, resume partial ones, run missing ones')
    .addOption(new Option('--transport <kind>', 'MCP transport').choices(['stdio', 'http']).default('stdio'))
    .option('--host <host>', 'HTTP: address to listen on', '127.0.0.1')
    .option('--port <n>', 'HTTP: port (0: any free port; the URL is printed on stderr)', int('--port'), 3700)
    .option('--allow-origin <origin>', 'HTTP: a web page origin (scheme://host:port) allowed to call the server besides loopback ones; repeatable (other Origins and Hosts get 403)', collect)
    .option('--idle-timeout <s>', 'HTTP: stop the run after this many seconds without a request', int('--idle-timeout'), 900)
    .option('--sessions <n>', 'HTTP: how many agents may tutor at once, each its own run or series (with more than 1, --out is a directory and the server runs until Ctrl-C or --idle-timeout seconds without any request)', int('--sessions'), 1)
    .option('--strict-schemas', "list the LMS tools' schemas in OpenAI's strict form (every property required, optional ones nullable) and read a null as \"not given\": for agent frameworks that put MCP tools in strict mode")
    .option('--model <name>', "the agent's base model, recorded in the tutor config (default: the X-Educlaw-Model header of the client's initialize request, else what it reports in capabilities.experimental.educlaw.model)")
    .option('--agent-name <name>', "the agent's name in run ids and reports (default: the X-Educlaw-Agent-Name header, else the client's MCP clientInfo.name)")
    .option('--agent-version <v>', "the agent's version (default: the X-Educlaw-Agent-Version header, else clientInfo.version)")
    .addOption(new Option('--voice <kind>', 'student voice').choices(['templates', 'llm']).default('templates'))
    .option('--voice-model <model>', 'model for --voice llm')
    .option('--voice-provider <name>', 'provider for --voice llm (from --llm-config or OPENAI_BASE_URL)')
    .option('--llm-config <file>', 'providers for --voice llm; repeatable', collect)
    .option('--quiet', 'print nothing but errors on stderr')
    .action(async (o: ServeMcpOptions) => {
      const log = o.quiet ? () => {} : (line: string) => console.error(`serve-mcp: ${line}`);
      let voice: VoiceSpec = { kind: 'templates' };
      if (o.voice === 'llm') {
        if (!o.voiceModel) throw new Error('--voice llm needs --voice-model <model>');
        voice = { kind: 'llm', provider: pickProvider(loadLlmConfig(o.llmConfig ?? []), o.voiceProvider).name, model: o.voiceModel };
      }
      const overrides = { ...(o.tracer ? { tracer: o.tracer } : {}), ...(o.ability ? { ability: o.ability } : {}), ...(o.horizon !== undefined ? { horizonDays: o.horizon } : {}) };
      let plan: (agent: McpTutorConfig) => ReturnType<ConstructorParameters<typeof McpTutorHost>[0]['plan']>;
      let expectAgent: { agent: string; version: string } | undefined;
      let outDir: string | null = null;
      const several = o.sessions > 1;
      if (o.sessions < 1) throw new Error(`--sessions must be at least 1, not ${o.sessions}`);
      if (several) {
        if (o.transport !== 'http') throw new Error('--sessions is for --transport http (over stdio one agent is the client)');
        if (typeof o.resume === 'string') throw new Error('--resume <trace> continues one run for one agent: give no --sessions');
        if (o.agentName || o.agentVersion !== undefined) throw new Error('--agent-name and --agent-version would give every agent of --sessions the same name, and so the same runs: let each agent name itself (X-Educlaw-Agent-Name and X-Educlaw-Agent-Version headers, or clientInfo)');
      }
      if (o.scenarios || several) {
        if (o.scenarios && (o.scenario || o.seed !== undefined)) throw new Error('--scenarios plans a series of runs: give --seeds, not --scenario or --seed');
        if (o.seed !== undefined && o.seeds) throw new Error('give --seed (one run) or --seeds (a series), not both');
        if (!o.out) throw new Error("required option '--out <dir>' not specified");
        if (typeof o.resume === 'string') throw new Error('with --scenarios, --resume takes no trace: it continues the series in --out');
        const dir = resolve(o.out);
        outDir = dir;
        const files = o.scenarios ? expandScenarioPaths(o.scenarios) : [o.scenario ?? DEFAULT_SCENARIO_PATH];
        const scenarios = files.map((f) => ({ scenario: loadScenarioFile(f) as Scenario, source: o.scenarios ? relative(process.cwd(), f) || f : (o.scenario ?? 'scenarios/default.yaml') }));
        const seeds = o.seeds ? parseSeedList(o.seeds) : o.seed !== undefined ? [o.seed] : null;
        const resumeSeries = o.resume === true;
        plan = (agent) => {
          const jobs = planSweep(scenarios, { tutor: { name: 'mcp', config: agent }, voice, ...overrides }, seeds);
          mkdirSync(join(dir, 'traces'), { recursive: true });
          const runs: HostedRun[] = [];
          const kept: { runId: string; path: string; summary: ReturnType<typeof summarizeRun> }[] = [];
          for (const j of jobs) {
            const path = join(dir, 'traces', `${j.runId}.jsonl`);
            if (resumeSeries && existsSync(path)) {
              const events = readStoredTrace(path).events;
              const end = events.find((e) => e.type === 'run_end');
              if (end?.type === 'run_end' && end.reason === 'horizon_reached') {
                kept.push({ runId: j.runId, path, summary: summarizeRun(events, j.record.source) });
                continue;
              }
              if (events.length) {
                const f = resumeFile(path);
                runs.push({ record: j.record, path, source: j.record.source, resume: { stored: f.stored, keepBytes: f.keepBytes } });
                continue;
              }
            }
            runs.push({ record: j.record, path, source: j.record.source });
          }
          return { runs, kept };
        };
      } else if (typeof o.resume === 'string') {
        if (o.scenario || o.seed !== undefined || o.out || o.tracer || o.ability || o.horizon !== undefined) throw new Error('--resume takes the run from the trace: give no --scenario, --seed, --out, --tracer, --ability or --horizon');
        const path = o.resume;
        const f = resumeFile(path);
        const record: RunRecord = recordFromTrace(f.stored, path);
        if (record.tutor.name !== 'mcp') throw new Error(`${path} is a run of the ${record.tutor.name} tutor, not an MCP agent's: resume it with \`npm run cli -- run --resume\``);
        expectAgent = { agent: String(record.tutor.config.agent ?? ''), version: String(record.tutor.config.version ?? '') };
        log(`resuming ${path}: replaying ${f.keep} of ${f.stored.length} stored events${f.cutLine ? ' (a last line cut short was dropped)' : ''}; waiting for ${expectAgent.agent} ${expectAgent.version}`);
        plan = () => ({ runs: [{ record, path, source: path, resume: { stored: f.stored, keepBytes: f.keepBytes } }] });
      } else {
        if (o.resume === true) throw new Error('--resume needs the trace to resume (or --scenarios to continue a series)');
        if (o.seeds) throw new Error('--seeds is for --scenarios; one run takes --seed');
        if (!o.out) throw new Error("required option '--out <file>' not specified");
        const out = o.out;
        const scenario = loadScenarioFile(o.scenario ?? DEFAULT_SCENARIO_PATH);
        const source = o.scenario ?? 'scenarios/default.yaml';
        plan = (agent) => ({ runs: [{ record: runRecord({ scenario, source, tutor: { name: 'mcp', config: agent }, voice, ...(o.seed !== undefined ? { seed: o.seed } : {}), ...overrides }), path: out, source }] });
      }
      const newHost = () => new McpTutorHost({ plan, env, ...(o.model ? { model: o.model } : {}), ...(o.agentName ? { agentName: o.agentName } : {}), ...(o.agentVersion !== undefined ? { agentVersion: o.agentVersion } : {}), ...(expectAgent ? { expectAgent } : {}), ...(o.strictSchemas ? { strictSchemas: true } : {}), log });
      const env = nodeRunEnv({ llmConfig: o.llmConfig ?? [] });
      let hosts: () => McpTutorHost[];
      if (o.transport === 'http') {
        const s = await serveHttp(newHost, { host: o.host, port: o.port, idleTimeoutS: o.idleTimeout, maxSessions: o.sessions, ...(o.allowOrigin ? { allowedOrigins: o.allowOrigin } : {}) });
        hosts = s.hosts;
        // One agent: a stop is its run's end (exit 3). Several: Ctrl-C is how the server ends; the summary is written.
        const off = onStopSignals(() => (several ? void s.close() : void Promise.all(s.hosts().map((h) => h.stop('stopped by a signal'))).then(() => process.exit(3))));
        console.error(`serve-mcp: listening on ${s.url}${several ? ` (up to ${o.sessions} agents at once)` : ''}`);
        try {
          await s.closed;
        } finally {
          off();
        }
      } else {
        const host = newHost();
        hosts = () => [host];
        const off = onStopSignals(() => void host.stop('stopped by a signal').then(() => process.exit(3)));
        try {
          log('serving over stdio');
          await serveStdio(host);
        } finally {
          off();
        }
      }
      // With several sessions, a client that never started a run (one that only listed the tools) is no agent of the series.
      const agents = hosts().filter((h) => h.agent && (h.started || !several));
      const finished = agents.flatMap((h) => h.finished);
      if (outDir) {
        const runs = finished.map((f) => f.summary);
        const configs = agents.map((h) => ({ name: 'mcp', config: h.agent! }));
        const summary = summarizeSweep(runs, { tutors: configs.length ? configs.map((c) => tutorLabel(c)) : ['mcp'] });
        const seeds = o.seeds ? parseSeedList(o.seeds) : o.seed !== undefined && !o.scenarios ? [o.seed] : null;
        writeFileAtomic(join(outDir, 'summary.json'), JSON.stringify({ ...(configs.length > 1 ? { tutors: configs } : { tutor: configs[0] ?? null }), seeds, summary, runs }, null, 2) + '\n');
        writeFileAtomic(join(outDir, 'summary.txt'), formatSweepSummary(summary) + '\n');
        if (!o.quiet) console.error(formatSweepSummary(summary));
      }
      const incomplete = finished.filter((f) => f.reason !== 'horizon_reached');
      for (const f of incomplete) console.error(`serve-mcp: ${f.runId} ended ${f.reason}; resume with: npm run cli -- serve-mcp --resume ${f.path}`);
      if (!agents.length || agents.some((h) => h.unfinished > 0)) process.exitCode = 3;
    });
}
