import { describeSwarmOverBuiltins } from './builtinSwarm';

describeSwarmOverBuiltins('flow');
