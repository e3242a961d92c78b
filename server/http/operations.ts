// Every operation of the contract, by operationId. `satisfies Handlers` makes a missing handler a compile error.
import type { Handlers } from './handler.js';
import { handlers as auth } from '../areas/auth/handlers.js';

export const operations = {
  ...auth,
} satisfies Handlers;
