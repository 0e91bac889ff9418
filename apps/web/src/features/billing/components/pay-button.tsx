import { Button, type ButtonProps } from '@mantine/core';
import type { Transaction } from '@portal/contracts';
import { IconCreditCard } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../../lib/api-error';
import { toastError } from '../../../lib/toasts';
import { paymentSummaryQueryOptions } from '../api/get-payment-summary';
import { transactionPaymentPath } from '../transactions';

interface PayButtonProps extends Pick<ButtonProps, 'size' | 'variant'> {
  sub: string;
  transaction: Pick<Transaction, 'transactionId' | 'type'>;
  label: string;
  'aria-label'?: string;
}

/**
 * Opens the card payment of an open transaction with the amount still due, which only the
 * transaction's payment summary knows (a credit may cover part of it); the detail page has it already.
 */
export function PayButton({ sub, transaction, label, ...button }: PayButtonProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [loading, setLoading] = useState(false);

  const pay = async () => {
    setLoading(true);
    try {
      const summary = await queryClient.fetchQuery(paymentSummaryQueryOptions(transaction.transactionId));
      await navigate(transactionPaymentPath(sub, transaction, summary.dueAmount));
    } catch (error) {
      toastError(errorText(error));
      setLoading(false);
    }
  };

  return (
    <Button
      leftSection={<IconCreditCard size={16} aria-hidden />}
      loading={loading}
      onClick={pay}
      {...button}
    >
      {label}
    </Button>
  );
}
