import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { formatDateTime } from '@spc/shared-contracts';
import { useState } from 'react';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import {
  useMarkMessage,
  useMessages,
  type ContactMessage,
  type MessageFilter,
} from '../api/messages';

const EMPTY: Record<MessageFilter, string> = {
  all: 'No messages yet.',
  unread: 'No unread messages.',
  read: 'No read messages.',
};

function MessageCard({ m }: { m: ContactMessage }) {
  const mark = useMarkMessage();
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="article"
      aria-label={`${m.read ? 'Read' : 'Unread'} message: ${m.subject}`}
      style={m.read ? undefined : { borderLeft: '4px solid var(--mantine-color-green-7)' }}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Badge color={m.read ? 'gray' : 'green'} variant={m.read ? 'light' : 'filled'}>
              {m.read ? 'Read' : 'Unread'}
            </Badge>
            <Text fw={m.read ? 500 : 700} style={{ overflowWrap: 'anywhere' }}>
              {m.subject}
            </Text>
          </Group>
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(m.createdAt)}
          </Text>
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          From {m.name} · <Anchor href={`mailto:${m.email}`}>{m.email}</Anchor>
        </Text>
        <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{m.message}</Text>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="xs" c="dimmed">
            {m.read && m.readByName
              ? `Read by ${m.readByName}${m.readAt ? `, ${formatDateTime(m.readAt)}` : ''}`
              : ''}
          </Text>
          <Button
            size="xs"
            variant={m.read ? 'default' : 'filled'}
            loading={mark.isPending}
            onClick={() => mark.mutate({ id: m._id, read: !m.read })}
          >
            {m.read ? 'Mark unread' : 'Mark read'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** /manage/messages (admin and staff): what shoppers sent from the contact page, newest first. */
export function MessagesRoute() {
  const [status, setStatus] = useState<MessageFilter>('all');
  const [page, setPage] = useState(1);
  const query = useMessages(status, page);
  const messages = query.data?.messages ?? [];
  const unread = query.data?.unread;
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Messages</Title>
        {unread !== undefined && (
          <Text c="dimmed" role="status">
            {unread === 1 ? '1 unread' : `${unread} unread`}
          </Text>
        )}
      </Group>
      <SegmentedControl
        aria-label="Show"
        value={status}
        onChange={(value) => {
          setStatus(value as MessageFilter);
          setPage(1);
        }}
        data={[
          { label: 'All', value: 'all' },
          { label: 'Unread', value: 'unread' },
          { label: 'Read', value: 'read' },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && messages.length === 0}
        emptyText={EMPTY[status]}
      />
      {messages.map((m) => (
        <MessageCard key={m._id} m={m} />
      ))}
      <PaginationControl page={page} totalPages={query.data?.totalPages ?? 0} onChange={setPage} />
    </Stack>
  );
}
