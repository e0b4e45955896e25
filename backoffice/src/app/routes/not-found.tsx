import { Anchor, Center, Stack, Title } from '@mantine/core';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { Link, Navigate } from 'react-router';
import { landingFor } from '../../config/paths';
import { useIsSignedIn, useSessionRole } from '../../lib/session-store';

/** 404; a signed-in user is sent to their landing page instead. */
export function NotFoundRoute() {
  const signedIn = useIsSignedIn();
  const role = useSessionRole();
  if (signedIn && role) return <Navigate to={landingFor(role)} replace />;
  return (
    <Center mih="100vh" p="md">
      <Stack align="center">
        <Title order={1} size="h3">
          {BACKOFFICE_MESSAGES.notFound}
        </Title>
        <Anchor component={Link} to="/">
          back home
        </Anchor>
      </Stack>
    </Center>
  );
}
