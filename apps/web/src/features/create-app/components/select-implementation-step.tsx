import { Button, Checkbox, Group, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { REGION_KEYS, REGIONS, type PlanKey, type RegionKey } from '@portal/contracts';
import { IconMessages, IconUsersGroup, IconVideo, type Icon } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useNavigate } from 'react-router';
import { AppNameInput } from '../../../components/app-name-input';
import type { TranslationKey } from '../../../lib/i18n';
import { usePublicConfig } from '../../../lib/public-config';
import { APPLICATIONS_QUERY_KEY } from '../../../api/applications/list-applications';
import { regionalSessionQueryOptions } from '../../../lib/regions/regional-session';
import { createAndConnectApplication } from '../api/create-application';
import { pingRegion } from '../../../lib/regions/region-api';
import { MODULES, planForModules, toggleModule, type Module } from '../plan';
import { closestRegion } from '../../../lib/regions/region';
import type { WizardState } from '../wizard-state';
import { PlanCatalogue } from './plan-catalogue';
import { ProcessingOverlay } from './processing-overlay';
import { StepError } from './step-parts';

const MODULE_CARDS: Record<Module, { text: TranslationKey; icon: Icon }> = {
  product: { text: 'createApp.module.product.text', icon: IconUsersGroup },
  chat: { text: 'createApp.module.chat.text', icon: IconMessages },
  video: { text: 'createApp.module.video.text', icon: IconVideo },
};

/** §2 select implementation: modules (which set the plan), a name and a region, then the app is created. */
export function SelectImplementationStep({ sub }: { sub: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { data: config } = usePublicConfig();
  const [modules, setModules] = useState<Module[]>([]);
  const [pickedPlan, setPickedPlan] = useState<PlanKey | null>(null);
  const [name, setName] = useState('');
  const [chosenRegion, setChosenRegion] = useState<RegionKey | null>(null);
  // The region preselected is the one answering fastest; the user's own choice always wins.
  const closest = useQuery({
    queryKey: ['closest-region'],
    queryFn: () => closestRegion(pingRegion),
    staleTime: Infinity,
  });
  const region = chosenRegion ?? closest.data ?? null;
  const plan = planForModules(modules, pickedPlan);

  const create = useMutation({
    mutationFn: createAndConnectApplication,
    onSuccess: ({ application, session }) => {
      void client.invalidateQueries({ queryKey: APPLICATIONS_QUERY_KEY });
      client.setQueryData(regionalSessionQueryOptions(application).queryKey, session);
      const state: WizardState = { application };
      const query = new URLSearchParams({ applicationId: application.applicationId });
      void navigate(`/create-app/${encodeURIComponent(sub)}/setup-application?${query}`, { state });
    },
  });

  const ready = plan !== null && name.trim() !== '' && region !== null;
  const moduleName = (module: Module) => (module === 'product' ? (config?.productName ?? '') : t(`createApp.module.${module}`));

  return (
    <Stack gap="lg">
      {create.isPending && <ProcessingOverlay />}
      <section aria-labelledby="modules-title">
        <Title order={2} size="h4" id="modules-title">
          {t('createApp.modules.title')}
        </Title>
        <Text c="dimmed" size="sm" mb="sm">
          {t('createApp.modules.text')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {MODULES.map((module) => {
            const { text, icon: ModuleIcon } = MODULE_CARDS[module];
            return (
              <Checkbox.Card
                key={module}
                checked={modules.includes(module)}
                onClick={() => {
                  // §4: a change of modules sets the plan again (advance, or none).
                  setPickedPlan(null);
                  setModules((current) => toggleModule(current, module));
                }}
                radius="md"
                p="md"
              >
                <Group wrap="nowrap" align="flex-start">
                  <Checkbox.Indicator />
                  <div>
                    <Group gap={6}>
                      <ModuleIcon size={18} aria-hidden />
                      <Text fw={600}>{moduleName(module)}</Text>
                    </Group>
                    <Text size="sm" c="dimmed">
                      {t(text)}
                    </Text>
                  </div>
                </Group>
              </Checkbox.Card>
            );
          })}
        </SimpleGrid>
      </section>

      <PlanCatalogue plan={plan} productName={config?.productName ?? ''} onPick={setPickedPlan} />

      <AppNameInput
        label={t('createApp.name.label')}
        placeholder={t('createApp.name.placeholder')}
        value={name}
        onChange={setName}
        required
        maw={480}
      />

      <Radio.Group
        label={t('createApp.region.label')}
        description={closest.isPending ? t('createApp.region.detecting') : t('createApp.region.text')}
        value={region}
        onChange={(value) => setChosenRegion(REGION_KEYS.find((key) => key === value) ?? null)}
        required
      >
        <Group mt="xs">
          {REGION_KEYS.map((key) => (
            <Radio key={key} value={key} label={REGIONS[key].name} />
          ))}
        </Group>
      </Radio.Group>

      <StepError error={create.error} />

      <Group justify="flex-end">
        <Button
          disabled={!ready || create.isPending}
          onClick={() => {
            if (plan && region) create.mutate({ name: name.trim(), plan, region });
          }}
        >
          {t('createApp.next')}
        </Button>
      </Group>
    </Stack>
  );
}
