#!/usr/bin/env node
// The `finance` sandbox command. Runs the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../server/cli/main.ts');
