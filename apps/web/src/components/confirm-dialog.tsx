import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { MODAL_WIDTH_PX } from '@portal/contracts';
import type { ReactNode } from 'react';

export interface ConfirmDialogLabels {
  confirmLabel: string;
  cancelLabel: string;
}

interface ConfirmDialogProps extends ConfirmDialogLabels {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirming: boolean;
  color?: 'red';
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before a change is sent (§2: member edits and deletions, cancelled invitations, removed cards). */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirming,
  color,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} size={MODAL_WIDTH_PX} title={title}>
      <Stack>
        <Text>{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {cancelLabel}
          </Button>
          <Button color={color} loading={confirming} onClick={onConfirm} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
