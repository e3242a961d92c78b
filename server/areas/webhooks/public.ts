// What other areas may use of the webhooks area: its outbox, which the events area's recordEvent
// fills in the change's transaction, and the queue's figures the metrics show.
export { deleteDeliveriesOf, enqueueDeliveries } from './outbox.js';
export { deliveriesByStatus, oldestPendingDelivery } from './queue.js';
