import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { showToast } from '../../../lib/toasts';
import { paymentReturnOf, withoutPaymentReturn } from '../payment-return';
import { formatUsd } from '../transactions';
import { SuccessDialog } from './success-dialog';

/** One toast however often the effect runs for the same return. */
const PAYMENT_TOAST_ID = 'billing-payment-return';

/**
 * What the list shows on coming back from the card payment (§2): the top-up success modal for
 * successTopUp, a toast for success. Both clear their parameter, so a reload shows neither again.
 */
export function PaymentReturnNotices() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const { topUpAmount, paymentSucceeded } = paymentReturnOf(searchParams);

  useEffect(() => {
    if (paymentSucceeded === null) return;
    showToast(
      paymentSucceeded
        ? { id: PAYMENT_TOAST_ID, color: 'green', message: t('billing.payment.succeeded') }
        : { id: PAYMENT_TOAST_ID, color: 'red', message: t('billing.payment.failed') },
    );
    if (topUpAmount === null) setSearchParams(withoutPaymentReturn(searchParams), { replace: true });
  }, [paymentSucceeded, topUpAmount, searchParams, setSearchParams, t]);

  const close = () => setSearchParams(withoutPaymentReturn(searchParams), { replace: true });
  return (
    <SuccessDialog
      opened={topUpAmount !== null}
      onClose={close}
      title={t('billing.topUp.title')}
      text={t('billing.topUp.text', { amount: formatUsd(topUpAmount ?? 0) })}
      closeLabel={t('billing.topUp.close')}
    />
  );
}
