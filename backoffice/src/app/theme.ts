import { createTheme, Drawer, Modal, Notification, PasswordInput } from '@mantine/core';

/** A dialog's or a toast's close button is an icon only: it says what it does to a screen reader. */
const closeButtonProps = { 'aria-label': 'Close' };

/** The back office's Mantine theme: the centre's green, rounded controls. */
export const theme = createTheme({
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
    PasswordInput: PasswordInput.extend({
      defaultProps: { visibilityToggleButtonProps: { 'aria-label': 'Show or hide what is typed' } },
    }),
  },
});
