// Import rules of the code base, checked by `npm run lint:deps` (part of `npm run check`).
// See server/README.md for what each folder owns.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles hide which module owns what; move the shared part into its own file.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-cross-area',
      severity: 'error',
      comment:
        "An area reaches another only through that area's public module (server/areas/<area>/public.ts): what it may read or change of the other's tables. Seeding across areas belongs to server/sandbox and server/cli.",
      from: { path: '^server/areas/([^/]+)/' },
      to: { path: '^server/areas/', pathNot: ['^server/areas/$1/', '^server/areas/[^/]+/public\\.ts$'] },
    },
    {
      name: 'db-is-plumbing',
      severity: 'error',
      comment:
        'server/db is plumbing (driver, dialect, migrations, retry, prepared statements, transactions, snapshot and backup): it names no table and imports no area; server/schema.ts joins the owners\' tables.',
      from: { path: '^server/db/' },
      to: { path: '^server/(areas|cli|http|idempotency|kit|sandbox)/|^server/(app|main|operations|schema)\\.ts$' },
    },
    {
      name: 'areas-below-the-pipeline',
      severity: 'error',
      comment:
        'Areas use the kit (server/kit: errors, handler types, paging, signed URLs); the pipeline (server/http, server/idempotency), the handler registry and the entry points use the areas, never the other way round.',
      from: { path: '^server/areas/' },
      to: { path: '^server/(cli|http|idempotency|sandbox)/|^server/(app|main|operations)\\.ts$' },
    },
    {
      name: 'kit-below-areas',
      severity: 'error',
      comment: 'server/kit is what areas import: it never imports an area, the pipeline or an entry point.',
      from: { path: '^server/kit/' },
      to: { path: '^server/(areas|cli|http|idempotency|sandbox)/|^server/(app|main|operations)\\.ts$' },
    },
    {
      name: 'pipeline-is-given-its-handlers',
      severity: 'error',
      comment:
        'server/http (the pipeline) never imports the handler registry (server/operations.ts, which reaches every area and the sandbox) nor an entry point: the handlers, their preflights and the idempotency step are given to it by the composition (server/app.ts).',
      from: { path: '^server/http/' },
      to: { path: '^server/(cli|sandbox)/|^server/(app|main|operations)\\.ts$' },
    },
    {
      name: 'idempotency-above-http',
      severity: 'error',
      comment:
        'server/idempotency is a step of the pipeline: it uses the request context (server/http/pipeline), and server/http never imports it (app.ts hands the step to the pipeline), so the two never form a cycle.',
      from: { path: '^server/http/' },
      to: { path: '^server/idempotency/' },
    },
    {
      name: 'sandbox-only-from-entry-points',
      severity: 'error',
      comment:
        'server/sandbox (test helpers, the test clock, seeds and simulations) uses the areas like the CLI does; what production runs never imports it, except the handler map and the entry points.',
      from: { path: '^server/(areas|db|lib|kit|http|idempotency)/' },
      to: { path: '^server/sandbox/' },
    },
    {
      name: 'lib-is-a-leaf',
      severity: 'error',
      comment: 'server/lib holds pure helpers: no HTTP, no database, no areas.',
      from: { path: '^server/lib/' },
      to: { path: '^server/(areas|http|db|cli|kit|idempotency|sandbox)/|^server/[^/]+\\.ts$' },
    },
    {
      name: 'runtime-not-scripts',
      severity: 'error',
      comment: 'The runtime never depends on build and CI tools.',
      from: { path: '^(server|client|bin)/' },
      to: { path: '^scripts/' },
    },
    {
      name: 'no-tests-in-runtime',
      severity: 'error',
      from: { path: '^(server|client|scripts)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|generated/docs)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
