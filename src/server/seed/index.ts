export { seedDemoClinic } from './demo-clinic';
export type { SeedOptions, SeedResult } from './demo-clinic';
