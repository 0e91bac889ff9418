import { PASSWORD_STRENGTH_LEVELS } from '@portal/contracts';
import { useTranslation } from '../lib/i18n';
import { passwordStrengthLevel } from '../lib/password-strength';
import { usePasswordScore } from '../lib/use-password-score';
import classes from './password-strength-meter.module.css';

/** Three bars filled up to the password's level (§5), with the level in words for screen readers. */
export function PasswordStrengthMeter({ password }: { password: string }) {
  const { t } = useTranslation();
  const score = usePasswordScore(password);
  if (score === null) return null;
  const level = passwordStrengthLevel(password, score);
  const filled = PASSWORD_STRENGTH_LEVELS.indexOf(level) + 1;
  return (
    <div>
      <div className={classes.bars} aria-hidden>
        {PASSWORD_STRENGTH_LEVELS.map((bar, index) => (
          <span key={bar} className={index < filled ? `${classes.bar} ${classes[level]}` : classes.bar} />
        ))}
      </div>
      <p className={classes.label} aria-live="polite">
        {t('password.strength.label', { level: t(`password.strength.${level}`) })}
      </p>
    </div>
  );
}
