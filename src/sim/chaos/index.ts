/**
 * The seeded chaos swarm: fault plans from one seed (faults.ts), the faults each lab applies
 * (each lab's `chaos` part, read by labFaults.ts), and the swarm over many seeds with safety and liveness apart (swarm.ts).
 */
export * from './faults';
export * from './labFaults';
export * from './swarm';
export * from './policies';
export * from './link';
