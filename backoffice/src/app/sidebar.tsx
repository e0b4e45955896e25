import { Avatar, Group, NavLink, Stack, Text } from '@mantine/core';
import { initials } from '@spc/shared-contracts';
import { NavLink as RouterNavLink } from 'react-router';
import type { LoggedInUser } from '../lib/session-store';
import { sidebarLinks } from './sidebar-links';

/** Initials, full name and role of the signed-in user, then the links of their role. */
export function Sidebar({ user, onNavigate }: { user: LoggedInUser; onNavigate?: () => void }) {
  return (
    <Stack gap="md">
      <Group wrap="nowrap">
        <Avatar color="green" radius="xl" aria-hidden>
          {initials(user.fullName)}
        </Avatar>
        <div>
          <Text fw={600} data-testid="sidebar-name">
            {user.fullName}
          </Text>
          <Text size="sm" c="dimmed" tt="capitalize" data-testid="sidebar-role">
            {user.role}
          </Text>
        </div>
      </Group>
      <nav aria-label="Main">
        {sidebarLinks(user.role).map((link) =>
          link.external ? (
            <NavLink key={link.label} label={link.label} href={link.to} component="a" />
          ) : (
            <NavLink
              key={link.label}
              label={link.label}
              component={RouterNavLink}
              to={link.to}
              onClick={onNavigate}
            />
          ),
        )}
      </nav>
    </Stack>
  );
}
