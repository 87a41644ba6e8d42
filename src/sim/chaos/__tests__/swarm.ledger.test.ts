import { loadSqlJsNode } from '../../../db/node';
import { memoryOpener } from '../../../db/sqljs';
import { describeSwarmOverBuiltins } from './builtinSwarm';

describeSwarmOverBuiltins('ledger', async () => memoryOpener(await loadSqlJsNode()));
