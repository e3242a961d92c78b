// Where the store lives, read without opening it: which kind a location names, what is wrong with
// one before anything is created or migrated, and how to show it without its password.
// A location is a SQLite file path (or `:memory:`) or a `postgres://…`/`postgresql://…` URL. Any
// other `scheme://` is a mistake (`postgress://`, `mysql://`): it would otherwise become the name
// of a new SQLite file. A PostgreSQL URL must name its database: without one the driver connects to
// the user's default database (often the server's maintenance database `postgres`), and the
// migrations would fill it.

/** `postgres://…` or `postgresql://…` selects PostgreSQL; anything else is a SQLite file path (or `:memory:`). */
export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//i.test(location);

/** What is wrong with a store location; undefined when it can be opened as given. */
export function locationProblem(location: string): string | undefined {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(location)?.[1];
  if (scheme === undefined) return location.trim() === '' ? 'is empty' : undefined;
  if (!isPostgresUrl(location))
    return `unknown scheme ${scheme}:// (a PostgreSQL URL starts postgres:// or postgresql://; a SQLite store is a file path)`;
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return 'is not a valid URL (postgres://user:password@host:5432/database)';
  }
  const database = decodeURIComponent(url.pathname.replace(/^\/+/, ''));
  if (database === '')
    return 'names no database (postgres://user:password@host:5432/database); without one the server connects to its default database';
  return undefined;
}

/** A PostgreSQL URL with its password replaced by `***`; anything else as it is. */
export function withoutPassword(location: string): string {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(location)) return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return `${location.split(':')[0]}://…`;
  }
}

/** Where a store lives, for messages, without opening it. */
export const describeLocation = (location: string) => withoutPassword(location);
