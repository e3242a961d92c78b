// `finance mcp`: an MCP server on stdio for an assistant, a client of the API (docs/mcp.md).
import type { Command } from 'commander';
import { apiSession, withApi, type ApiOptions } from '../api-session.js';

export function register(program: Command): void {
  withApi(program.command('mcp'))
    .description(
      'Serve the API to an assistant as MCP tools on stdio (the default set the credentials may call, more by group; docs/mcp.md)',
    )
    .option(
      '--tools <list>',
      'groups and tools to add: comma-separated names (cards,webhooks), * as wildcard, all, -name removes (default: $FINANCE_MCP_TOOLS)',
    )
    .action(async (opts: ApiOptions & { tools?: string }) => {
      // Loaded here, not with the command tree: `finance serve` never needs the MCP SDK.
      const { grantedScopes, serveStdio } = await import('../../mcp/stdio.js');
      const { parseSelection } = await import('../../mcp/selection.js');
      const { packageVersion } = await import('../../mcp/server.js');
      const { baseUrl, api } = apiSession(opts);
      const clientId = opts.clientId ?? process.env.FINANCE_CLIENT_ID ?? '';
      const clientSecret = opts.clientSecret ?? process.env.FINANCE_CLIENT_SECRET ?? '';
      await serveStdio({
        api,
        scopes: await grantedScopes(baseUrl, clientId, clientSecret),
        selection: parseSelection(opts.tools ?? process.env.FINANCE_MCP_TOOLS),
        version: packageVersion(),
      });
    });
}
