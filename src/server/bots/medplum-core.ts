// `require('@medplum/core')` and `import ... from '@medplum/core'` inside the bot sandbox, so
// existing Medplum bots run unchanged. The answer is the real @medplum/core, bundled at build
// time (scripts/build-bot-core.ts) and evaluated in the bot's own QuickJS runtime the first time the
// bot asks for it, so bots that never do pay nothing. Its Hl7Message is also what HL7 v2 input
// arrives as, as in Medplum. Any other module name fails with an error that says what there is.
import fs from 'node:fs';
import { MEDPLUM_CORE_BUNDLE_PATH, MEDPLUM_CORE_EXPORTS, MEDPLUM_CORE_GLOBAL } from './medplum-core-exports';

/** Medplum's content type for HL7 v2 bodies: given to the bot as an Hl7Message, answered as text. */
export const HL7_V2_CONTENT_TYPE = 'x-application/hl7-v2+er7';

export const MEDPLUM_CORE = '@medplum/core';

export function unknownModuleMessage(name: string): string {
  return (
    `Cannot find module '${name}': a bot can require only '${MEDPLUM_CORE}' ` +
    '(the sandbox has no file system, network or Node.js modules)'
  );
}

let coreSource: string | undefined;

/** The bundle as an expression whose value is the exports object (its variable stays local). */
export function medplumCoreSource(): string {
  if (coreSource === undefined) {
    let bundle: string;
    try {
      bundle = fs.readFileSync(MEDPLUM_CORE_BUNDLE_PATH, 'utf8');
    } catch (err) {
      throw new Error(
        `The bots' @medplum/core bundle ${MEDPLUM_CORE_BUNDLE_PATH} is missing: run "node scripts/build.mjs"`,
        { cause: err },
      );
    }
    coreSource = `(function () {\n${bundle}\nreturn ${MEDPLUM_CORE_GLOBAL};\n})()`;
  }
  return coreSource;
}

/** What an ES module bot's `import { ... } from '@medplum/core'` links against. */
export const MEDPLUM_CORE_MODULE_SOURCE =
  `const core = require('${MEDPLUM_CORE}');\n` +
  `export const { ${MEDPLUM_CORE_EXPORTS.join(', ')} } = core;\nexport default core;`;

/**
 * JavaScript evaluated inside QuickJS before the bot. `__bloomRequire(name)` is the host function
 * that evaluates the bundle (or throws unknownModuleMessage). The module object is marked
 * __esModule (as @medplum/core's own CommonJS build is) and names what is missing when a bot uses
 * an export this sandbox leaves out, instead of a bare "not a function".
 */
export const REQUIRE_PRELUDE = `
const __modules = Object.create(null);
const __guardModule = (name, exports) => {
  const target = Object.freeze(Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(exports), __esModule: { value: true } }));
  return new Proxy(target, {
    get(t, key) {
      if (typeof key !== 'string' || key in t || key === 'default' || key === 'then' || key === 'toJSON') return t[key];
      throw new TypeError(name + " has no export '" + key + "' in this bot sandbox; it offers " + Object.keys(t).join(', '));
    },
  });
};
globalThis.require = function require(name) {
  name = String(name);
  return __modules[name] || (__modules[name] = __guardModule(name, __bloomRequire(name)));
};
/** @medplum/core if the bot (or its input) has loaded it, without loading it. */
const __loadedCore = () => __modules['${MEDPLUM_CORE}'];
for (const name of ['Hl7Context', 'Hl7Field', 'Hl7Segment', 'Hl7Message']) {
  Object.defineProperty(globalThis, name, { get: () => require('${MEDPLUM_CORE}')[name], configurable: true });
}
`;
