/** Stop signals for long commands: SIGINT (Ctrl-C), SIGTERM and SIGHUP call `stop` once; a second signal exits at once. */
export function onStopSignals(stop: () => void): () => void {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  let stopped = false;
  const handler = (sig: NodeJS.Signals) => {
    if (stopped) process.exit(130);
    stopped = true;
    console.error(`\n${sig}: stopping; the trace written so far is kept`);
    stop();
  };
  for (const s of signals) process.on(s, handler);
  return () => {
    for (const s of signals) process.off(s, handler);
  };
}
