import type { UseMutationResult } from '@tanstack/react-query';
import {
  useConfirmedChange as useSharedConfirmedChange,
  type ConfirmedChangeOptions,
} from '../../../components/use-confirmed-change';
import { errorText } from '../../../lib/api-error';
import { useTranslation } from '../../../lib/i18n';
import { showToast, toastError } from '../../../lib/toasts';

/** A member change that asks first, with the members pages' Confirm and Cancel. */
export function useConfirmedChange<Item, Data, Variables>(
  options: Omit<ConfirmedChangeOptions<Item, Data, Variables>, 'confirmLabel' | 'cancelLabel'>,
) {
  const { t } = useTranslation();
  return useSharedConfirmedChange({
    ...options,
    confirmLabel: t('members.confirm.confirm'),
    cancelLabel: t('members.confirm.cancel'),
  });
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
