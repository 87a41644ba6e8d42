import type { AnyLabDefinition } from '../../sim/lab';
import type { LabEnv } from '../../sim/labs';
import type { LabSchemas } from '../../sim/scenario';
import type { LabReport } from '../reports';

/**
 * What `replay` needs of one lab: its scenario schemas (the file is checked against them), its
 * definition (built over `env`: the ledger needs a database opener) and its CLI report. One module
 * per lab (`kits/<lab>.ts`), so the bundled `replay` loads only the file's own lab.
 */
export interface LabKit {
  schemas: LabSchemas;
  definition(env: LabEnv): AnyLabDefinition;
  report: LabReport;
}
