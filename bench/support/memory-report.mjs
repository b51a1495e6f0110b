// Preloaded (`--import`) into the server the soak starts, never into a served process: answers the
// soak's IPC message 'memory' with the server's own process.memoryUsage(), after a full garbage
// collection when asked ({ gc: true }) and the server runs with --expose-gc. An IPC channel, not an
// HTTP endpoint, so nothing of this is reachable from the network and the server's code is unchanged.
process.on('message', (message) => {
  if (typeof message !== 'object' || message === null || message.type !== 'memory') return;
  const collected = message.gc === true && typeof globalThis.gc === 'function';
  if (collected) globalThis.gc();
  process.send?.({ type: 'memory', id: message.id, collected, usage: process.memoryUsage() });
});
// The channel must not keep a stopping server alive.
process.channel?.unref();
