import {
  APPLICATION_LIST_MAX_LIMIT,
  uiPermissions,
  type Application,
  type PlanKey,
  type RegionKey,
} from '@portal/contracts';
import { IconPlus } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useParams, useSearchParams } from 'react-router';
import { useSignedInAccount } from '../../../lib/account';
import { translate } from '../../../lib/i18n';
import { openConsoleTab } from '../../../lib/regions/console-tab';
import { useApplications } from '../../../api/applications/list-applications';
import { useReactivateApplication } from '../api/reactivate-application';
import {
  applicationActions,
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
import { Button, ButtonLink } from '../../../components/plain/buttons';
import { PageTitle } from '../../../components/plain/layout';
import { Pagination } from '../../../components/plain/pagination';
import { AlertBox } from '../../../components/status-alert';
import { showToast, toastError } from '../../../lib/toasts';
import classes from './applications.module.css';
import { errorText } from '../../../lib/api-error';
import { tourAnchor } from '../../../lib/tour-anchors';

const NO_APPS: Application[] = [];

// The modals, their forms and what they need load when the user first opens one.
const ApplicationDialogs = lazy(() => import('./application-dialogs'));

/**
 * §2 application list (/apps/:sub). `tour` (the guided tour's offer and runner) shows once the list
 * has loaded, so the tour finds the cards that are there; `notices` (the usage alerts crossed this
 * month) show above the list, which does not wait for them.
 */
export function ApplicationsPage({ tour, notices }: { tour?: ReactNode; notices?: ReactNode }) {
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
  const [updating, setUpdating] = useState<Application | null>(null);
  const [deactivating, setDeactivating] = useState<Application | null>(null);
  const [managingKeys, setManagingKeys] = useState<Application | null>(null);
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
      toastError(errorText(error, { fallback: 'common.anErrorOccurred' })),
    );
  }, []);

  const onAction = useCallback(
    (action: ApplicationAction, app: Application) => {
      if (action !== 'reactivate') setDialogsOpened(true);
      if (action === 'update') setUpdating(app);
      else if (action === 'apiKeys') setManagingKeys(app);
      else if (action === 'deactivate') setDeactivating(app);
      else
        reactivate(app.applicationId, {
          onSuccess: () => showToast({ color: 'green', message: t('apps.reactivated', { name: app.name }) }),
          // Keyed by the message like the global network-failure toast, so one failure shows once.
          onError: (error) => toastError(errorText(error), error.message),
        });
    },
    [reactivate, t],
  );

  // The setup wizard links here with ?apiKeys=<application ID> to open that app's API keys.
  const [params, setParams] = useSearchParams();
  const keysOf = params.get('apiKeys');
  useEffect(() => {
    if (!keysOf || !list.isSuccess) return;
    const app = apps.find((item) => item.applicationId === keysOf);
    if (app && applicationActions(app.state, permissions).includes('apiKeys')) onAction('apiKeys', app);
    setParams(
      (current) => {
        current.delete('apiKeys');
        return current;
      },
      { replace: true },
    );
  }, [keysOf, list.isSuccess, apps, permissions, onAction, setParams]);

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
    <div className={classes.page}>
      <div className={classes.header}>
        <div>
          <PageTitle>{t('page.apps')}</PageTitle>
          {list.isSuccess && (
            <p className={classes.dimmed}>{t('apps.count', { counted, limit: account.applicationLimit })}</p>
          )}
        </div>
        {list.isSuccess && canCreateApplication(account, counted) && (
          <ButtonLink
            {...tourAnchor('create-application')}
            to={`/create-app/${sub}/select-implementation`}
            leftSection={<IconPlus size={18} aria-hidden />}
          >
            {t('apps.create')}
          </ButtonLink>
        )}
      </div>

      {!list.isPending && tour}

      {account.accountStatus === 'inactive' && (
        <AlertBox kind="warning">{t('apps.inactiveAccount')}</AlertBox>
      )}

      {notices}

      {list.isError && (
        <AlertBox kind="fail">
          <p className={classes.alertTitle}>{t('apps.loadError')}</p>
          <p>{translate(errorText(list.error))}</p>
          <Button variant="default" onClick={() => void list.refetch()} loading={list.isFetching}>
            {t('apps.retry')}
          </Button>
        </AlertBox>
      )}

      {list.isPending && <Loading />}

      {list.isSuccess && apps.length === 0 && <GettingStarted />}

      {apps.length > 0 && (
        <>
          <ApplicationsToolbar search={search} plans={plans} regions={regions} {...toolbarCallbacks} />
          <p className={classes.dimmed} role="status">
            {t('apps.results', { count: filtered.length })}
          </p>
          {filtered.length === 0 ? (
            <p>{t('apps.noResults')}</p>
          ) : (
            <div className={classes.grid} {...tourAnchor('application-list')}>
              {/* The cards are taken over after the rest of the page (decision 045): the search and
                  the filters answer first, and a click on a card before then takes it over at once. */}
              <Suspense>
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
              </Suspense>
            </div>
          )}
          {pages > 1 && (
            <Pagination
              total={pages}
              value={currentPage}
              onChange={setPage}
              label={t('apps.pagination.label')}
              pageLabel={(item) => t('apps.pagination.page', { page: item })}
              previousLabel={t('apps.pagination.previous')}
              nextLabel={t('apps.pagination.next')}
            />
          )}
        </>
      )}

      {dialogsOpened && (
        <Suspense fallback={null}>
          <ApplicationDialogs
            updating={updating}
            deactivating={deactivating}
            managingKeys={managingKeys}
            onCloseUpdate={() => setUpdating(null)}
            onCloseDeactivate={() => setDeactivating(null)}
            onCloseKeys={() => setManagingKeys(null)}
          />
        </Suspense>
      )}
    </div>
  );
}
