import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { MODAL_WIDTH_PX } from '@portal/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirming: boolean;
  color?: 'red';
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before a change is sent (§2: member edits, deletions, cancelled invitations, passwords). */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirming,
  color,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} size={MODAL_WIDTH_PX} title={title}>
      <Stack>
        <Text>{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('members.confirm.cancel')}
          </Button>
          <Button color={color} loading={confirming} onClick={onConfirm} data-autofocus>
            {t('members.confirm.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
