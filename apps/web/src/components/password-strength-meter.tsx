import { Box, Group, Stack, Text } from '@mantine/core';
import { PASSWORD_STRENGTH_LEVELS, type PasswordStrengthLevel } from '@portal/contracts';
import { useTranslation } from '../lib/i18n';
import { passwordStrengthLevel } from '../lib/password-strength';
import { usePasswordScore } from '../lib/use-password-score';

const LEVEL_COLORS: Record<PasswordStrengthLevel, string> = { low: 'red.8', medium: 'yellow.7', high: 'green.8' };

/** Three bars filled up to the password's level (§5), with the level in words for screen readers. */
export function PasswordStrengthMeter({ password }: { password: string }) {
  const { t } = useTranslation();
  const score = usePasswordScore(password);
  if (score === null) return null;
  const level = passwordStrengthLevel(password, score);
  const filled = PASSWORD_STRENGTH_LEVELS.indexOf(level) + 1;
  return (
    <Stack gap={4}>
      <Group gap={6} grow aria-hidden>
        {PASSWORD_STRENGTH_LEVELS.map((bar, index) => (
          <Box key={bar} h={6} bdrs="sm" bg={index < filled ? LEVEL_COLORS[level] : 'gray.3'} />
        ))}
      </Group>
      <Text size="sm" aria-live="polite">
        {t('password.strength.label', { level: t(`password.strength.${level}`) })}
      </Text>
    </Stack>
  );
}
