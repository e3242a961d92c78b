// What other areas may read of the users area: its users' ids and addresses.
export { userEmails, userIdsByEmail, withRequesterEmail } from './references.js';
