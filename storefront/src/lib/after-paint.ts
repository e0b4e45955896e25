/**
 * Resolves once the browser has painted the frame now being prepared (the next animation frame,
 * then a task after it). Code a screen does not need for its first paint waits for it, so that
 * neither its download nor its evaluation delays that paint. A hidden tab paints nothing: there it
 * waits until the tab is shown.
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
