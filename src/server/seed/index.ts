export { seedDemoClinic } from './demo-clinic';
export type { SeedOptions, SeedResult } from './demo-clinic';
export { buildPatientAccessPolicy, seedDemoAccounts } from './demo-accounts';
export { APP_CLIENT_NAME, findAppClientId } from './app-client';
export { topUpDemoSlots } from './demo-slots';
export type { TopUpOptions, TopUpResult } from './demo-slots';
export { upgradeMessageThreads } from './message-threads';
export type { ThreadUpgradeResult } from './message-threads';
export { upgradePatientAccessPolicy } from './patient-policy-upgrade';
