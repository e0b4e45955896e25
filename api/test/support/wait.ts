/** Asks `probe` every `everyMs` until `done` holds or `timeoutMs` has passed; answers the last value. */
export async function waitFor<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, everyMs));
    value = await probe();
  }
  return value;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
