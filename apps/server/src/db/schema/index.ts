export * from './auth.ts';
export * from './chats.ts';
export * from './companies.ts';
export * from './files.ts';
export * from './knowledge.ts';
export * from './limits.ts';
export * from './operations.ts';
export * from './users.ts';
