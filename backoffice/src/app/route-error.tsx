import { Alert, Anchor, Center, Stack } from '@mantine/core';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { Component, type ReactNode } from 'react';

/** Catches a screen that fails to render or load (for example a chunk that cannot be fetched). */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Center py="xl">
        <Stack align="center">
          <Alert color="red" role="alert">
            {BACKOFFICE_MESSAGES.somethingWentWrong}
          </Alert>
          <Anchor href="/">back home</Anchor>
        </Stack>
      </Center>
    );
  }
}
