// The agent program's transports and configuration: MLLP framing (0x0B ...
// 0x1C 0x0D) with frames split and joined across TCP chunks, a real MLLP server and client on
// loopback, HL7 ACKs, plain TCP, destinations and the AGENT_* configuration with its refusals.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadAgentConfig } from '../../src/agent/config';
import { deliver, findDestination, parseDestination } from '../../src/agent/destinations';
import { ackCodeOf, buildAck, controlIdOf, isCommitAck } from '../../src/agent/hl7-ack';
import { createMllpServer, encodeMllp, MllpDecoder, sendMllp } from '../../src/agent/mllp';
import { DestinationError } from '../../src/agent/socket-exchange';
import { sendTcp } from '../../src/agent/tcp-client';

const ADT =
  'MSH|^~\\&|BLOOM|CLINIC|LAB|HOSPITAL|20260101120000||ADT^A01|MSG00001|P|2.5\rPID|1||12345||Doe^Jane\r';

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('MLLP framing (issue #10 Agents)', () => {
  it('frames a message as 0x0B ... 0x1C 0x0D', () => {
    const frame = encodeMllp('AB');
    expect([...frame]).toEqual([0x0b, 0x41, 0x42, 0x1c, 0x0d]);
  });

  it('decodes frames split across chunks, several in one chunk, and ignores bytes between frames', () => {
    const decoder = new MllpDecoder();
    const both = Buffer.concat([encodeMllp('first'), Buffer.from('noise'), encodeMllp('sécond')]);
    expect(decoder.push(both.subarray(0, 3))).toEqual([]);
    expect(decoder.push(both.subarray(3, 8))).toEqual(['first']);
    expect(decoder.push(both.subarray(8))).toEqual(['sécond']);
    expect(decoder.push(Buffer.concat([encodeMllp('a'), encodeMllp('b')]))).toEqual(['a', 'b']);
  });

  it('keeps a lone 0x1C inside a frame as data, and splits a frame between 0x1C and 0x0D', () => {
    const decoder = new MllpDecoder();
    const frame = Buffer.from([0x0b, 0x41, 0x1c, 0x42, 0x1c, 0x0d]);
    expect(decoder.push(frame.subarray(0, 5))).toEqual([]);
    expect(decoder.push(frame.subarray(5))).toEqual(['A\x1cB']);
  });

  it('refuses a frame larger than its limit', () => {
    const decoder = new MllpDecoder(10);
    expect(() => decoder.push(Buffer.concat([Buffer.from([0x0b]), Buffer.alloc(20, 0x41)]))).toThrow(
      'larger than 10 bytes',
    );
  });
});

describe('HL7 v2 ACKs', () => {
  it('builds an AA ACK with sender and receiver swapped and the control id in MSA', () => {
    const ack = buildAck(ADT, 'AA', undefined, new Date('2026-01-02T03:04:05Z'));
    const [msh, msa] = ack.split('\r');
    expect(msh).toBe('MSH|^~\\&|LAB|HOSPITAL|BLOOM|CLINIC|20260102030405||ACK^A01|ACKMSG00001|P|2.5');
    expect(msa).toBe('MSA|AA|MSG00001');
    expect(controlIdOf(ADT)).toBe('MSG00001');
    expect(ackCodeOf(ack)).toBe('AA');
    expect(isCommitAck(ack)).toBe(false);
    expect(isCommitAck(buildAck(ADT, 'CA'))).toBe(true);
    expect(buildAck(ADT, 'AE', 'Unknown patient').split('\r')[1]).toBe('MSA|AE|MSG00001|Unknown patient');
  });

  it('refuses to acknowledge text that is not HL7 v2', () => {
    expect(() => buildAck('hello')).toThrow('no MSH segment');
    expect(ackCodeOf('hello')).toBeUndefined();
  });
});

describe('MLLP client and server on loopback', () => {
  let server: net.Server;
  let port: number;
  const received: string[] = [];

  beforeAll(async () => {
    server = createMllpServer((message) => {
      received.push(message);
      if (message.includes('NOREPLY')) return undefined;
      if (message.includes('COMMIT')) return Promise.resolve(buildAck(message, 'CA'));
      return buildAck(message);
    });
    port = await listen(server);
  });

  afterAll(() => close(server));

  it('sends a message and resolves with the ACK', async () => {
    const reply = await sendMllp({
      host: '127.0.0.1',
      port,
      message: ADT,
      waitForResponse: true,
      timeoutMs: 5000,
    });
    expect(ackCodeOf(reply as string)).toBe('AA');
    expect(received).toContain(ADT);
  });

  it('without waiting, resolves once written', async () => {
    const message = ADT.replace('MSG00001', 'MSG00002');
    await expect(
      sendMllp({ host: '127.0.0.1', port, message, waitForResponse: false, timeoutMs: 5000 }),
    ).resolves.toBeUndefined();
  });

  it('times out when the destination never answers, and reports an unreachable one', async () => {
    const silent = ADT.replace('ADT^A01', 'ADT^A01^NOREPLY');
    await expect(
      sendMllp({ host: '127.0.0.1', port, message: silent, waitForResponse: true, timeoutMs: 200 }),
    ).rejects.toMatchObject({ kind: 'timeout' });
    const unused = net.createServer();
    const unusedPort = await listen(unused);
    await close(unused);
    const error = await sendMllp({
      host: '127.0.0.1',
      port: unusedPort,
      message: ADT,
      waitForResponse: true,
      timeoutMs: 2000,
    }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(DestinationError);
    expect(error).toMatchObject({ kind: 'unreachable' });
  });

  it("returnAck 'application' skips a commit ACK", async () => {
    // This server answers COMMIT messages with a CA only: the application-level wait times out.
    const commit = ADT.replace('ADT^A01', 'ADT^A01^COMMIT');
    const destination = parseDestination({ name: 'lab', url: `mllp://127.0.0.1:${port}` });
    const first = await deliver(destination, commit, { waitForResponse: true, timeoutMs: 2000 });
    expect(ackCodeOf(first as string)).toBe('CA');
    await expect(
      deliver(destination, commit, { waitForResponse: true, timeoutMs: 300, returnAck: 'application' }),
    ).rejects.toMatchObject({ kind: 'timeout' });
  });
});

describe('plain TCP destinations', () => {
  it('writes the body, closes its side, and reads the reply until the peer closes', async () => {
    const server = net.createServer((socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => socket.end(`got ${Buffer.concat(chunks).toString()}`));
    });
    const port = await listen(server);
    try {
      await expect(
        sendTcp({ host: '127.0.0.1', port, body: 'PRINT 1', waitForResponse: true, timeoutMs: 2000 }),
      ).resolves.toBe('got PRINT 1');
      const destination = parseDestination({ name: 'printer', url: `tcp://127.0.0.1:${port}` });
      await expect(
        deliver(destination, 'x', { waitForResponse: false, timeoutMs: 2000 }),
      ).resolves.toBeUndefined();
    } finally {
      await close(server);
    }
  });
});

describe('destinations and configuration', () => {
  it('accepts mllp:// and tcp:// URLs with a host and port, refuses others', () => {
    expect(parseDestination({ name: 'lab', url: 'mllp://10.0.0.7:2575' })).toMatchObject({
      protocol: 'mllp',
      host: '10.0.0.7',
      port: 2575,
    });
    expect(() => parseDestination({ name: 'web', url: 'http://x:80' })).toThrow('only mllp:// and tcp://');
    expect(() => parseDestination({ name: 'lab', url: 'mllp://host' })).toThrow('needs a host and a port');
    expect(() => parseDestination({ name: 'lab', url: 'not a url' })).toThrow('is not a URL');
    const list = [parseDestination({ name: 'lab', url: 'mllp://10.0.0.7:2575' })];
    expect(findDestination(list, 'lab')?.name).toBe('lab');
    expect(findDestination(list, 'mllp://10.0.0.7:2575')?.name).toBe('lab');
    expect(findDestination(list, 'mllp://10.0.0.8:2575')).toBeUndefined();
  });

  it('reads a JSON file, lets AGENT_* variables win, and names what is missing or wrong', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-agent-config-'));
    const file = path.join(dir, 'agent.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        baseUrl: 'http://localhost:8103',
        clientId: 'c1',
        clientSecret: 's1',
        agentId: 'a1',
        destinations: { lab: 'mllp://127.0.0.1:2575' },
      }),
    );
    try {
      const config = loadAgentConfig({ AGENT_ID: 'a2' }, file);
      expect(config).toMatchObject({
        baseUrl: 'http://localhost:8103/',
        clientId: 'c1',
        agentId: 'a2',
        destinationTimeout: 10_000,
      });
      expect(config.destinations.map((d) => d.name)).toEqual(['lab']);
      const fromEnv = loadAgentConfig(
        { AGENT_DESTINATIONS: 'a=mllp://h:1, b=tcp://h:2', AGENT_DESTINATION_TIMEOUT: '500' },
        file,
      );
      expect(fromEnv.destinations.map((d) => d.url)).toEqual(['mllp://h:1', 'tcp://h:2']);
      expect(fromEnv.destinationTimeout).toBe(500);
      expect(() => loadAgentConfig({}, undefined)).toThrow('AGENT_BASE_URL (baseUrl) is required');
      expect(() => loadAgentConfig({ AGENT_CLIENT_SECRET: '', AGENT_BASE_URL: 'ftp://x' }, file)).toThrow(
        'must be an http or https URL',
      );
      expect(() => loadAgentConfig({ AGENT_DESTINATIONS: 'lab' }, file)).toThrow('entries are name=url');
      expect(() => loadAgentConfig({ AGENT_DESTINATIONS: 'a=mllp://h:1,a=tcp://h:2' }, file)).toThrow(
        "'a' is configured twice",
      );
      expect(() => loadAgentConfig({ AGENT_DESTINATION_TIMEOUT: '-1' }, file)).toThrow(
        'positive whole number',
      );
      expect(() => loadAgentConfig({}, path.join(dir, 'missing.json'))).toThrow('Cannot read');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
