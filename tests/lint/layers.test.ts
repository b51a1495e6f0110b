// The layer rules of eslint.config.js can fail: small in-memory files placed where a forbidden import
// would be are linted with the repository's real config, and each must get its rule's error, while an
// allowed import gets none.
import { execFile } from 'node:child_process';
import path from 'node:path';

interface Probe {
  filePath: string;
  code: string;
}

interface LintMessage {
  ruleId: string | null;
  message: string;
}

const root = path.resolve(__dirname, '../..');

function lintTexts(probes: Probe[]): Promise<Map<string, LintMessage[]>> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [path.join(__dirname, 'support/lint-texts.mjs')],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`${error.message}\n${stderr}`));
          return;
        }
        const results = JSON.parse(stdout) as { filePath: string; messages: LintMessage[] }[];
        resolve(new Map(results.map((result) => [result.filePath, result.messages])));
      },
    );
    child.stdin?.end(JSON.stringify(probes));
  });
}

const probes = {
  clientImportsApp: {
    filePath: 'src/client/layer-probe.ts',
    code: "import { appRoutes } from '../app/routes';\nexport const probe = appRoutes;\n",
  },
  clientImportsGraphql: {
    filePath: 'src/client/layer-probe-graphql.ts',
    code: "import * as graphql from '../graphql';\nexport const probe = graphql;\n",
  },
  serverImportsClient: {
    filePath: 'src/server/agents/layer-probe.ts',
    code: "import { checkToken } from '../../client/jwt';\nexport const probe = checkToken;\n",
  },
  fhirImportsServer: {
    filePath: 'src/fhir/layer-probe.ts',
    code: "import { Repository } from '../server/repo';\nexport const probe = Repository;\n",
  },
  graphqlImportsApp: {
    filePath: 'src/graphql/layer-probe.ts',
    code: "import { appRoutes } from '../app/routes';\nexport const probe = appRoutes;\n",
  },
  featureImportsFeature: {
    filePath: 'src/app/features/home/LayerProbe.tsx',
    code: "import { LandingPage } from '../landing/LandingPage';\nexport const probe = LandingPage;\n",
  },
  componentImportsFeature: {
    filePath: 'src/app/components/LayerProbe.tsx',
    code: "import { HomePage } from '../features/home/HomePage';\nexport const probe = HomePage;\n",
  },
  searchImportsRepo: {
    filePath: 'src/server/search/layer-probe.ts',
    code: "import { Repository } from '../repo';\nexport const probe = Repository;\n",
  },
  schemaImportsLive: {
    filePath: 'src/server/graphql/layer-probe.ts',
    code: "import * as live from '../live/graphql-subscriptions';\nexport const probe = live;\n",
  },
  binaryImportsRest: {
    filePath: 'src/server/binary/layer-probe.ts',
    code: "import * as rest from '../fhir/interactions';\nexport const probe = rest;\n",
  },
  // src/fhir/index.ts re-exports outcomes.ts: an outcomes.ts that imported the index would close a circle.
  cycle: {
    filePath: 'src/fhir/outcomes.ts',
    code: "import { createReference } from './index';\nexport const probe = createReference;\n",
  },
  allowed: {
    filePath: 'src/app/features/home/LayerProbe.tsx',
    code: [
      "import { LinkButton } from '../../components/LinkButton';",
      "import { pregnancyProgress } from './pregnancyProgress';",
      "import { isJwt } from '../../../fhir/jwt';",
      'export const probe = [LinkButton, pregnancyProgress, isJwt];',
      '',
    ].join('\n'),
  },
} satisfies Record<string, Probe>;

type ProbeName = keyof typeof probes;

describe('architecture layers in eslint.config.js (README "Layers")', () => {
  const results = new Map<ProbeName, LintMessage[]>();

  beforeAll(async () => {
    // One ESLint per probe list: the allowed probe shares a path with a forbidden one, so lint twice.
    const { allowed, ...forbidden } = probes;
    const [first, second] = await Promise.all([lintTexts(Object.values(forbidden)), lintTexts([allowed])]);
    for (const [name, probe] of Object.entries(forbidden) as [ProbeName, Probe][]) {
      results.set(name, first.get(probe.filePath) ?? []);
    }
    results.set('allowed', second.get(allowed.filePath) ?? []);
  }, 180_000);

  function ruleIds(name: ProbeName): (string | null)[] {
    return (results.get(name) ?? []).map((message) => message.ruleId);
  }

  test.each([
    ['clientImportsApp', 'the client knows no UI and no server'],
    ['clientImportsGraphql', 'the client knows no UI and no server'],
    ['serverImportsClient', 'the server stands on src/fhir alone'],
    ['fhirImportsServer', 'src/fhir is the pure bottom layer'],
    ['graphqlImportsApp', 'the GraphQL layer sits under the app'],
    ['featureImportsFeature', 'Features never import each other'],
    ['componentImportsFeature', 'Shared app code imports no feature'],
    ['searchImportsRepo', 'search never imports repo'],
    ['schemaImportsLive', 'The GraphQL schema never imports live/'],
    ['binaryImportsRest', 'binary/ never imports the REST module fhir/'],
  ] as [ProbeName, string][])('%s is a restricted-path error: "%s"', (name, text) => {
    const messages = results.get(name) ?? [];
    const zone = messages.filter((message) => message.ruleId === 'import-x/no-restricted-paths');
    expect(zone).toHaveLength(1);
    expect(zone[0].message).toContain(text);
  });

  test('a module that imports its own importer is a no-cycle error', () => {
    expect(ruleIds('cycle')).toContain('import-x/no-cycle');
  });

  test('a feature importing shared components, its own files and src/fhir passes', () => {
    expect(results.get('allowed')).toEqual([]);
  });
});
