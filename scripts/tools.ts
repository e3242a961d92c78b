// Runs the contract tools installed in node_modules/.bin and keeps their output readable.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

export const projectRoot = resolve(import.meta.dirname, '..');

// Redocly CLI prints a boxed Node.js-support notice on every run; it says nothing about the contract.
const noise = /[║╔╚]|^\s*$|npm warn Unknown user config/;

export const withoutNoise = (text: string): string =>
  text
    .split('\n')
    .filter((line) => !noise.test(line))
    .join('\n');

/** Runs `node_modules/.bin/<name> ...args` from the project root and collects its output. */
export function runTool(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ToolResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(resolve(projectRoot, 'node_modules', '.bin', name), args, {
      cwd: projectRoot,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, stdout, stderr }));
  });
}

/** Like runTool, but throws with the tool's output when it fails. */
export async function mustRunTool(name: string, args: string[]): Promise<ToolResult> {
  const result = await runTool(name, args);
  if (result.code !== 0) {
    throw new Error(`${name} ${args.join(' ')} failed:\n${withoutNoise(result.stdout + result.stderr)}`);
  }
  return result;
}

/** The files under `dir` (a folder of the project, at any depth) whose names end with `ending`. */
export const filesUnder = (dir: string, ending: string): string[] =>
  readdirSync(resolve(projectRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(ending))
    .map((name) => resolve(projectRoot, dir, name));

/** `output` was written after its every input last changed (paths of the project, or absolute). */
export function isFresh(output: string, inputs: string[]): boolean {
  const built = statSync(resolve(projectRoot, output), { throwIfNoEntry: false })?.mtimeMs;
  return built !== undefined && inputs.every((file) => statSync(resolve(projectRoot, file)).mtimeMs <= built);
}

/** True when the module at `moduleUrl` is the script node was started with. */
export const isMain = (moduleUrl: string): boolean =>
  process.argv[1] !== undefined && moduleUrl === pathToFileURL(resolve(process.argv[1])).href;
