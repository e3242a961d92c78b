// What other areas may use of the events area: recording an event in the change's transaction, the
// event's public shape, its types and the 30-day purge.
export { changedAttributes, findEvent, presentEvent, purgeEvents, recordEvent, recordEvents } from './log.js';
export type { EventType } from './types.js';
