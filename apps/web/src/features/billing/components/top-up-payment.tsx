import { zodResolver } from '@hookform/resolvers/zod';
import { Card, NumberInput, Stack, Text, Title } from '@mantine/core';
import { taxRateOf, topUpSummary, type TopUpSummary } from '@portal/contracts';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Loading } from '../../../components/page-loader';
import { reloadAccount, useSignedInAccount } from '../../../lib/account';
import { fieldError } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n';
import { useFreeCreditTiers } from '../api/get-free-credit-tiers';
import { useTaxRates } from '../api/get-tax-rates';
import { useTopUp } from '../api/top-up';
import { topUpReturnPath, topUpSummaryLines, TopUpFormSchema, type TopUpForm } from '../payment-page';
import { formatUsd } from '../transactions';
import { CardSourcePicker, PaymentSubmit, useCardPayment } from './card-payment';
import { LoadError } from './load-error';
import { PaymentColumns } from './payment-columns';
import { SummaryLine } from './payment-summary-card';

/** The order summary (§5): amount, free credit, subtotal, tax and total, as the server will charge them. */
function OrderSummary({
  summary,
  taxRatePercent,
  freeCreditEnabled,
}: {
  summary: TopUpSummary | null;
  taxRatePercent: number;
  freeCreditEnabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg">
      <Stack gap="xs">
        <Title order={2} size="h3">
          {t('payment.summary.title')}
        </Title>
        {summary ? (
          topUpSummaryLines(summary, { taxRatePercent, freeCreditEnabled }).map((line) => (
            <SummaryLine
              key={line.label}
              label={t(line.label, line.values)}
              amount={line.amount}
              strong={line.total}
            />
          ))
        ) : (
          <Text c="dimmed">{t('payment.summary.enterAmount')}</Text>
        )}
      </Stack>
    </Card>
  );
}

/**
 * §2 /payment/:sub/top-up: the amount (at least 1, proposed by the query, default 1000), the card,
 * and the order summary with the organisation's free credit and its country's tax, computed by the
 * contracts' topUpSummary as the server computes the charge.
 */
export function TopUpPayment({ sub, proposedAmount }: { sub: string; proposedAmount: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const account = useSignedInAccount();
  const freeCreditEnabled = account.isFreeCredit;
  const tiers = useFreeCreditTiers(freeCreditEnabled);
  const taxRates = useTaxRates();
  const topUp = useTopUp();
  const {
    control,
    trigger,
    getValues,
    formState: { errors },
  } = useForm<TopUpForm>({
    resolver: zodResolver(TopUpFormSchema),
    defaultValues: { amount: proposedAmount },
    mode: 'onTouched',
  });
  const amount = useWatch({ control, name: 'amount' });
  const payment = useCardPayment({
    validate: () => trigger(),
    charge: (source) => topUp.mutateAsync({ amount: getValues('amount'), ...source }),
    onPaid: (result) => {
      // The balance (and, when the top-up paid what was due, the account's status) changed.
      void reloadAccount();
      void navigate(topUpReturnPath(sub, result.amount));
    },
  });

  const termsError = taxRates.error ?? tiers.error;
  const terms =
    taxRates.data && (tiers.data || !freeCreditEnabled)
      ? { tiers: tiers.data ?? [], taxRatePercent: taxRateOf(taxRates.data, account.billingCountry) }
      : null;
  const summary =
    terms && TopUpFormSchema.safeParse({ amount }).success
      ? topUpSummary({ amount, tiers: terms.tiers, freeCreditEnabled, taxRatePercent: terms.taxRatePercent })
      : null;

  return (
    <form onSubmit={payment.submit} noValidate>
      <PaymentColumns
        main={
          <>
            <Card withBorder padding="lg">
              <Controller
                control={control}
                name="amount"
                render={({ field }) => (
                  <NumberInput
                    label={t('payment.amount.label')}
                    description={t('payment.amount.description')}
                    prefix="$"
                    thousandSeparator=","
                    decimalScale={2}
                    allowNegative={false}
                    // An amount below 1 is refused with its message rather than silently raised.
                    clampBehavior="none"
                    hideControls
                    value={Number.isNaN(field.value) ? '' : field.value}
                    onChange={(value) => field.onChange(typeof value === 'number' ? value : NaN)}
                    onBlur={field.onBlur}
                    ref={field.ref}
                    disabled={payment.submitting}
                    error={fieldError(errors.amount)}
                  />
                )}
              />
            </Card>
            <CardSourcePicker payment={payment} />
          </>
        }
        aside={
          <>
            {termsError ? (
              <LoadError title={t('payment.summary.loadError')} error={termsError} />
            ) : terms ? (
              <OrderSummary
                summary={summary}
                taxRatePercent={terms.taxRatePercent}
                freeCreditEnabled={freeCreditEnabled}
              />
            ) : (
              <Loading />
            )}
            <PaymentSubmit
              sub={sub}
              payment={payment}
              ready={terms !== null}
              label={
                summary ? t('payment.pay', { amount: formatUsd(summary.totalCents / 100) }) : t('billing.pay')
              }
            />
          </>
        }
      />
    </form>
  );
}
