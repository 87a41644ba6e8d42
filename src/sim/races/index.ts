export * from './api';
export * from './model';
export * from './schema';
export * from './rules';
export * from './explore';
