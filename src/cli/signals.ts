/**
 * Stop signals for long commands: SIGINT (Ctrl-C), SIGTERM and SIGHUP call `stop` once; a second
 * signal, a second or more after the first, exits at once (status 130).
 *
 * Copies of one stop arriving within a second count once: Ctrl-C reaches every process in the
 * terminal's process group, and wrappers relay it again (tsx does when the process has not answered
 * within 30 ms, as a busy one may not have). Taken for a second Ctrl-C, a copy would exit at once,
 * with no run_end and no exit status 3. Copies are swallowed for that second even after `off()`,
 * while the command finishes.
 */
const REPEAT_MS = 1000;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function onStopSignals(stop: () => void): () => void {
  let stoppedAt: number | null = null;
  const handler = (sig: NodeJS.Signals) => {
    const now = performance.now();
    if (stoppedAt !== null) {
      if (now - stoppedAt < REPEAT_MS) return; // the same stop, relayed
      return process.exit(130);
    }
    stoppedAt = now;
    console.error(`\n${sig}: stopping; the trace written so far is kept`);
    stop();
  };
  for (const s of SIGNALS) process.on(s, handler);
  return () => {
    for (const s of SIGNALS) process.off(s, handler);
    if (stoppedAt === null) return;
    // Copies of the stop still on their way must not kill the process while it finishes (prints, exit code).
    const swallow = () => {};
    for (const s of SIGNALS) process.on(s, swallow);
    setTimeout(() => {
      for (const s of SIGNALS) process.off(s, swallow);
    }, Math.max(0, REPEAT_MS - (performance.now() - stoppedAt))).unref();
  };
}
