import { PageTitle } from '../../components/plain/layout';
import { useTranslation } from '../../lib/i18n';
import { useRouteHandle } from '../route-handle';

/** A signed-in page whose content is not built yet: its frame and heading. */
export function Component() {
  const { t } = useTranslation();
  const { title } = useRouteHandle();
  return <PageTitle>{t(title)}</PageTitle>;
}
