import { Alert, Anchor, Button, Container, Group, Stack, Title } from '@mantine/core';
import { IconArrowLeft, IconInfoCircle } from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { BrandLine } from '../../../components/centered-frame';
import { useSignedInAccount } from '../../../lib/account';
import { useTranslation } from '../../../lib/i18n';
import { paymentPageRequestOf, type PaymentPageRequest } from '../payment-page';
import classes from './payment-page.module.css';
import { TopUpPayment } from './top-up-payment';
import { TransactionPayment } from './transaction-payment';

/** A payment the page cannot make, why, and the way back to billing. */
function NotAvailable({ sub, text }: { sub: string; text: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="blue" icon={<IconInfoCircle aria-hidden />} role="status">
      <Stack gap="sm" align="flex-start">
        {text}
        <Button component={Link} to={`/billing/${sub}`} variant="light" size="xs">
          {t('payment.goToBilling')}
        </Button>
      </Stack>
    </Alert>
  );
}

function PaymentContent({ sub, request }: { sub: string; request: PaymentPageRequest }) {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  switch (request.type) {
    case 'top-up':
      // A flat-rate contract is invoiced: there is no prepaid balance to top up.
      return account.contractType === 'flat_rate' ? (
        <NotAvailable sub={sub} text={t('payment.topUp.flatRate')} />
      ) : (
        <TopUpPayment sub={sub} proposedAmount={request.amount} />
      );
    case 'transaction':
      return <TransactionPayment sub={sub} transactionId={request.transactionId} />;
    case 'unavailable':
      return <NotAvailable sub={sub} text={t('payment.unavailable.text')} />;
  }
}

/**
 * §2 /payment/:sub/:type: a card payment outside the navigation layout, with a header link back to
 * /billing/:sub. A top-up, paying a transaction, or a page saying the payment is not available.
 */
export function PaymentPage() {
  const { t } = useTranslation();
  const { sub = 'asc', type } = useParams();
  const [search] = useSearchParams();
  const request = paymentPageRequestOf(type, search);
  const title =
    request.type === 'top-up'
      ? t('payment.title.topUp')
      : request.type === 'transaction'
        ? t('payment.title.transaction', { id: request.transactionId })
        : t('payment.unavailable.title');

  return (
    <div className={classes.page}>
      <header className={classes.header}>
        <BrandLine size={28} />
        <Anchor component={Link} to={`/billing/${sub}`} fw={500}>
          <Group gap={6} component="span">
            <IconArrowLeft size={16} aria-hidden />
            {t('payment.backToBilling')}
          </Group>
        </Anchor>
      </header>
      <Container component="main" size="lg" py="xl">
        <Stack gap="lg">
          <Title order={1}>{title}</Title>
          <PaymentContent sub={sub} request={request} />
        </Stack>
      </Container>
    </div>
  );
}
