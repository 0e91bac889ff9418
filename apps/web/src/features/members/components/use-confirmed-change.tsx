import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { errorText } from '../../../lib/api-error';
import { showToast, toastError } from '../../../lib/toasts';
import { ConfirmDialog } from './confirm-dialog';

interface ConfirmedChangeOptions<Item, Data, Variables> {
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
      confirming={mutation.isPending}
      onConfirm={onConfirm}
      onClose={close}
    >
      {asked && question(asked.item)}
    </ConfirmDialog>
  );
  return { ask: (item: Item) => setAsked({ item, opened: true }), dialog };
}

interface ConfirmedRemovalOptions<Item> {
  /** The DELETE call, given the id of what it removes. */
  remove: UseMutationResult<unknown, Error, string>;
  title: string;
  question: (item: Item) => string;
  done: (item: Item) => string;
}

/** A removal that asks first, then toasts its outcome. */
export function useConfirmedRemoval<Item extends { id: string }>({
  remove,
  title,
  question,
  done,
}: ConfirmedRemovalOptions<Item>) {
  return useConfirmedChange({
    mutation: remove,
    variables: (item: Item) => item.id,
    title,
    question,
    color: 'red',
    onSuccess: (_, item) => showToast({ color: 'green', message: done(item) }),
    onError: (error) => toastError(errorText(error)),
  });
}
