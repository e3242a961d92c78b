// ULIDs (request, event, delivery and card ids) whose random part comes from the pooled random
// source (random-bytes.ts): ulid's default source asks the system for one byte per character.
import { monotonicFactory, ulid } from 'ulid';
import { randomFraction } from './random-bytes.js';

/** A ULID. */
export const newUlid = (): string => ulid(undefined, randomFraction);

/** ULIDs that sort in the order they were made, even within one millisecond. */
export const monotonicUlids = () => monotonicFactory(randomFraction);
