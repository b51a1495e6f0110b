// Bundles one of the clinic's bots (its entry and the pure modules it imports) with esbuild into the
// one CommonJS file a Bot's executableCode holds. Skips the work when the output is newer than its
// inputs, unless --force is on the command line. Used by scripts/build-*-bot.ts.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { build } from 'esbuild';

export interface BotBundle {
  /** The name in log lines and the bundle's banner. */
  name: string;
  entry: string;
  /** Files whose change means a rebuild (the entry, its modules, the calling script). */
  inputs: readonly string[];
  output: string;
}

function upToDate({ inputs, output }: BotBundle): boolean {
  if (!existsSync(output)) return false;
  const built = statSync(output).mtimeMs;
  return [...inputs, 'scripts/bundle-bot.ts'].every((input) => statSync(input).mtimeMs <= built);
}

export async function bundleBot(bundle: BotBundle, script: string): Promise<void> {
  if (!process.argv.includes('--force') && upToDate(bundle)) {
    console.log(`${bundle.name}: ${bundle.output} is up to date`);
    return;
  }
  const result = await build({
    entryPoints: [bundle.entry],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'neutral',
    target: 'es2020',
    banner: { js: `// Bloom ${bundle.name}, bundled by ${script}` },
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text;
  mkdirSync(dirname(bundle.output), { recursive: true });
  writeFileSync(bundle.output, code);
  console.log(`${bundle.name}: bundled into ${bundle.output} (${(code.length / 1024).toFixed(1)} kB)`);
}

/** Runs a build script's bundle, exiting 1 with the error when it fails. */
export function runBundleBot(bundle: BotBundle, script: string): void {
  bundleBot(bundle, script).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
