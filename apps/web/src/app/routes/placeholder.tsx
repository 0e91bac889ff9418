import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRouteHandle } from '../route-handle';

/** A signed-in page whose content is not built yet: its frame and heading. */
export function Component() {
  const { t } = useTranslation();
  const { title } = useRouteHandle();
  return <Title order={1}>{t(title)}</Title>;
}
