import { describe, expect, it } from 'vitest';
import { passwordStrengthLevel } from './password-strength';

const policyCompliant = 'Blue-Harbor-42x';

describe('passwordStrengthLevel', () => {
  it('is low when zxcvbn rates the password very weak', () => {
    expect(passwordStrengthLevel(policyCompliant, 0)).toBe('low');
  });

  it('is low when any rule of the sign-up policy is broken, whatever the score', () => {
    expect(passwordStrengthLevel('Short-1a', 4)).toBe('low');
    expect(passwordStrengthLevel('blue-harbor-42x', 4)).toBe('low');
    expect(passwordStrengthLevel('BLUE-HARBOR-42X', 4)).toBe('low');
    expect(passwordStrengthLevel('Blue-Harbor-xyz', 4)).toBe('low');
    expect(passwordStrengthLevel('BlueHarbor42xy', 4)).toBe('low');
  });

  it('is medium when rated weak or reasonable', () => {
    expect(passwordStrengthLevel(policyCompliant, 1)).toBe('medium');
    expect(passwordStrengthLevel(policyCompliant, 2)).toBe('medium');
  });

  it('is high when rated strong or very strong', () => {
    expect(passwordStrengthLevel(policyCompliant, 3)).toBe('high');
    expect(passwordStrengthLevel(policyCompliant, 4)).toBe('high');
  });
});
