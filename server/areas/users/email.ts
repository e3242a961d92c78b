// Addresses compare case-insensitively and without surrounding spaces.

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** "joao.pereira-silva@acme.com.br" → "Joao Pereira Silva": a display name when none is given. */
export function nameFromEmail(email: string): string {
  const local = email.trim().split('@')[0] ?? '';
  const words = local.split(/[._\-+]+/).filter(Boolean);
  const name = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join(' ');
  return name || email.trim();
}
