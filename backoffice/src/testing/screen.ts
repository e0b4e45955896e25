/**
 * A computer's screen for one test: every media query matches (the tests' screen is otherwise a
 * phone's, where none does; see test-setup.ts). Undone by `jest.restoreAllMocks()`.
 */
export function wideScreen(): void {
  const phone = window.matchMedia;
  jest
    .spyOn(window, 'matchMedia')
    .mockImplementation((query) => ({ ...phone(query), matches: true }) as MediaQueryList);
}
