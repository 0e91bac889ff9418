import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Loading } from '../../../components/page-loader';
import { ApiError, errorText } from '../../../lib/api-error';
import { useTranslation } from '../../../lib/i18n';
import { toastError } from '../../../lib/toasts';
import { useTransactionReport } from '../api/get-transaction-report';

/** One toast however often the effect runs. */
const NOT_FOUND_TOAST_ID = 'billing-invoice-not-found';

/**
 * §2 /billing/:sub/:id/print: replaces itself with the invoice PDF's signed address, so going back
 * does not ask for another one; without an invoice it says 'Invoice not found' and returns to the list.
 */
export function PrintInvoice() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { sub = 'asc', id = '' } = useParams();
  const report = useTransactionReport(id);

  useEffect(() => {
    if (report.data) window.location.replace(report.data.signedUrl);
    if (!report.isError) return;
    const notFound = report.error instanceof ApiError && report.error.status === 404;
    toastError(notFound ? t('billing.invoiceNotFound') : errorText(report.error), NOT_FOUND_TOAST_ID);
    void navigate(`/billing/${sub}`, { replace: true });
  }, [report.data, report.isError, report.error, navigate, sub, t]);

  return <Loading label={t('billing.print.opening')} />;
}
