// docs/operating.md's PostgreSQL backup and restore lines, as an operator copies them: the tests run
// them and check `finance backup`'s hint prints them.
import { readFileSync } from 'node:fs';

/** The first ```sh block after `heading` in docs/operating.md. */
const blockAfter = (text: string, heading: string) => {
  const from = text.indexOf(heading);
  if (from < 0) throw new Error(`docs/operating.md has no "${heading}"`);
  return /```sh\n([\s\S]*?)```/.exec(text.slice(from))![1]!;
};

export function postgresRecipe(): { dump: string; restore: string } {
  const text = readFileSync('docs/operating.md', 'utf8');
  return {
    dump: blockAfter(text, '**PostgreSQL** is backed up'),
    restore: blockAfter(text, '**Restoring (PostgreSQL)**'),
  };
}

/** The recipe's command lines. */
export const commandLines = (block: string) => block.split('\n').filter((line) => line.trim() !== '');
