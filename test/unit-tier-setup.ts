/** Setup of the unit tier (vitest.unit.config.ts): the guard is on for every test file. */
import { guardUnitTier } from './unit-tier-guard.js';

guardUnitTier();
