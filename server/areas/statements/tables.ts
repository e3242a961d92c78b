// Row types of the statements area's tables (see its migration in server/db/migrations/).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface StatementsTables {}
