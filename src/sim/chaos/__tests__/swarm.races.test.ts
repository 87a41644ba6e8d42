import { describeSwarmOverBuiltins } from './builtinSwarm';

describeSwarmOverBuiltins('races');
