// Row types of roles, users and invites (migration 0003_users).

/** The access profile behind a role. MAIN is the account owner; RESPONSIBLE an administrator. */
export type RoleProfile = 'MAIN' | 'RESPONSIBLE' | 'MANAGER' | 'EMPLOYEE';

export type InviteStatus = 'PENDING' | 'ACCEPTED' | 'EXPIRED';

export interface RoleRow {
  /** UUID v4. */
  id: string;
  company_id: string;
  name: string;
  profile: RoleProfile;
  created_at: string;
}

export interface UserRow {
  /** UUID v4. */
  id: string;
  company_id: string;
  /** The address as invited (trimmed); never changes. */
  email: string;
  /** Trimmed, lower-cased `email`: unique among the company's users that are not deleted. */
  email_normalized: string;
  name: string;
  /** E.164, or null when unknown. */
  phone: string | null;
  role_id: string;
  /** 1 active, 0 inactive (suspended). */
  active: number;
  created_at: string;
  updated_at: string;
  /** Set when the user is deleted: the row stays so transactions keep referencing it. */
  deleted_at: string | null;
}

export interface InviteRow {
  /** UUID v4. */
  id: string;
  company_id: string;
  email: string;
  /** Unique among the company's PENDING invites. */
  email_normalized: string;
  role_id: string;
  status: InviteStatus;
  created_at: string;
  /** A PENDING invite past this instant is treated, and eventually stored, as EXPIRED. */
  expires_at: string;
  accepted_at: string | null;
  /** The user the invite became, once ACCEPTED. */
  user_id: string | null;
}

export interface UsersTables {
  roles: RoleRow;
  users: UserRow;
  invites: InviteRow;
}
