import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ConfirmDialog, type ConfirmDialogLabels } from './confirm-dialog';

export interface ConfirmedChangeOptions<Item, Data, Variables> extends ConfirmDialogLabels {
  /** The call sent once the user confirms. */
  mutation: UseMutationResult<Data, Error, Variables>;
  /** What the call is given for the item asked about. */
  variables: (item: Item) => Variables;
  title: string;
  question: (item: Item) => ReactNode;
  color?: 'red';
  onSuccess?: (data: Data, item: Item) => void;
  onError?: (error: Error) => void;
}

/**
 * A change that asks first (§2): `ask(item)` opens the returned dialog, confirming sends the call,
 * and the dialog closes once the call has settled, whatever its outcome.
 */
export function useConfirmedChange<Item, Data, Variables>({
  mutation,
  variables,
  title,
  question,
  color,
  confirmLabel,
  cancelLabel,
  onSuccess,
  onError,
}: ConfirmedChangeOptions<Item, Data, Variables>) {
  // The item stays after closing so the dialog keeps its question while it fades out.
  const [asked, setAsked] = useState<{ item: Item; opened: boolean } | null>(null);
  const close = () => setAsked((current) => current && { ...current, opened: false });
  const onConfirm = () => {
    if (!asked?.opened) return;
    const { item } = asked;
    mutation.mutate(variables(item), {
      onSuccess: (data) => onSuccess?.(data, item),
      onError,
      onSettled: close,
    });
  };
  const dialog = (
    <ConfirmDialog
      opened={asked?.opened ?? false}
      title={title}
      color={color}
      confirmLabel={confirmLabel}
      cancelLabel={cancelLabel}
      confirming={mutation.isPending}
      onConfirm={onConfirm}
      onClose={close}
    >
      {asked && question(asked.item)}
    </ConfirmDialog>
  );
  return { ask: (item: Item) => setAsked({ item, opened: true }), dialog };
}
