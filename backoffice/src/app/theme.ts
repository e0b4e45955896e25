import { createTheme } from '@mantine/core';

/** The back office's Mantine theme: the centre's green, rounded controls. */
export const theme = createTheme({
  primaryColor: 'green',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontWeight: '700' },
});
