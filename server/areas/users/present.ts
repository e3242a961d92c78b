// Rows → the contract's response shapes.
import type { components } from '../../../generated/openapi.js';
import type { RoleRow } from './tables.js';
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
