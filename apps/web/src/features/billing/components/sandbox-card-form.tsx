import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { useImperativeHandle, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { errorText } from '../../../lib/api-error';
import { fieldError } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n';
import { tokenizeSandboxCard } from '../api/tokenize-sandbox-card';
import {
  cardBrandHint,
  CardFormSchema,
  EMPTY_CARD_FORM,
  EXPIRY_MONTHS,
  expiryYears,
  formatCardNumber,
  sandboxCardRequest,
  type CardForm,
  type CardFormValues,
} from '../card-form';
import type { CardFormProps } from './card-entry';
import { CardFieldset } from './card-fieldset';

/**
 * The sandbox gateway's card form (§5 card form): the card goes from here to the sandbox's tokeniser
 * with the public key, and only the token it answers goes on to the portal API.
 */
export function SandboxCardForm({ configuration, disabled, ref }: CardFormProps) {
  const { t } = useTranslation();
  const [refusal, setRefusal] = useState<string | null>(null);
  const {
    control,
    register,
    trigger,
    getValues,
    setError,
    formState: { errors },
  } = useForm<CardFormValues, unknown, CardForm>({
    resolver: zodResolver(CardFormSchema),
    defaultValues: EMPTY_CARD_FORM,
    mode: 'onTouched',
  });

  useImperativeHandle(
    ref,
    () => ({
      validate: () => trigger(),
      async tokenize() {
        setRefusal(null);
        const card = CardFormSchema.safeParse(getValues());
        if (!card.success) {
          await trigger();
          return null;
        }
        try {
          const outcome = await tokenizeSandboxCard(configuration, sandboxCardRequest(card.data));
          if (outcome.ok) return outcome.token.id;
          const [general] = outcome.refusals.filter((entry) => {
            if (entry.field) setError(entry.field, { message: entry.message });
            return !entry.field;
          });
          if (general) setRefusal(general.message);
        } catch (error) {
          setRefusal(errorText(error));
        }
        return null;
      },
    }),
    [configuration, trigger, getValues, setError],
  );

  const years = expiryYears(new Date());
  return (
    <CardFieldset
      disabled={disabled}
      testCards
      refusal={refusal}
      firstName={{ ...register('firstName'), error: fieldError(errors.firstName) }}
      lastName={{ ...register('lastName'), error: fieldError(errors.lastName) }}
    >
      <Controller
        control={control}
        name="number"
        render={({ field }) => {
          const brand = cardBrandHint(field.value);
          return (
            <TextInput
              label={t('payment.card.number')}
              placeholder="1234 1234 1234 1234"
              inputMode="numeric"
              autoComplete="cc-number"
              value={field.value}
              onChange={(event) => field.onChange(formatCardNumber(event.currentTarget.value))}
              onBlur={field.onBlur}
              ref={field.ref}
              rightSection={brand && <Badge variant="light">{brand}</Badge>}
              rightSectionWidth={brand ? 110 : undefined}
              rightSectionPointerEvents="none"
              error={fieldError(errors.number)}
            />
          );
        }}
      />
      <SimpleGrid cols={3} spacing="sm">
        <NativeSelect
          label={t('payment.card.expMonth')}
          autoComplete="cc-exp-month"
          data={[{ value: '', label: t('payment.card.monthPlaceholder') }, ...EXPIRY_MONTHS]}
          {...register('expMonth')}
          error={fieldError(errors.expMonth)}
        />
        <NativeSelect
          label={t('payment.card.expYear')}
          autoComplete="cc-exp-year"
          data={[{ value: '', label: t('payment.card.yearPlaceholder') }, ...years]}
          {...register('expYear')}
          error={fieldError(errors.expYear)}
        />
        <TextInput
          label={t('payment.card.cvc')}
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={4}
          {...register('cvc')}
          error={fieldError(errors.cvc)}
        />
      </SimpleGrid>
    </CardFieldset>
  );
}
