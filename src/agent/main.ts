// `npm run agent`: the agent program. Configuration from AGENT_* variables
// and/or the JSON file named by AGENT_CONFIG or the first argument (README "Agent").
import { BloomAgent, consoleLogger } from './agent';
import { AgentConfigError, loadAgentConfig } from './config';

async function main(): Promise<void> {
  const config = loadAgentConfig(process.env, process.argv[2] ?? process.env.AGENT_CONFIG);
  const agent = new BloomAgent(config, consoleLogger);
  const shutdown = (): void => {
    void agent.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await agent.start();
  consoleLogger.info(
    `Forwarding to ${config.destinations.map((d) => `${d.name} (${d.url})`).join(', ') || 'no destinations'}`,
  );
}

main().catch((err: unknown) => {
  consoleLogger.error(
    err instanceof AgentConfigError ? err.message : `Cannot start: ${(err as Error).message}`,
  );
  process.exit(1);
});
