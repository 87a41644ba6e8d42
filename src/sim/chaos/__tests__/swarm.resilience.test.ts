import { describeSwarmOverBuiltins } from './builtinSwarm';

describeSwarmOverBuiltins('resilience');
