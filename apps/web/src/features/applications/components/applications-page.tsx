import { Alert, Button, Center, Group, Pagination, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { showToast } from '../../../lib/toasts';
import {
  APPLICATION_LIST_MAX_LIMIT,
  uiPermissions,
  type Application,
  type PlanKey,
  type RegionKey,
} from '@portal/contracts';
import { IconAlertCircle, IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import { useSignedInAccount } from '../../../lib/account';
import { translate } from '../../../lib/i18n';
import { openConsoleTab } from '../../../lib/regions/console-tab';
import { useApplications } from '../api/list-applications';
import { useReactivateApplication } from '../api/reactivate-application';
import {
  canCreateApplication,
  countedApplications,
  filterApplications,
  pageCount,
  pageOf,
  searchIndex,
  showsPlan,
  type ApplicationAction,
} from '../application-list';
import { ApplicationCard } from './application-card';
import { ApplicationsToolbar } from './applications-toolbar';
import { GettingStarted } from './getting-started';
import { Loading } from '../../../components/page-loader';

const NO_APPS: Application[] = [];

// The modals, their forms and what they need load when the user first opens one.
const ApplicationDialogs = lazy(() => import('./application-dialogs'));

/** §2 application list (/apps/:sub). */
export function ApplicationsPage() {
  const { t } = useTranslation();
  const { sub = 'asc' } = useParams();
  const account = useSignedInAccount();
  const permissions = uiPermissions(account.permissions);
  // Deactivated apps do not count against applicationLimit, so an organisation can hold more
  // apps than its limit: the page asks for all of them, or none could be found to reactivate.
  const list = useApplications(APPLICATION_LIST_MAX_LIMIT);
  const { mutate: reactivate } = useReactivateApplication();

  const [search, setSearch] = useState('');
  const [plans, setPlans] = useState<PlanKey[]>([]);
  const [regions, setRegions] = useState<RegionKey[]>([]);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Application | null>(null);
  const [deactivating, setDeactivating] = useState<Application | null>(null);
  // Stays true once a modal was opened, so the modals stay mounted and close with their transition.
  const [dialogsOpened, setDialogsOpened] = useState(false);

  const apps = list.data?.data ?? NO_APPS;
  const index = useMemo(() => searchIndex(apps), [apps]);
  // Filtered in the keystroke's own render: with the search index and the grid's cards updated in
  // place this is quicker than deferring it, which costs a second render (see docs/performance.md).
  const filtered = useMemo(
    () => filterApplications(apps, { search, plans, regions }, index),
    [apps, search, plans, regions, index],
  );
  const counted = useMemo(() => countedApplications(apps), [apps]);
  const pages = pageCount(filtered.length);
  const currentPage = Math.min(page, pages);
  const visible = pageOf(filtered, currentPage);

  const onOpenConsole = useCallback((app: Application & { consoleUrl: string }) => {
    openConsoleTab(app).catch((error: unknown) =>
      showToast({
        color: 'red',
        message: translate(error instanceof Error ? error.message : 'common.anErrorOccurred'),
      }),
    );
  }, []);

  const onAction = useCallback(
    (action: ApplicationAction, app: Application) => {
      if (action === 'editName' || action === 'deactivate') setDialogsOpened(true);
      if (action === 'editName') setEditing(app);
      else if (action === 'deactivate') setDeactivating(app);
      else
        reactivate(app.applicationId, {
          onSuccess: () => showToast({ color: 'green', message: t('apps.reactivated', { name: app.name }) }),
          // Keyed by the message like the global network-failure toast, so one failure shows once.
          onError: (error) =>
            showToast({ id: error.message, color: 'red', message: translate(error.message) }),
        });
    },
    [reactivate, t],
  );

  // Any change of search or filter starts again from the first page. Made once, so the toolbar's
  // filters see the same callbacks on every keystroke and skip re-rendering.
  const toolbarCallbacks = useMemo(() => {
    const filterChange =
      <T,>(set: (value: T) => void) =>
      (value: T) => {
        set(value);
        setPage(1);
      };
    return {
      onSearchChange: filterChange(setSearch),
      onPlansChange: filterChange(setPlans),
      onRegionsChange: filterChange(setRegions),
    };
  }, []);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <div>
          <Title order={1}>{t('page.apps')}</Title>
          {list.isSuccess && (
            <Text c="dimmed" size="sm">
              {t('apps.count', { counted, limit: account.applicationLimit })}
            </Text>
          )}
        </div>
        {list.isSuccess && canCreateApplication(account, counted) && (
          <Button
            component={Link}
            to={`/create-app/${sub}/select-implementation`}
            leftSection={<IconPlus size={18} aria-hidden />}
          >
            {t('apps.create')}
          </Button>
        )}
      </Group>

      {account.accountStatus === 'inactive' && (
        <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} role="status">
          {t('apps.inactiveAccount')}
        </Alert>
      )}

      {list.isError && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title={t('apps.loadError')}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{translate(list.error.message)}</Text>
            <Button
              size="xs"
              variant="white"
              color="red"
              onClick={() => void list.refetch()}
              loading={list.isFetching}
            >
              {t('apps.retry')}
            </Button>
          </Stack>
        </Alert>
      )}

      {list.isPending && <Loading />}

      {list.isSuccess && apps.length === 0 && <GettingStarted />}

      {apps.length > 0 && (
        <>
          <ApplicationsToolbar search={search} plans={plans} regions={regions} {...toolbarCallbacks} />
          <Text size="sm" c="dimmed" role="status">
            {t('apps.results', { count: filtered.length })}
          </Text>
          {filtered.length === 0 ? (
            <Text>{t('apps.noResults')}</Text>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
              {/* Keyed by position: a keystroke that brings other apps updates the grid's cards in
                  place instead of replacing them, which is most of the cost of a new page of results. */}
              {visible.map((app, slot) => (
                <ApplicationCard
                  key={slot}
                  app={app}
                  showPlan={showsPlan(account.contractType)}
                  permissions={permissions}
                  onAction={onAction}
                  onOpenConsole={onOpenConsole}
                />
              ))}
            </SimpleGrid>
          )}
          {pages > 1 && (
            <Center component="nav" aria-label={t('apps.pagination.label')}>
              <Pagination
                total={pages}
                value={currentPage}
                onChange={setPage}
                getItemProps={(item) => ({ 'aria-label': t('apps.pagination.page', { page: item }) })}
                getControlProps={(control) => ({ 'aria-label': t(`apps.pagination.${control}`) })}
              />
            </Center>
          )}
        </>
      )}

      {dialogsOpened && (
        <Suspense fallback={null}>
          <ApplicationDialogs
            editing={editing}
            deactivating={deactivating}
            onCloseEdit={() => setEditing(null)}
            onCloseDeactivate={() => setDeactivating(null)}
          />
        </Suspense>
      )}
    </Stack>
  );
}
