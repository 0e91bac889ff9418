/**
 * Asks `probe` every 50 ms until it answers true, and answers how long that took; throws naming
 * `what` once `timeoutMs` has passed. For waiting on what another process does (a database coming
 * back, a job running), where there is no event to wait for.
 */
export async function until(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
