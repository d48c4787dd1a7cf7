import { z } from 'zod';
import { publicConfigSchema } from '../config/public-config.ts';
import { defineContract } from './route-contract.ts';

const tags = ['system'];

export const systemContracts = {
  health: defineContract({
    method: 'GET',
    path: '/health',
    operationId: 'health',
    summary: 'The process is alive',
    tags,
    permission: 'public',
    responses: { 200: z.object({ status: z.literal('ok') }) },
  }),
  ready: defineContract({
    method: 'GET',
    path: '/ready',
    operationId: 'ready',
    summary: 'The database and the job queue are reachable',
    tags,
    permission: 'public',
    responses: {
      200: z.object({ status: z.literal('ready'), database: z.boolean(), jobs: z.boolean() }),
      503: z.object({ status: z.literal('unavailable'), database: z.boolean(), jobs: z.boolean() }),
    },
  }),
  config: defineContract({
    method: 'GET',
    path: '/config',
    operationId: 'publicConfig',
    summary: 'The public part of the configuration, for the browser',
    tags,
    permission: 'public',
    responses: { 200: publicConfigSchema },
  }),
};
