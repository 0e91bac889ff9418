import { Alert } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconInfoCircle } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { Loading } from '../../../components/page-loader';
import { reloadAccount } from '../../../lib/account';
import { useTranslation } from '../../../lib/i18n';
import { paymentSummaryQueryOptions } from '../api/get-payment-summary';
import { transactionQueryOptions } from '../api/get-transaction';
import { usePayTransaction } from '../api/pay-transaction';
import { transactionPaymentReturnPath } from '../payment-page';
import { formatUsd } from '../transactions';
import { CardSourcePicker, PaymentSubmit, useCardPayment } from './card-payment';
import { LabelledValue } from './labelled-value';
import { LoadError } from './load-error';
import { PaymentColumns } from './payment-columns';
import { PaymentSummaryCard } from './payment-summary-card';

/**
 * §2 /payment/:sub/invoice?id=… and /payment/:sub/misc?id=…: the charge's payment summary, what it
 * is for (a miscellaneous charge's notes, decision 040), and the card that pays what is still due
 * (the server charges the due amount, whatever the address says). Paid, the page returns to billing
 * with success=true; a refused card stays to try another; other failures return with success=false.
 */
export function TransactionPayment({ sub, transactionId }: { sub: string; transactionId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const summary = useQuery(paymentSummaryQueryOptions(transactionId));
  // Only for its notes: the summary alone decides what is paid, so the page does not wait for it.
  const notes = useQuery(transactionQueryOptions(transactionId)).data?.notes;
  const pay = usePayTransaction(transactionId);
  const payment = useCardPayment({
    validate: () => Promise.resolve(true),
    charge: (source) => pay.mutateAsync(source),
    onPaid: (result) => {
      if (result.accountReactivated) void reloadAccount();
      void navigate(transactionPaymentReturnPath(sub, true));
    },
    onOtherFailure: () => void navigate(transactionPaymentReturnPath(sub, false)),
  });

  // Paying leaves the page; the summary read again on the way must not replace the form.
  if (summary.isPending) return <Loading />;
  if (summary.isError && !summary.data)
    return <LoadError title={t('payment.transaction.loadError')} error={summary.error} />;
  const { dueAmount } = summary.data;
  if (dueAmount <= 0 && !payment.submitting)
    return (
      <Alert color="blue" icon={<IconInfoCircle aria-hidden />} role="status">
        {t('payment.transaction.nothingDue')}
      </Alert>
    );

  return (
    <form onSubmit={payment.submit} noValidate>
      <PaymentColumns
        main={<CardSourcePicker payment={payment} />}
        aside={
          <>
            {notes && <LabelledValue label={t('payment.transaction.notes')}>{notes}</LabelledValue>}
            <PaymentSummaryCard summary={summary.data} />
            <PaymentSubmit
              sub={sub}
              payment={payment}
              label={t('payment.pay', { amount: formatUsd(dueAmount) })}
            />
          </>
        }
      />
    </form>
  );
}
