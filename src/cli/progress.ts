/** A progress bar on stderr: redrawn in place on a terminal, one line per ~10% otherwise (logs, CI). */
export function progressBar(total: number, label = 'runs'): { tick(done: number, note?: string): void; end(): void } {
  const tty = Boolean(process.stderr.isTTY);
  const t0 = performance.now();
  let lastDecile = -1;
  const render = (done: number, note: string) => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    const secs = (performance.now() - t0) / 1000;
    const eta = done > 0 ? (secs / done) * (total - done) : NaN;
    return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label} ${Math.floor((done / total) * 100)}% ${secs.toFixed(0)}s${done < total && Number.isFinite(eta) ? ` eta ${eta.toFixed(0)}s` : ''}${note ? `  ${note}` : ''}`;
  };
  return {
    tick(done, note = '') {
      if (tty) process.stderr.write(`\r\x1b[2K${render(done, note)}`);
      else {
        const decile = Math.floor((done / total) * 10);
        if (decile !== lastDecile || done === total) {
          lastDecile = decile;
          process.stderr.write(render(done, note) + '\n');
        }
      }
    },
    end() {
      if (tty) process.stderr.write('\n');
    },
  };
}
