import {
  AppShell,
  Avatar,
  Burger,
  ScrollArea,
  Group,
  Menu,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { initials } from '@spc/shared-contracts';
import { Suspense, useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { paths } from '../config/paths';
import { useLogout } from '../features/auth/api/logout';
import { ChangePasswordModal } from '../features/profile/components/change-password-modal';
import { EditProfileModal } from '../features/profile/components/edit-profile-modal';
import { useSessionUser } from '../lib/session-store';
import { Sidebar } from './sidebar';

/** The console's frame: header with the profile menu, the sidebar, and the page. */
export function AppLayout() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const logout = useLogout();
  const [navOpened, setNavOpened] = useState(false);
  const [menuOpened, setMenuOpened] = useState(false);
  const [profileOpened, profile] = useDisclosure(false);
  const [passwordOpened, password] = useDisclosure(false);
  if (!user) return null;

  // Opening the sidebar closes the profile dropdown and the reverse.
  const toggleNav = () => {
    setMenuOpened(false);
    setNavOpened((o) => !o);
  };
  const changeMenu = (opened: boolean) => {
    if (opened) setNavOpened(false);
    setMenuOpened(opened);
  };

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group>
            <Burger
              opened={navOpened}
              onClick={toggleNav}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Text fw={700} c="green.8">
              SPC Back office
            </Text>
          </Group>
          <Menu opened={menuOpened} onChange={changeMenu} position="bottom-end" withinPortal>
            <Menu.Target>
              <UnstyledButton>
                <Group gap="xs">
                  <Avatar color="green" radius="xl" size="sm">
                    {initials(user.fullName)}
                  </Avatar>
                  <Text size="sm" visibleFrom="xs">
                    {user.fullName}
                  </Text>
                  <VisuallyHidden>Profile menu</VisuallyHidden>
                </Group>
              </UnstyledButton>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => navigate(paths.userProfile)}>Profile</Menu.Item>
              <Menu.Item onClick={profile.open}>Edit profile</Menu.Item>
              <Menu.Item onClick={password.open}>Change password</Menu.Item>
              <Menu.Divider />
              <Menu.Item
                color="red"
                onClick={() =>
                  logout.mutate(undefined, {
                    onSettled: () => navigate(paths.login, { replace: true }),
                  })
                }
              >
                Logout
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="md">
        {/* Sixteen links and their headings outgrow a phone's height: the sidebar scrolls. */}
        <AppShell.Section grow component={ScrollArea} type="auto">
          <Sidebar user={user} onNavigate={() => setNavOpened(false)} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      <EditProfileModal opened={profileOpened} onClose={profile.close} user={user} />
      <ChangePasswordModal opened={passwordOpened} onClose={password.close} />
    </AppShell>
  );
}
