// What the rest of the service uses of the apps area: the token endpoint's code and refresh grants
// (server/operations.ts routes them), the consent page's routes (server/app.ts mounts them) and the
// approval codes the CLI makes.
export { exchangeCode, exchangeRefreshToken } from './token-grants.js';
export { authorizeRoutes } from './authorize.js';
export { createApprovalCode } from './approval-codes.js';
export { approveDemoApp } from './demo.js';
