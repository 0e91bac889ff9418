import { Button, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { MODAL_WIDTH_PX } from '@portal/contracts';
import { IconCircleCheck } from '@tabler/icons-react';

/** A payment that went through, said in a dialog (§2: the top-up success modal, the reactivation dialog). */
export function SuccessDialog({
  opened,
  onClose,
  title,
  text,
  closeLabel,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  text: string;
  closeLabel: string;
}) {
  return (
    <Modal opened={opened} onClose={onClose} size={MODAL_WIDTH_PX} centered title={title}>
      <Stack align="center" gap="md" pb="sm">
        <ThemeIcon color="green" variant="light" size={56} radius="xl">
          <IconCircleCheck size={32} aria-hidden />
        </ThemeIcon>
        <Text ta="center">{text}</Text>
        <Button onClick={onClose}>{closeLabel}</Button>
      </Stack>
    </Modal>
  );
}
