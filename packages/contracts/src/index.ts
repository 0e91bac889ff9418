export * from './constants.ts';
export * from './permissions.ts';
export * from './messages.ts';
export * from './errors.ts';
export * from './auth.ts';
export * from './account.ts';
export * from './applications.ts';
export * from './region.ts';
