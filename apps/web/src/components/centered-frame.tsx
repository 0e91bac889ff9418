import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n';
import { BrandMark } from './brand-mark';
import classes from './centered-frame.module.css';

/** The portal's mark and name, as the pages outside the signed-in layout show them on top. */
export function BrandLine({ size = 32 }: { size?: number }) {
  const { t } = useTranslation();
  return (
    <div className={classes.brand}>
      <BrandMark size={size} />
      {t('app.name')}
    </div>
  );
}

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
  return (
    <main className={classes.page}>
      <div className={classes.column}>
        <BrandLine />
        <section className={classes.card} style={{ maxWidth: width }}>
          <h1 className={classes.title}>{title}</h1>
          {children}
        </section>
      </div>
    </main>
  );
}
