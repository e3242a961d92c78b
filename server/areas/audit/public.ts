// What other areas may use of the audit area: recording an entry in the action's transaction, who
// made a request, the actors outside a request, and the retention purge.
export { CLI_ACTOR, SYSTEM_ACTOR } from './actions.js';
export { auditing, plainAddress, recordAudit, requestActor, type AuditWrite } from './log.js';
export { purgeAuditEntries } from './store.js';
