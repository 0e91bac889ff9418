import type { PublicConfig } from '@portal/contracts';
import { IconBook, IconDeviceGamepad2, IconExternalLink, IconMessages, type Icon } from '@tabler/icons-react';
import { Card } from '../../../components/plain/layout';
import { useTranslation, type TranslationKey } from '../../../lib/i18n';
import { usePublicConfig } from '../../../lib/public-config';
import classes from './applications.module.css';

interface GuideCard {
  /** The configured help link it opens; the developer portal hosts the playground. */
  link: keyof PublicConfig['helpLinks'];
  title: TranslationKey;
  text: TranslationKey;
  icon: Icon;
}

const CARDS: GuideCard[] = [
  {
    link: 'developerPortal',
    title: 'apps.empty.playground.title',
    text: 'apps.empty.playground.text',
    icon: IconDeviceGamepad2,
  },
  { link: 'documentation', title: 'apps.empty.docs.title', text: 'apps.empty.docs.text', icon: IconBook },
  {
    link: 'communityHub',
    title: 'apps.empty.forums.title',
    text: 'apps.empty.forums.text',
    icon: IconMessages,
  },
];

/** §2 empty state: where to look before creating the first application. */
export function GettingStarted() {
  const { t } = useTranslation();
  const { data: config } = usePublicConfig();
  return (
    <div className={classes.guides}>
      <div>
        <h2>{t('apps.empty.title')}</h2>
        <p className={classes.dimmed}>{t('apps.empty.text')}</p>
      </div>
      <div className={classes.guideGrid}>
        {CARDS.map(({ link, title, text, icon: CardIcon }) => (
          <Card key={link}>
            <div className={classes.guide}>
              <span className={classes.guideIcon}>
                <CardIcon size={20} aria-hidden />
              </span>
              <h3>{t(title)}</h3>
              <p className={classes.dimmed}>{t(text)}</p>
              {config && (
                <a
                  className={classes.guideLink}
                  href={config.helpLinks[link]}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  <span>{t('apps.empty.open', { title: t(title) })}</span>{' '}
                  <IconExternalLink size={14} aria-hidden />
                </a>
              )}
            </div>
          </Card>
        ))}
      </div>
    </div>
  );
}
