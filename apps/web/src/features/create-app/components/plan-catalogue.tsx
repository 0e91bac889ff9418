import { Badge, Group, List, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { PLAN_KEYS, type PlanKey } from '@portal/contracts';
import { useTranslation } from '../../../lib/i18n';
import { PLAN_CATALOGUE, planPrice } from '../plan';

/**
 * The plan choice (§3): each plan's price, what it includes and the popular one. A plan follows
 * from the modules, so it can be picked only once a module is chosen (decision 041).
 */
export function PlanCatalogue({
  plan,
  productName,
  onPick,
}: {
  plan: PlanKey | null;
  productName: string;
  onPick: (plan: PlanKey) => void;
}) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      label={t('createApp.plan.label')}
      description={plan ? undefined : t('createApp.plan.none')}
      value={plan}
      onChange={(value) => {
        const picked = PLAN_KEYS.find((key) => key === value);
        if (picked) onPick(picked);
      }}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }} mt="xs">
        {PLAN_KEYS.map((key) => {
          const { includes, popular } = PLAN_CATALOGUE[key];
          const name = t(`apps.plan.${key}`);
          return (
            <Radio.Card
              key={key}
              value={key}
              disabled={plan === null}
              aria-label={name}
              radius="md"
              p="md"
              // A button centres its content; the cards' tops line up instead.
              style={{ display: 'flex', alignItems: 'flex-start', opacity: plan === null ? 0.6 : 1 }}
            >
              <Group wrap="nowrap" align="flex-start">
                <Radio.Indicator disabled={plan === null} />
                <Stack gap={4}>
                  <Group gap="xs">
                    <Text fw={600}>{name}</Text>
                    {popular && (
                      <Badge size="sm" variant="light">
                        {t('createApp.plan.popular')}
                      </Badge>
                    )}
                  </Group>
                  <Text size="xl" fw={700}>
                    {planPrice(key)}
                  </Text>
                  <List size="sm" spacing={2}>
                    {includes.map((include) => (
                      <List.Item key={include}>{t(include, { product: productName })}</List.Item>
                    ))}
                  </List>
                </Stack>
              </Group>
            </Radio.Card>
          );
        })}
      </SimpleGrid>
    </Radio.Group>
  );
}
