/**
 * Vitest setup (vitest.config.ts): the password hashes tests make (every
 * createTestApp's administrator, every agent added through the API) use a
 * low scrypt cost, so the suite does not spend seconds per agent on the
 * production cost (N=2^17: 128 MiB and a few hundred ms per hash). Only the
 * test process is affected: production code never calls this (only
 * this setup file does). The process tests run the
 * built server, at the production cost; server/domain/auth/passwords.test.ts
 * checks that cost and the rehash at sign-in with it restored.
 */
import { lowerCostForTests } from '../../server/domain/auth/passwords.js';

lowerCostForTests({ N: 1024, r: 8, p: 1 });
