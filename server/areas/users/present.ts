// Rows → the contract's response shapes.
import type { components } from '../../../generated/openapi.js';
import type { InviteRow, RoleRow } from './tables.js';
import type { UserView } from './store/users.js';

type Schemas = components['schemas'];

export const presentUser = (user: UserView): Schemas['User'] => ({
  id: user.id,
  email: user.email,
  name: user.name,
  ...(user.phone !== null ? { phone: user.phone } : {}),
  role: { id: user.role_id, name: user.role_name },
  active: user.active === 1,
});

export const presentRole = (role: RoleRow): Schemas['Role'] => ({
  id: role.id,
  name: role.name,
  profile: role.profile,
});

/** An invite in its state at `now` (the company's instant): a PENDING one past its expiry is EXPIRED. */
export const presentInviteItem = (invite: InviteRow & { role_name: string }, now: string): Schemas['Invite'] => ({
  id: invite.id,
  email: invite.email,
  role: { id: invite.role_id, name: invite.role_name },
  status: invite.status === 'PENDING' && invite.expires_at <= now ? 'EXPIRED' : invite.status,
  createdAt: invite.created_at,
  expiresAt: invite.expires_at,
});
