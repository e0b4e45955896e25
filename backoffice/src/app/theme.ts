import {
  createTheme,
  Drawer,
  Modal,
  Notification,
  PasswordInput,
  ScrollArea,
  type CSSVariablesResolver,
} from '@mantine/core';

/** A dialog's or a toast's close button is an icon only: it says what it does to a screen reader. */
const closeButtonProps = { 'aria-label': 'Close' };

/**
 * The centre's green (the storefront's #2f6b2f at shade 6, the one Mantine uses): white text on it
 * and it on white both pass WCAG AA (4.5:1), which Mantine's own green (2.2:1) does not.
 */
const green = [
  '#eef6ec',
  '#d6ead0',
  '#b3d7a8',
  '#8cc27c',
  '#6aab58',
  '#4f9440',
  '#2f6b2f',
  '#285f28',
  '#225222',
  '#1b451b',
] as const;

/** Muted text (Mantine's "dimmed") dark enough to read: gray 7, not gray 6 (3.3:1 on white). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});

/** The back office's Mantine theme: the centre's green, rounded controls. */
export const theme = createTheme({
  colors: { green },
  primaryColor: 'green',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontWeight: '700' },
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps } }),
    // The eye button of every password box is named (Mantine hides it from screen readers unless
    // given props, and then leaves it unnamed).
    // A box that scrolls sideways (a wide table on a phone) can be reached and scrolled by keyboard.
    ScrollArea: ScrollArea.extend({ defaultProps: { viewportProps: { tabIndex: 0 } } }),
    PasswordInput: PasswordInput.extend({
      defaultProps: { visibilityToggleButtonProps: { 'aria-label': 'Show or hide what is typed' } },
    }),
  },
});
