/** Stops the database server if global-setup started it (a reused or given one is left running). */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__SPC_E2E_DB__?.stop();
}
