import {
  Badge,
  Button,
  Card,
  Center,
  FileButton,
  Group,
  Image,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  SITE_PICTURE_LABELS,
  SITE_PICTURE_SLOTS,
  slotTakesVideo,
  type SitePictureSlot,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { ListState } from '../../../components/list-state';
import { assetUrl } from '../../../lib/api-client';
import { showToast } from '../../../lib/query-client';
import { imageProblem } from '../../../lib/image-check';
import { useSitePictures, type SitePicture } from '../api/get-site-pictures';
import { useRemoveSitePicture } from '../api/remove-site-picture';
import { useUploadSitePicture } from '../api/upload-site-picture';

const ACCEPT = 'image/jpeg,image/png,image/webp';

function SlotCard({
  slot,
  picture,
  busy,
  onUpload,
  onRemove,
}: {
  slot: SitePictureSlot;
  picture: SitePicture | undefined;
  busy: 'upload' | 'remove' | undefined;
  onUpload: (file: File, video: string) => void;
  onRemove: () => void;
}) {
  const label = SITE_PICTURE_LABELS[slot];
  const [video, setVideo] = useState(picture?.video ?? '');
  return (
    <Card withBorder padding="md" data-testid={`site-picture-${slot}`}>
      <Card.Section>
        {picture ? (
          <Image src={assetUrl(picture.url)} alt={label} h={160} fit="cover" />
        ) : (
          <Center h={160} bg="gray.1">
            <Text c="dimmed">Drawing (default)</Text>
          </Center>
        )}
      </Card.Section>
      <Stack gap="xs" mt="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>{label}</Text>
          {picture ? <Badge color="green">Own photo</Badge> : null}
        </Group>
        {slotTakesVideo(slot) ? (
          <TextInput
            size="xs"
            label="Video (optional)"
            description="An MP4 address, sent with the next upload; the picture is its poster"
            placeholder="https://…/clip.mp4"
            value={video}
            onChange={(e) => setVideo(e.currentTarget.value)}
            disabled={busy !== undefined}
            aria-label={`Video for ${label}`}
          />
        ) : null}
        <Group gap="xs">
          <FileButton onChange={(file) => file && onUpload(file, video)} accept={ACCEPT}>
            {(props) => (
              <Button
                {...props}
                size="xs"
                loading={busy === 'upload'}
                disabled={busy !== undefined}
                aria-label={`Upload a picture for ${label}`}
              >
                Upload
              </Button>
            )}
          </FileButton>
          <Button
            size="xs"
            variant="default"
            onClick={onRemove}
            loading={busy === 'remove'}
            disabled={!picture || busy !== undefined}
            aria-label={`Use the drawing for ${label}`}
          >
            Use the drawing
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** /admin/site-pictures: the shop's own photos in place of the storefront's drawings. */
export function SitePicturesRoute() {
  const query = useSitePictures();
  const upload = useUploadSitePicture();
  const remove = useRemoveSitePicture();
  const busyFor = (slot: SitePictureSlot): 'upload' | 'remove' | undefined => {
    if (upload.isPending && upload.variables?.slot === slot) return 'upload';
    if (remove.isPending && remove.variables === slot) return 'remove';
    return undefined;
  };
  const pictures = (query.data?.pictures ?? {}) as Partial<Record<SitePictureSlot, SitePicture>>;
  return (
    <Stack>
      <Title order={2}>Shop pictures</Title>
      <Text c="dimmed">
        The storefront shows drawings until you upload your own photos (JPEG, PNG or WebP, at most 5
        MB).
      </Text>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={false}
        emptyText=""
        errorText={BACKOFFICE_MESSAGES.listError}
      />
      {query.isSuccess ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {SITE_PICTURE_SLOTS.map((slot) => (
            <SlotCard
              key={slot}
              slot={slot}
              picture={pictures[slot]}
              busy={busyFor(slot)}
              onUpload={(file, video) => {
                const problem = imageProblem(file);
                if (problem) showToast('error', problem);
                else upload.mutate({ slot, picture: file, video });
              }}
              onRemove={() => remove.mutate(slot)}
            />
          ))}
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}
