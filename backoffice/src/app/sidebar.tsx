import { Avatar, Badge, Group, NavLink, Stack, Text } from '@mantine/core';
import { initials } from '@spc/shared-contracts';
import { Link, useLocation } from 'react-router';
import { useUnreadMessageCount } from '../features/messages/api/messages';
import { paths } from '../config/paths';
import type { LoggedInUser } from '../lib/api-client';
import { currentLink, groupedLinks, sidebarLinks, type SidebarLink } from './sidebar-links';

/** Initials, full name and role of the signed-in user, then the links of their role. */
export function Sidebar({ user, onNavigate }: { user: LoggedInUser; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const links = sidebarLinks(user.role);
  // The section of the page on screen is highlighted and announced as the current page.
  const current = currentLink(links, pathname);
  const hasMessages = links.some((l) => l.to === paths.manageMessages);
  const unread = useUnreadMessageCount(hasMessages).data ?? 0;
  const item = (link: SidebarLink) =>
    link.external ? (
      <NavLink key={link.label} label={link.label} href={link.to} component="a" />
    ) : (
      <NavLink
        key={link.label}
        label={link.label}
        aria-label={
          link.to === paths.manageMessages && unread > 0
            ? `${link.label}, ${unread} unread`
            : undefined
        }
        rightSection={
          link.to === paths.manageMessages && unread > 0 ? (
            <Badge size="sm" circle={unread < 10} aria-hidden data-testid="unread-messages">
              {unread}
            </Badge>
          ) : undefined
        }
        component={Link}
        to={link.to}
        onClick={onNavigate}
        active={link === current}
        aria-current={link === current ? 'page' : undefined}
        fw={link === current ? 700 : undefined}
      />
    );
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
        {groupedLinks(links).map((run) =>
          run.group ? (
            <div key={run.group} role="group" aria-label={run.group}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4} aria-hidden>
                {run.group}
              </Text>
              {run.links.map(item)}
            </div>
          ) : (
            run.links.map(item)
          ),
        )}
      </nav>
    </Stack>
  );
}
