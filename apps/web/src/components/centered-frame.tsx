import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n';
import { BrandMark } from './brand-mark';
import classes from './centered-frame.module.css';

/** The frame of every page shown outside the signed-in layout: brand, a card, and its heading. */
export function CenteredFrame({
  title,
  children,
  width = 440,
}: {
  title: ReactNode;
  children?: ReactNode;
  width?: number;
}) {
  const { t } = useTranslation();
  return (
    <main className={classes.page}>
      <div className={classes.column}>
        <div className={classes.brand}>
          <BrandMark size={32} />
          {t('app.name')}
        </div>
        <section className={classes.card} style={{ maxWidth: width }}>
          <h1 className={classes.title}>{title}</h1>
          {children}
        </section>
      </div>
    </main>
  );
}
