// Row types of the vcn area's tables (see its migration in server/db/migrations/).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface VcnTables {}
