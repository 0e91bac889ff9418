import { showToast, toastError } from '../../../lib/toasts';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from './confirm-dialog';
import { errorText } from '../../../lib/api-error';

interface ConfirmedRemovalOptions<T> {
  /** The DELETE call, given the id of what it removes. */
  remove: UseMutationResult<unknown, Error, string>;
  title: string;
  question: (item: T) => string;
  done: (item: T) => string;
}

/** A removal that asks first (§2), then toasts its outcome: `ask(item)` opens the returned dialog. */
export function useConfirmedRemoval<T extends { id: string }>({
  remove,
  title,
  question,
  done,
}: ConfirmedRemovalOptions<T>) {
  const [target, setTarget] = useState<T | null>(null);
  const onConfirm = () => {
    if (!target) return;
    remove.mutate(target.id, {
      onSuccess: () => showToast({ color: 'green', message: done(target) }),
      onError: (error) => toastError(errorText(error)),
      onSettled: () => setTarget(null),
    });
  };
  const dialog = (
    <ConfirmDialog
      opened={target !== null}
      title={title}
      color="red"
      confirming={remove.isPending}
      onConfirm={onConfirm}
      onClose={() => setTarget(null)}
    >
      {target && question(target)}
    </ConfirmDialog>
  );
  return { ask: setTarget, dialog };
}
