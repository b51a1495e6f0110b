// The bot sandbox alone (issue #10 Bots, SPEC §7 Bot $execute): Medplum's handler(medplum, event)
// format in CommonJS and ES module form, the FHIR client bridged out asynchronously, console
// captured, and hostile code (endless loop, allocation bomb, process/require/fetch) stopped with a
// clear reason while the next run works normally.
import { runInSandbox } from '../../src/server/bots/sandbox';
import type { SandboxRun } from '../../src/server/bots/sandbox';

const noHost: SandboxRun['host'] = async (method) => {
  throw new Error(`unexpected call ${method}`);
};

function run(code: string, overrides: Partial<SandboxRun> = {}) {
  return runInSandbox({
    code,
    event: { input: { n: 2 }, contentType: 'application/json', secrets: {} },
    host: noHost,
    timeoutMs: 2000,
    memoryBytes: 16 * 1024 * 1024,
    ...overrides,
  });
}

describe('bot sandbox (issue #10, SPEC §7 Bot $execute)', () => {
  it('runs a CommonJS handler with its event and returns its output', async () => {
    const result = await run('exports.handler = async (medplum, event) => ({ doubled: event.input.n * 2 });');
    expect(result).toEqual({ ok: true, output: { doubled: 4 }, logs: [] });
  });

  it('runs an ES module handler and captures console.log', async () => {
    const result = await run(
      'export async function handler(medplum, event) { console.log("got", event.input); return "hi " + event.contentType; }',
    );
    expect(result).toEqual({ ok: true, output: 'hi application/json', logs: ['got {"n":2}'] });
  });

  it('bridges FHIR client calls to the host asynchronously, errors included', async () => {
    const calls: [string, unknown[]][] = [];
    const host: SandboxRun['host'] = async (method, args) => {
      calls.push([method, args]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (method === 'readResource') {
        throw new Error('Not found');
      }
      return { ...(args[0] as object), id: 'new-1' };
    };
    const result = await run(
      `exports.handler = async (medplum) => {
        const created = await medplum.createResource({ resourceType: 'Patient' });
        let failure;
        try { await medplum.readResource('Patient', 'missing'); } catch (e) { failure = e.message; }
        return { id: created.id, failure };
      };`,
      { host },
    );
    expect(result).toEqual({ ok: true, output: { id: 'new-1', failure: 'Not found' }, logs: [] });
    expect(calls).toEqual([
      ['createResource', [{ resourceType: 'Patient' }]],
      ['readResource', ['Patient', 'missing']],
    ]);
  });

  it('has no process, require, fetch or setTimeout inside', async () => {
    const result = await run(
      'exports.handler = async () => [typeof process, typeof require, typeof fetch, typeof globalThis.std, typeof globalThis.os];',
    );
    expect(result).toEqual({
      ok: true,
      output: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined'],
      logs: [],
    });
    const reach = await run(
      'exports.handler = async () => require("fs").readFileSync("/etc/passwd", "utf8");',
    );
    expect(reach).toMatchObject({ ok: false, reason: 'error', error: expect.stringMatching(/require/) });
    const env = await run('exports.handler = async () => process.env;');
    expect(env).toMatchObject({ ok: false, reason: 'error', error: expect.stringMatching(/process/) });
    const net = await run('exports.handler = async () => fetch("http://localhost/");');
    expect(net).toMatchObject({ ok: false, reason: 'error', error: expect.stringMatching(/fetch/) });
  });

  it('stops an endless loop at the time limit, and the next run works', async () => {
    const loop = await run('exports.handler = async () => { for (;;) {} };', { timeoutMs: 300 });
    expect(loop).toMatchObject({ ok: false, reason: 'timeout' });
    const next = await run('exports.handler = async () => "fine";');
    expect(next).toEqual({ ok: true, output: 'fine', logs: [] });
  });

  it('stops a bot that awaits for ever at the time limit', async () => {
    const waiting = await run('exports.handler = () => new Promise(() => {});', { timeoutMs: 200 });
    expect(waiting).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('stops an allocation bomb at the memory limit, and the next run works', async () => {
    const bomb = await run(
      'exports.handler = async () => { const a = []; for (let i = 0; ; i++) a.push({ i, tag: "n" + i }); };',
      {
        memoryBytes: 8 * 1024 * 1024,
        timeoutMs: 5000,
      },
    );
    expect(bomb).toMatchObject({ ok: false, reason: 'memory' });
    const doubling = await run('exports.handler = async () => { let s = "x"; for (;;) s = s + s; };');
    expect(doubling).toMatchObject({ ok: false, reason: 'memory' });
    const recursion = await run(
      'exports.handler = async () => { const f = (n) => f(n + 1) + 1; return f(0); };',
    );
    expect(recursion).toMatchObject({ ok: false, error: expect.stringMatching(/stack overflow/i) });
    const next = await run('exports.handler = async () => 1 + 1;');
    expect(next).toEqual({ ok: true, output: 2, logs: [] });
  });

  it('ends hostile runs without QuickJS failing to free a runtime (no leaked handles), then runs normally', async () => {
    // QuickJS reports handles left alive at JS_FreeRuntime as "Aborted(Assertion failed:
    // list_empty(&rt->gc_obj_list))" through console.error.
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const never: SandboxRun['host'] = () => new Promise(() => undefined);
      const cases: [string, Partial<SandboxRun>, string][] = [
        ['exports.handler = () => new Promise(() => {});', { timeoutMs: 200 }, 'timeout'],
        [
          'exports.handler = (m) => m.readResource("Patient", "p1");',
          { timeoutMs: 200, host: never },
          'timeout',
        ],
        [
          'exports.handler = async () => { await 0; const a = []; for (;;) a.push({ t: "n" }); };',
          { memoryBytes: 8 * 1024 * 1024, timeoutMs: 10_000 },
          'memory',
        ],
        ['exports.handler = async () => { const f = (n) => f(n + 1) + 1; return f(0); };', {}, 'memory'],
        ['exports.handler = async () => { for (;;) {} };', { timeoutMs: 200 }, 'timeout'],
      ];
      for (const [code, overrides, reason] of cases) {
        expect(await run(code, overrides)).toMatchObject({ ok: false, reason });
      }
      expect(await run('exports.handler = async () => "fine";')).toEqual({
        ok: true,
        output: 'fine',
        logs: [],
      });
      expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });

  it("gives HL7 v2 input as @medplum/core's Hl7Message and sends an Hl7Message answer back as HL7 text", async () => {
    const message =
      'MSH|^~\\&|LAB|HOSP|BLOOM|CLINIC|20260101120000||ORU^R01|CTRL42|P|2.5\rPID|1||12345^^^MRN||Doe^Jane~Roe^Jan\rOBX|1|NM|GLU||5.4|mmol/L\r';
    const code = `exports.handler = async (medplum, event) => {
      const input = event.input;
      const msh = input.getSegment('MSH');
      const pid = input.getSegment('PID');
      console.log([input instanceof Hl7Message, msh.getField(1).toString(), msh.getField(2).toString(),
        msh.getField(9).getComponent(1), msh.getComponent(9, 2), msh.getField(10).toString(),
        pid.getComponent(5, 2), pid.getField(5).getComponent(1, undefined, 1), pid.getField(3).getComponent(4),
        input.getAllSegments('OBX').length, input.header.name, input.getSegment(2).getField(5).toString()].join(' '));
      const ack = input.buildAck({ ackCode: 'AE' });
      console.log(ack.getAckType(), ack.getSegment('MSH').getField(9).toString());
      return ack;
    };`;
    const result = await run(code, {
      event: { input: message, contentType: 'x-application/hl7-v2+er7', secrets: {} },
    });
    expect(result).toMatchObject({ ok: true, contentType: 'x-application/hl7-v2+er7' });
    expect(result.logs).toEqual(['true | ^~\\& ORU R01 CTRL42 Jane Roe MRN 1 MSH 5.4', 'AE ACK^R01^ACK']);
    const [msh, msa] = String(result.ok && result.output).split('\r');
    expect(msh).toMatch(/^MSH\|\^~\\&\|BLOOM\|CLINIC\|LAB\|HOSP\|\d{14}\|\|ACK\^R01\^ACK\|\d+\|P\|2\.5$/);
    expect(msa).toBe('MSA|AE|CTRL42');

    // Not HL7 at all: the bot's error says so; other content types keep their text.
    expect(
      await run('exports.handler = async (m, e) => e.input;', {
        event: { input: 'hello', contentType: 'x-application/hl7-v2+er7', secrets: {} },
      }),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/Invalid HL7 message/) });
    expect(
      await run('exports.handler = async (m, e) => e.input;', {
        event: { input: message, contentType: 'text/plain', secrets: {} },
      }),
    ).toEqual({ ok: true, output: message, logs: [] });
  });

  it('refuses code without a handler and code that does not parse', async () => {
    expect(await run('exports.other = 1;')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/handler/),
    });
    expect(await run('exports.handler = async () => {')).toMatchObject({
      ok: false,
      reason: 'error',
      error: expect.stringMatching(/SyntaxError/),
    });
  });
});
