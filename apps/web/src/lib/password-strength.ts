import { meetsPasswordPolicy, type PasswordStrengthLevel } from '@portal/contracts';

/** zxcvbn's rating: 0 very weak, 1 weak, 2 reasonable, 3 strong, 4 very strong. */
export type ZxcvbnScore = 0 | 1 | 2 | 3 | 4;

/**
 * The three-level meter of §5: a password that is very weak or breaks any rule of the
 * sign-up policy (length, lowercase, uppercase, digit, symbol) is low whatever zxcvbn says.
 */
export function passwordStrengthLevel(password: string, score: ZxcvbnScore): PasswordStrengthLevel {
  if (score === 0 || !meetsPasswordPolicy(password)) return 'low';
  return score <= 2 ? 'medium' : 'high';
}
