// Runs untrusted bot code in a fresh QuickJS runtime (ARCHITECTURE: Node's `vm` is not a
// security boundary). The code sees only what we put in: the event, a console that is captured, a
// FHIR client whose every call leaves the sandbox as JSON and is answered asynchronously by the
// host, and a require (and ES module loader) that answers only '@medplum/core' (medplum-core.ts).
// No process, fetch, timers or file system exist inside. A deadline interrupts CPU loops, a
// wall-clock timer stops a bot that waits for ever, and the runtime's memory limit stops allocation
// bombs; each execution gets its own runtime, so a killed run leaves nothing behind for the next.
// QuickJS itself may keep objects alive after an interrupt or running out of memory, so a run that
// ends that way (or whose runtime will not free cleanly) takes the whole WebAssembly instance with
// it: the next run gets a fresh instance of the once-compiled module, the old one's memory is garbage.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import RELEASE_SYNC from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  shouldInterruptAfterDeadline,
} from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';
import {
  HL7_V2_CONTENT_TYPE,
  MEDPLUM_CORE,
  MEDPLUM_CORE_MODULE_SOURCE,
  REQUIRE_PRELUDE,
  medplumCoreSource,
  unknownModuleMessage,
} from './medplum-core';

/** What the bot's FHIR client may ask of the host: method name and JSON arguments. */
export type BotHostCall = (method: string, args: unknown[]) => Promise<unknown>;

export interface SandboxRun {
  code: string;
  /** The `event` argument of handler(medplum, event), plain JSON. */
  event: unknown;
  host: BotHostCall;
  timeoutMs: number;
  memoryBytes: number;
}

export type SandboxResult =
  /** contentType: set when the bot answered with an Hl7Message (its text is the output). */
  | { ok: true; output: unknown; contentType?: string; logs: string[] }
  | { ok: false; error: string; reason: 'timeout' | 'memory' | 'error'; logs: string[] };

/**
 * The FHIR client handed to the bot, in the @medplum/core MedplumClient's names; HL7 v2 input as
 * an Hl7Message and an Hl7Message output as its text, as Medplum does.
 */
const PRELUDE = `${REQUIRE_PRELUDE}
const __event = (event) => {
  if (event && event.contentType === '${HL7_V2_CONTENT_TYPE}' && typeof event.input === 'string') event.input = require('${MEDPLUM_CORE}').Hl7Message.parse(event.input);
  return event;
};
const __encode = (value) => JSON.stringify(__loadedCore() && value instanceof __loadedCore().Hl7Message ? { hl7: value.toString() } : { value });
const __call = (method, ...args) => globalThis.__bloomHost(method, JSON.stringify(args)).then(
  (text) => text === undefined ? undefined : JSON.parse(text),
  (err) => { if (typeof err.outcomeJson === 'string') { err.outcome = JSON.parse(err.outcomeJson); delete err.outcomeJson; } throw err; },
);
/** The If-Match header of a MedplumClient request's options (a plain object or [name, value] pairs). */
const __ifMatch = (options) => {
  const headers = options && options.headers;
  const pairs = Array.isArray(headers) ? headers : Object.entries(headers || {});
  const found = pairs.find((pair) => String(pair[0]).toLowerCase() === 'if-match');
  return found ? { ifMatch: String(found[1]) } : undefined;
};
const __medplum = {
  readResource: (type, id) => __call('readResource', type, id),
  readReference: (ref) => { const [type, id] = String(ref && ref.reference || '').split('/'); return __call('readResource', type, id); },
  search: (type, query) => __call('search', type, query),
  searchResources: (type, query) => __call('search', type, query).then((b) => (b.entry || []).map((e) => e.resource)),
  searchOne: (type, query) => __call('search', type, query, 1).then((b) => b.entry && b.entry[0] ? b.entry[0].resource : undefined),
  createResource: (resource) => __call('createResource', resource),
  updateResource: (resource, options) => __call('updateResource', resource, __ifMatch(options)),
  deleteResource: (type, id) => __call('deleteResource', type, id),
  fhirUrl: (...path) => 'fhir/R4/' + path.join('/'),
  post: (url, body) => __call('post', String(url), body),
};
const __format = (args) => args.map((a) => typeof a === 'string' ? a : (() => { try { return JSON.stringify(a); } catch (e) { return String(a); } })()).join(' ');
globalThis.console = {
  log: (...a) => __bloomLog(__format(a)), info: (...a) => __bloomLog(__format(a)),
  warn: (...a) => __bloomLog(__format(a)), error: (...a) => __bloomLog(__format(a)),
  debug: (...a) => __bloomLog(__format(a)),
};
`;

/**
 * Bots come compiled to CommonJS (`exports.handler = ...`, Medplum's deployed form) or as ES modules
 * (`export async function handler`): the module form is tried when the code has an export statement.
 */
function wrapBotCode(code: string, event: unknown): { code: string; type: 'global' | 'module' } {
  const eventJson = JSON.stringify(event ?? null);
  if (/(^|\n)\s*export\s/.test(code)) {
    return {
      type: 'module',
      code: `${code}\n;export const __result = (async () => { if (typeof handler !== 'function') throw new Error('The bot does not export a handler function'); return __encode(await handler(__medplum, __event(${eventJson}))); })();`,
    };
  }
  return {
    type: 'global',
    code: `(async () => { const module = { exports: {} }; const exports = module.exports; await (async function (module, exports) {\n${code}\n})(module, exports); const handler = module.exports.handler || exports.handler; if (typeof handler !== 'function') throw new Error('The bot does not export a handler function'); return __encode(await handler(__medplum, __event(${eventJson}))); })()`,
  };
}

function errorText(vm: QuickJSContext, handle: QuickJSHandle): string {
  const dumped: unknown = vm.dump(handle);
  if (dumped && typeof dumped === 'object' && 'message' in dumped) {
    const { name, message } = dumped as { name?: string; message?: string };
    return name ? `${name}: ${message}` : String(message);
  }
  return String(dumped);
}

function classify(error: string, timedOut: boolean): 'timeout' | 'memory' | 'error' {
  if (timedOut || /interrupted/i.test(error)) {
    return 'timeout';
  }
  return /out of memory|string too long|invalid array length|stack overflow|allocation/i.test(error)
    ? 'memory'
    : 'error';
}

/**
 * QuickJS's own stack limit. Each JS call nests C frames, which run on Node's native stack too:
 * at 1 MB Node's stack overflowed first (a RangeError thrown through the WebAssembly, leaving the
 * runtime half-way through a call), at 256 kB QuickJS stops recursion itself (~1,500 calls deep).
 */
const MAX_STACK_BYTES = 256 * 1024;

export async function runInSandbox(run: SandboxRun): Promise<SandboxResult> {
  const instance = loadQuickJs();
  const quickjs = await instance;
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(run.memoryBytes);
  runtime.setMaxStackSize(MAX_STACK_BYTES);
  const deadline = Date.now() + run.timeoutMs;
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  const vm = runtime.newContext();
  const logs: string[] = [];
  let disposed = false;
  /** Handles still owned here when the run ends early: disposed before the runtime is freed. */
  const owned = new Set<{ alive: boolean; dispose(): void }>();
  /** Set when the run ended in a way that lets the runtime be freed normally. */
  let clean = false;
  try {
    const result = await execute();
    // Stopped by the interrupt handler or out of memory inside a resumed async function, QuickJS
    // may keep that frame's objects referenced (freeing the runtime then fails its gc_obj_list
    // assertion): such a runtime is never freed into the shared heap.
    clean = result.ok || result.reason === 'error';
    return result;
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    // A deadline that passed while the bot awaited is ordinary; anything else was thrown by the
    // host side, not the bot (e.g. Node's own stack overflowing inside QuickJS).
    clean = error instanceof SandboxTimeout;
    return { ok: false, error: text, reason: classify(text, Date.now() > deadline), logs };
  } finally {
    disposed = true;
    if (clean) {
      try {
        for (const handle of owned) if (handle.alive) handle.dispose();
        vm.dispose();
        runtime.dispose();
      } catch {
        clean = false;
      }
    }
    if (!clean) abandonQuickJs(instance);
  }

  async function execute(): Promise<SandboxResult> {
    const logFn = vm.newFunction('__bloomLog', (line) => {
      logs.push(vm.getString(line));
    });
    vm.setProp(vm.global, '__bloomLog', logFn);
    logFn.dispose();
    const hostFn = vm.newFunction('__bloomHost', (methodHandle, argsHandle) => {
      const method = vm.getString(methodHandle);
      const args = JSON.parse(vm.getString(argsHandle)) as unknown[];
      const deferred = vm.newPromise();
      owned.add(deferred);
      run.host(method, args).then(
        (value) => {
          if (disposed) return;
          const text = value === undefined ? vm.undefined : vm.newString(JSON.stringify(value));
          deferred.resolve(text);
          text.dispose();
        },
        (error: unknown) => {
          if (disposed) return;
          const err = vm.newError(error instanceof Error ? error.message : String(error));
          const outcome = error instanceof Error ? (error as { outcome?: unknown }).outcome : undefined;
          if (outcome !== undefined) {
            // Parsed back into err.outcome by __call, as Medplum's OperationOutcomeError carries it.
            const json = vm.newString(JSON.stringify(outcome));
            vm.setProp(err, 'outcomeJson', json);
            json.dispose();
          }
          deferred.reject(err);
          err.dispose();
        },
      );
      deferred.settled.then(() => {
        owned.delete(deferred);
        deferred.dispose();
        if (!disposed) runtime.executePendingJobs();
      });
      return deferred.handle;
    });
    vm.setProp(vm.global, '__bloomHost', hostFn);
    hostFn.dispose();
    // Evaluated inside the bot's own runtime, so its time and memory count against the bot's limits.
    const requireFn = vm.newFunction('__bloomRequire', (nameHandle) => {
      const name = vm.getString(nameHandle);
      if (name !== MEDPLUM_CORE) throw new Error(unknownModuleMessage(name));
      const core = vm.evalCode(medplumCoreSource(), 'medplum-core.js');
      return core.error ? { error: core.error } : core.value;
    });
    vm.setProp(vm.global, '__bloomRequire', requireFn);
    requireFn.dispose();
    runtime.setModuleLoader((name) =>
      name === MEDPLUM_CORE ? MEDPLUM_CORE_MODULE_SOURCE : { error: new Error(unknownModuleMessage(name)) },
    );

    // A script of its own, before the bot: an ES module bot's imports are linked and evaluated
    // before its body, and they need require already.
    const prelude = vm.evalCode(PRELUDE, 'prelude.js', { type: 'global' });
    if (prelude.error) {
      const error = errorText(vm, prelude.error);
      prelude.error.dispose();
      return { ok: false, error, reason: classify(error, Date.now() > deadline), logs };
    }
    prelude.value.dispose();
    const wrapped = wrapBotCode(run.code, run.event);
    const evaluated = vm.evalCode(wrapped.code, 'bot.js', { type: wrapped.type });
    if (evaluated.error) {
      const error = errorText(vm, evaluated.error);
      evaluated.error.dispose();
      return { ok: false, error, reason: classify(error, Date.now() > deadline), logs };
    }
    let promiseHandle = evaluated.value;
    owned.add(promiseHandle);
    if (wrapped.type === 'module') {
      // A module evaluates to its namespace (or a promise of it when it awaits at top level).
      const namespace = await settle(vm, runtime, promiseHandle, deadline);
      promiseHandle.dispose();
      if (namespace.error) {
        const error = errorText(vm, namespace.error);
        namespace.error.dispose();
        return { ok: false, error, reason: classify(error, Date.now() > deadline), logs };
      }
      promiseHandle = vm.getProp(namespace.value, '__result');
      owned.add(promiseHandle);
      namespace.value.dispose();
    }
    const settled = await settle(vm, runtime, promiseHandle, deadline);
    promiseHandle.dispose();
    if (settled.error) {
      const error = errorText(vm, settled.error);
      settled.error.dispose();
      return { ok: false, error, reason: classify(error, Date.now() > deadline), logs };
    }
    const text = vm.getString(settled.value);
    settled.value.dispose();
    const answer = JSON.parse(text) as { value?: unknown; hl7?: string };
    return answer.hl7 === undefined
      ? { ok: true, output: answer.value, logs }
      : { ok: true, output: answer.hl7, contentType: HL7_V2_CONTENT_TYPE, logs };
  }
}

// The package is ESM (no global require) and jest loads it as CommonJS (no import.meta): a require
// rooted at the working directory's package.json works in both.
const moduleRequire = createRequire(path.join(process.cwd(), 'package.json'));

let compiled: Promise<WebAssembly.Module> | undefined;
let current: Promise<QuickJSWASMModule> | undefined;

/**
 * A QuickJS instance shared by runs until one abandons it. The WebAssembly is compiled once per
 * process (the 'cold' start the bench measures); a new instance of it is cheap. The emscripten
 * glue is loaded with require rather than the variant's dynamic import(), which jest's CommonJS
 * runtime refuses.
 */
function loadQuickJs(): Promise<QuickJSWASMModule> {
  compiled ??= fs.promises
    .readFile(moduleRequire.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'))
    .then((bytes) => WebAssembly.compile(new Uint8Array(bytes)));
  const module = compiled;
  current ??= newQuickJSWASMModuleFromVariant(
    newVariant(
      {
        ...RELEASE_SYNC,
        importModuleLoader: async () =>
          (moduleRequire('@jitl/quickjs-wasmfile-release-sync/emscripten-module') as { default: never })
            .default,
      },
      { wasmModule: () => module },
    ),
  );
  return current;
}

/** Runs already on `instance` finish there; the next run gets a new one. */
function abandonQuickJs(instance: Promise<QuickJSWASMModule>): void {
  if (current === instance) current = undefined;
}

const TIMED_OUT = Symbol('timed out');

/** The bot was still awaiting when its deadline passed. */
class SandboxTimeout extends Error {}

/** Pumps the VM's jobs until the promise settles, or the deadline passes (a bot awaiting for ever). */
async function settle(
  vm: QuickJSContext,
  runtime: { executePendingJobs(): unknown },
  handle: QuickJSHandle,
  deadline: number,
): Promise<{ value: QuickJSHandle; error?: undefined } | { error: QuickJSHandle; value?: undefined }> {
  const resolved = vm.resolvePromise(handle);
  runtime.executePendingJobs();
  // Cleared however the race ends: a module bot settles twice (namespace, then result).
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, deadline - Date.now()));
  });
  const result = await Promise.race([resolved, timeout]).finally(() => clearTimeout(timer));
  if (result === TIMED_OUT) {
    throw new SandboxTimeout('interrupted: the bot did not finish before its time limit');
  }
  return result.error ? { error: result.error } : { value: result.value };
}
