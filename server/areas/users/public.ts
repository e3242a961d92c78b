// What other areas may read of the users area: its users' ids, names and addresses.
export { userContacts, userEmails, userIdsByEmail, withRequesterEmail } from './references.js';
