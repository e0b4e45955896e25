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

/** Every colour a badge, a light button or a coloured text may take. */
const COLOURS = [
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'yellow',
  'orange',
  'gray',
];

/**
 * Text dark enough to read (WCAG AA, 4.5:1) wherever Mantine's light scheme is paler: muted text,
 * placeholders and disabled labels at gray 7, not gray 5–6 (about 3:1); coloured text and the text
 * of light badges and buttons at shade 9 darkened by a third (orange 6 on its tint is 2.5:1).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    '--mantine-color-disabled-color': 'var(--mantine-color-gray-7)',
    ...Object.fromEntries(
      COLOURS.flatMap((c) => {
        const dark = `color-mix(in srgb, var(--mantine-color-${c}-9) 67%, black)`;
        return [
          [`--mantine-color-${c}-text`, dark],
          [`--mantine-color-${c}-light-color`, dark],
        ];
      }),
    ),
  },
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
