/** A phase's progress on one line every few seconds, and its end with the rate, so a long fill shows it is moving. */
export function progress(phase: string, total: number) {
  const started = performance.now();
  let last = started;
  let done = 0;
  const line = (rows: number) => {
    const seconds = (performance.now() - started) / 1000;
    return `${phase}: ${done}/${total}, ${rows.toLocaleString('en')} rows, ${seconds.toFixed(1)} s, ${Math.round(rows / seconds).toLocaleString('en')} rows/s`;
  };
  return {
    step(rows: number) {
      done++;
      if (performance.now() - last > 10_000) {
        last = performance.now();
        console.log(line(rows));
      }
    },
    end(rows: number) {
      console.log(`${line(rows)} (done)`);
      return (performance.now() - started) / 1000;
    },
  };
}

/** Runs `work` on each item, `lanes` at a time (each lane on its own pooled connection). */
export async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}
