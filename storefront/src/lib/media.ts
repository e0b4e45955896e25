/** What the browser tells about the connection (Network Information API; Chromium only). */
export interface ConnectionInfo {
  saveData?: boolean;
  effectiveType?: string;
}

/**
 * Whether a video may play: mobile data costs shoppers money, so never with Save-Data on, never on a
 * connection the browser rates slower than 4G, and never for someone who asked for reduced motion.
 * A browser that says nothing about its connection is treated as a fast one.
 */
export function mayPlayVideo(
  connection: ConnectionInfo | undefined = (
    navigator as Navigator & { connection?: ConnectionInfo }
  ).connection,
  reducedMotion = typeof matchMedia === 'function' &&
    matchMedia('(prefers-reduced-motion: reduce)').matches,
): boolean {
  if (reducedMotion) return false;
  if (!connection) return true;
  if (connection.saveData) return false;
  return connection.effectiveType === undefined || connection.effectiveType === '4g';
}
