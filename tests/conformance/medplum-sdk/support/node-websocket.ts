// Imported before @medplum/core: it subclasses globalThis.WebSocket when it loads, and Node 20 has
// no global WebSocket (TOOLCHAIN.md "Medplum's own packages as test referees").
import WebSocket from 'ws';

(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
