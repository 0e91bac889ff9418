import { describe, expect, it } from 'vitest';
import { isFreeMailAddress, isFreeMailDomain } from './free-mail.ts';

describe('isFreeMailAddress (server)', () => {
  it.each([
    'dev@gmail.com',
    'dev@googlemail.com',
    'dev@proton.me',
    'dev@pm.me',
    'dev@live.com',
    'dev@yahoo.co.jp',
    'dev@gmx.de',
    'dev@mail.ru',
    'dev@qq.com',
    'dev@mailinator.com',
  ])('refuses %s, a free-mail provider of the maintained list', (email) => {
    expect(isFreeMailAddress(email)).toBe(true);
  });

  it.each(['dev@mail.gmail.com', 'dev@eu.mail.proton.me', 'dev@x.qq.com'])(
    'refuses %s, under a free-mail domain',
    (email) => {
      expect(isFreeMailAddress(email)).toBe(true);
    },
  );

  it.each(['Dev@PROTON.ME', 'dev@proton.me.', '  dev@Mail.Gmail.Com.  '])(
    'refuses %s whatever its case and trailing dot',
    (email) => {
      expect(isFreeMailAddress(email)).toBe(true);
    },
  );

  it.each(['dev@yahoo.com.br', 'dev@hotmail.co.th', 'dev@outlook.fr'])(
    'refuses %s, one of the spec seven under another top-level domain',
    (email) => {
      expect(isFreeMailAddress(email)).toBe(true);
    },
  );

  it.each([
    'dev@outlook.acme.com',
    'dev@gmail.acme.io',
    'dev@gmail-consulting.com',
    'dev@acme.com',
    'dev@proton.me.acme.com',
    'dev@notqq.com',
  ])('accepts %s, a company domain', (email) => {
    expect(isFreeMailAddress(email)).toBe(false);
  });

  it('reads the domain after the last @', () => {
    expect(isFreeMailAddress('gmail.com@acme.com')).toBe(false);
    expect(isFreeMailAddress('acme.com@proton.me')).toBe(true);
  });
});

describe('isFreeMailDomain', () => {
  it('checks a bare domain, as an SSO email-domain claim gives it', () => {
    expect(isFreeMailDomain('proton.me')).toBe(true);
    expect(isFreeMailDomain('GMX.DE.')).toBe(true);
    expect(isFreeMailDomain('outlook.acme.com')).toBe(false);
    expect(isFreeMailDomain('')).toBe(false);
  });
});
