// What other areas may use of the webhooks area: its outbox, which the events area's recordEvent
// fills in the change's transaction.
export { deleteDeliveriesOf, enqueueDeliveries } from './outbox.js';
