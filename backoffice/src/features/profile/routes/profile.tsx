import { Avatar, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { initials } from '@spc/shared-contracts';
import { useSessionUser } from '../../../lib/session-store';
import { useProfile } from '../api/get-profile';
import { EditProfileModal } from '../components/edit-profile-modal';

function Field({ label, value }: { label: string; value?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text>{value || '—'}</Text>
    </div>
  );
}

/** /user/profile: the signed-in user's record with an edit button. */
export function ProfileRoute() {
  const user = useSessionUser();
  const { data } = useProfile();
  const [opened, modal] = useDisclosure(false);
  if (!user) return null;
  const record = data ?? user;
  return (
    <Stack>
      <Group>
        <Avatar size="lg" color="green" radius="xl">
          {initials(record.fullName)}
        </Avatar>
        <Title order={2}>Hi {record.fullName}, Welcome Back!</Title>
      </Group>
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Field label="Full Name" value={record.fullName} />
          <Field label="Email" value={record.email} />
          <Field label="Role" value={record.role} />
          <Field label="Phone Number" value={record.phoneNumber} />
        </SimpleGrid>
        <Group mt="md">
          <Button onClick={modal.open}>edit profile</Button>
        </Group>
      </Card>
      <EditProfileModal opened={opened} onClose={modal.close} user={user} />
    </Stack>
  );
}
