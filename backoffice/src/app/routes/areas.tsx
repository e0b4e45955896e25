import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Navigate } from 'react-router';
import { landingFor, paths, storefrontPaths } from '../../config/paths';
import { useSessionRole } from '../../lib/session-store';

/** `/staff`: where non-staff land from staff-only screens; staff go on to their orders. */
export function StaffAreaRoute() {
  const role = useSessionRole();
  if (role === 'staff') return <Navigate to={paths.staffOrders} replace />;
  return (
    <Stack>
      <Title order={2}>Staff area</Title>
      <Text>This page is for the shop’s staff.</Text>
      <Anchor href={landingFor(role)}>Go to your start page</Anchor>
    </Stack>
  );
}

/** `/customer`: customers use the shop, not this console. */
export function CustomerAreaRoute() {
  return (
    <Stack>
      <Title order={2}>Customer area</Title>
      <Text>Customers shop and follow their orders on the shop.</Text>
      <Anchor href={storefrontPaths.shop}>Go to the shop</Anchor>
    </Stack>
  );
}
